/// <reference lib="webworker" />
// What every engine-worker job shares (engine/worker.ts, and the jobs it
// loads on demand such as engine/compareJob.ts): posting to the page, errors
// that blame a field, progress, running a chunked job, and a node scenario
// parsed by the core.

import type { Job, Jumphash, NodeChange, NodeSpec } from 'jumphash-wasm';
import type { Field, KeyText, NodeScenario, WorkerMessage } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

/** An input error that names the field to show it next to. */
export class FieldError extends Error {
  constructor(
    message: string,
    readonly field?: Field,
  ) {
    super(message);
  }
}

/** Runs `run`, turning its RangeError into a FieldError on `field`. */
export function blame<T>(field: Field | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError) throw new FieldError(error.message, field);
    throw error;
  }
}

export function post(message: WorkerMessage, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

/**
 * Progress of a request that walks several jobs over the same key set:
 * posted at the first chunk, then at most every 50 ms, and at the end. A
 * grant of a split report's run (`grant`) posts neither at its first chunk
 * nor at its end (its reply carries its progress): the page
 * handles each message on its main thread, which shares the cores with the
 * workers, and a report of 10^7 keys on two workers has about twenty
 * grants.
 */
export class Progress {
  private done = 0;
  private lastPost: number;
  constructor(
    private readonly id: number,
    private readonly total: number,
    private readonly grant = false,
  ) {
    this.lastPost = grant ? performance.now() : -Infinity;
  }
  add(keys: number, phase: string): void {
    this.done += keys;
    const now = performance.now();
    if (now - this.lastPost > 50 || (this.done >= this.total && !this.grant)) {
      this.lastPost = now;
      post({ id: this.id, type: 'progress', done: this.done, total: this.total, phase });
    }
  }
}

/**
 * Steps `job` until it has done `until` of its keys (every key by
 * default), in chunks sized to about 40 ms each, starting from `chunk`
 * keys, and adds them to `progress`; returns the chunk size to go on with.
 */
export function stepJob(job: Job<unknown>, progress: Progress, phase: string, until = job.total, chunk = 65536): number {
  do {
    const before = job.done;
    const start = performance.now();
    job.step(Math.max(1, Math.min(chunk, until - before)));
    const elapsed = performance.now() - start;
    progress.add(job.done - before, phase);
    if (elapsed < 20) chunk = Math.min(chunk * 2, 1 << 24);
    else if (elapsed > 80) chunk = Math.max(1024, Math.floor(chunk / 2));
  } while (job.done < until);
  return chunk;
}

/** Runs a chunked job to the end (stepJob) and returns `finish(job)` (its result). */
export function runJob<J extends Job<unknown>, R = ReturnType<J['result']>>(
  job: J,
  progress: Progress,
  phase: string,
  finish: (job: J) => R = (finished) => finished.result() as R,
): R {
  try {
    stepJob(job, progress, phase);
    return finish(job);
  } finally {
    job.dispose();
  }
}

/** A node scenario parsed by the core: the list, its steps, and each algorithm's options. */
export interface ParsedScenario {
  nodes: NodeSpec[];
  steps: NodeChange[];
  /** Algorithm name -> ALGO's assignments ("table=251"). */
  options: Map<string, string>;
}

/** Parses `algorithm.option=value` entries and checks each algorithm's options with the core. */
function parseOptions(jh: Jumphash, text: string): Map<string, string> {
  const names = jh.algorithms().map((info) => info.name);
  const options = new Map<string, string>();
  for (const entry of text.split(/[\s,]+/).filter((word) => word !== '')) {
    const match = /^([^.=]+)\.([^=]+)=(.*)$/.exec(entry);
    if (!match) {
      throw new FieldError(`option '${entry}' is not written algorithm.option=value (e.g. maglev.table=251)`, 'opts');
    }
    const name = names.find((known) => known === match[1]!.toLowerCase());
    if (name === undefined) {
      throw new FieldError(`option '${entry}' names no algorithm (known: ${names.join(', ')})`, 'opts');
    }
    const assignment = `${match[2]}=${match[3]}`;
    options.set(name, options.has(name) ? `${options.get(name)} ${assignment}` : assignment);
  }
  for (const [name, assignments] of options) {
    blame('opts', () => jh.cluster(`${name} ${assignments}`, 1).dispose());
  }
  return options;
}

export function parseScenario(jh: Jumphash, scenario: NodeScenario): ParsedScenario {
  return {
    nodes: blame('nodes', () => jh.parseNodes(scenario.nodes)),
    steps: blame('steps', () => jh.parseChanges(scenario.steps)),
    options: parseOptions(jh, scenario.opts),
  };
}

/** The algorithm with its options, as the package takes it ("maglev table=251"). */
export function withOptions(algo: string, parsed: ParsedScenario | null): string {
  const options = parsed?.options.get(algo);
  return options ? `${algo} ${options}` : algo;
}

/** A RangeError's message (an input the core refused); anything else is rethrown. */
export function messageOf(error: unknown): string {
  if (error instanceof RangeError) return error.message;
  throw error;
}

/** The request with its keys as text (a Blob is read here, off the page's main thread). */
export async function withKeyText<R extends { keys: KeyText }>(request: R): Promise<WithKeyText<R>> {
  return typeof request.keys === 'string' ? (request as WithKeyText<R>) : { ...request, keys: await request.keys.text() };
}
export type WithKeyText<R> = R & { keys: string };
