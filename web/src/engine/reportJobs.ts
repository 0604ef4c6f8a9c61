// What a report's jobs share, whole or split: engine/worker.ts runs a whole
// resize or load, and engine/splitJob.ts (fetched with the first split
// report) a run of one and the merge. The reports a resize request asks
// for, as jobs to start; the buffers to transfer.

import type { Jumphash, LoadResult, ResizeJob, Topology } from 'jumphash-wasm';
import type { Field, LoadRequest, ReportedResize, ResizeRequest, StepOutcome } from './protocol';
import { describeChange } from './scenario';
import {
  FieldError, Progress, type ParsedScenario, type WithKeyText, blame, messageOf, parseScenario, runJob, withOptions,
} from './workerJobs';

/** The buffers a result holds, to transfer instead of copy (a resize's flow balance columns share one). */
export function buffersOf(result: Pick<ReportedResize, 'loadsBefore' | 'loadsAfter' | 'flowCells'> & { flowBalance?: ReportedResize['flowBalance'] } | LoadResult): ArrayBuffer[] {
  const arrays = 'loads' in result
    ? [result.loads, result.idealShares]
    : [result.loadsBefore, result.loadsAfter, result.flowCells?.index, result.flowCells?.count, result.flowBalance?.movedOut];
  return [...new Set(arrays.filter((a) => a != null).map((a) => a.buffer as ArrayBuffer))];
}

/**
 * The whole report a worker runs once, its reply dropped, when a page of
 * one worker warms it up (WarmUpRequest): the page's default pair of
 * algorithms over 2^19 keys (24 and 10 ms in Node on a fresh module; 2^17
 * warmed less: docs/every-core.md), so that V8 has optimised their
 * report loops before the first report. A WebAssembly function runs as
 * baseline code until it has run enough and V8 has optimised it in the
 * background, which the first report otherwise waited for. (A page of
 * several workers runs the split code instead: engine/splitJob.ts,
 * warmUp.)
 */
export const WHOLE_REPORT_WARM_UP: WithKeyText<ResizeRequest> = {
  kind: 'resize',
  algos: ['jump', 'jumpback'],
  keys: `random:${1 << 19}:1`,
  sizes: [10, 11],
  sampleLimit: 1000,
};

/** One report of a resize request: an algorithm over one step of the chain, started with job options. */
export interface ResizeStep {
  algo: string;
  label: string;
  start: (options: { sampleLimit: number; keyRange?: [number, number]; fromEnd?: boolean }) => ResizeJob;
}

/** The reports a resize request asks for, algorithm-major (every step of the first algorithm, then the next). */
export function resizeSteps(jh: Jumphash, request: WithKeyText<ResizeRequest>, scenario: ParsedScenario | null): ResizeStep[] {
  const pairs = scenario ? scenario.steps.length : request.sizes.length - 1;
  const steps: ResizeStep[] = [];
  for (const algo of request.algos) {
    for (let i = 0; i < pairs; i++) {
      if (scenario) {
        const before: Topology = { kind: 'nodes', nodes: scenario.nodes, edits: scenario.steps.slice(0, i) };
        steps.push({
          algo,
          label: describeChange(scenario.steps[i]!),
          start: (options) => jh.startResize(withOptions(algo, scenario), request.keys, before, [scenario.steps[i]!], options),
        });
      } else {
        const from = request.sizes[i]!;
        const to = request.sizes[i + 1]!;
        steps.push({ algo, label: `${from} → ${to}`, start: (options) => jh.startResize(algo, request.keys, from, to, options) });
      }
    }
  }
  return steps;
}

/**
 * The reports of a whole resize request (engine/worker.ts), each made by
 * `finish` from its finished job, which adds the buffers to transfer to
 * `transfer`.
 */
export function resizeReports<R>(
  jh: Jumphash,
  id: number,
  request: WithKeyText<ResizeRequest>,
  finish: (job: ResizeJob, transfer: Transferable[]) => R,
): { reply: { keyCount: number; steps: StepOutcome<R>[] }; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const planned = resizeSteps(jh, request, scenario);
  const progress = new Progress(id, keyCount * planned.length);
  const steps: StepOutcome<R>[] = [];
  const transfer: Transferable[] = [];
  for (const { algo, label, start } of planned) {
    let job: ResizeJob;
    try {
      job = start({ sampleLimit: request.sampleLimit });
    } catch (error) {
      steps.push({ algorithm: algo, label, result: null, error: messageOf(error) });
      progress.add(keyCount, `${algo}: ${label}`);
      continue;
    }
    steps.push({ algorithm: algo, label, result: runJob(job, progress, `${algo}: ${label}`, (finished) => finish(finished, transfer)), error: null });
  }
  throwIfAllFailed(steps, scenario !== null);
  return { reply: { keyCount, steps }, transfer };
}

/**
 * When every report of a request over bucket counts failed (not on a node
 * list, whose reports fail alone), the first one's error, blaming
 * `field(message)`: by default the bucket count a resize's message names.
 */
export function throwIfAllFailed(
  outcomes: readonly { error: string | null }[],
  onNodes: boolean,
  field: (message: string) => Field | undefined = sizeField,
): void {
  const failed = outcomes.filter((outcome) => outcome.error !== null);
  if (outcomes.length > 0 && failed.length === outcomes.length && !onNodes) {
    throw new FieldError(failed[0]!.error!, field(failed[0]!.error!));
  }
}

function sizeField(message: string): Field | undefined {
  if (/\bfrom\b/.test(message)) return 'from';
  if (/\bto\b/.test(message)) return 'to';
  return undefined;
}

/** What a load counts, for its progress: loads per node of a list, or among `n` buckets. */
export function loadLabel(n: number, onNodes: boolean): string {
  return onNodes ? 'loads per node' : `loads among ${n}`;
}

/** The topology a load request counts over: the scenario's nodes, or n buckets. */
export function loadTopology(request: LoadRequest, scenario: ParsedScenario | null): Topology {
  return scenario ? { kind: 'nodes', nodes: scenario.nodes } : request.n;
}
