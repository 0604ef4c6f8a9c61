/// <reference lib="webworker" />
// An engine worker: its own instance of the WebAssembly module. Reports run
// here in chunks and post their progress; the page cancels a report by
// terminating the worker, so nothing here has to poll for cancellation.

import { loadChecker, loadJumphash, type Checker, type Job, type Jumphash, type ResizeResult } from 'jumphash-wasm';
import type {
  CompareReply,
  CompareRequest,
  ComputeReply,
  ComputeRequest,
  Field,
  LoadItem,
  LoadReply,
  LoadRequest,
  Request,
  ResizeReply,
  ResizeRequest,
  ResizeStep,
  WorkerMessage,
} from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const modulePromise = loadJumphash();
// The checker is a module of its own, fetched on the first 'check' request
// only: most visits (and every embed) never check output.
let checkerPromise: Promise<Checker> | undefined;

class FieldError extends Error {
  constructor(
    message: string,
    readonly field?: Field,
  ) {
    super(message);
  }
}

function blame<T>(field: Field | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError) throw new FieldError(error.message, field);
    throw error;
  }
}

function post(message: WorkerMessage, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

/** Progress of a request that walks several jobs over the same key set. */
class Progress {
  private done = 0;
  private lastPost = 0;
  constructor(
    private readonly id: number,
    private readonly total: number,
  ) {}
  add(keys: number, phase: string): void {
    this.done += keys;
    const now = performance.now();
    if (now - this.lastPost > 50 || this.done >= this.total) {
      this.lastPost = now;
      post({ id: this.id, type: 'progress', done: this.done, total: this.total, phase });
    }
  }
}

/** Runs a chunked job to the end, sizing chunks to about 40 ms each. */
function runJob<R>(job: Job<R>, progress: Progress, phase: string): R {
  try {
    let chunk = 65536;
    for (;;) {
      const before = job.done;
      const start = performance.now();
      const finished = job.step(chunk);
      const elapsed = performance.now() - start;
      progress.add(job.done - before, phase);
      if (finished) break;
      if (elapsed < 20) chunk = Math.min(chunk * 2, 1 << 24);
      else if (elapsed > 80) chunk = Math.max(1024, Math.floor(chunk / 2));
    }
    return job.result();
  } finally {
    job.dispose();
  }
}

function compute(jh: Jumphash, request: ComputeRequest): ComputeReply {
  const parsed = blame('key', () => jh.parseKey(request.key));
  const buckets = request.algos.map((algo) => ({
    algo,
    bucket: blame('n', () => jh.bucket(algo, parsed.value, request.n)),
  }));
  const traces = request.algos.map((algo) => {
    const steps = blame('trace', () => jh.trace(algo, parsed.value, request.traceMax));
    return { algo, ns: Float64Array.from(steps, (s) => s.n), buckets: Int32Array.from(steps, (s) => s.bucket) };
  });
  return { value: parsed.value, label: parsed.label, buckets, traces };
}

function sizeField(message: string): Field | undefined {
  if (/\bfrom\b/.test(message)) return 'from';
  if (/\bto\b/.test(message)) return 'to';
  return undefined;
}

function compactResize(result: ResizeResult): { step: ResizeStep; transfer: Transferable[] } {
  const sampleValues = new BigUint64Array(result.sample.length);
  const sampleOld = new Int32Array(result.sample.length);
  const sampleNew = new Int32Array(result.sample.length);
  const sampleLabels: [number, string][] = [];
  result.sample.forEach((moved, i) => {
    sampleValues[i] = moved.value;
    sampleOld[i] = moved.oldBucket;
    sampleNew[i] = moved.newBucket;
    if (moved.key !== moved.value.toString()) sampleLabels.push([i, moved.key]);
  });
  const sources = result.flowBalance.length;
  const flowMovedOut = new Float64Array(sources);
  const flowChiSquare = new Float64Array(sources);
  const flowDof = new Float64Array(sources);
  for (const balance of result.flowBalance) {
    flowMovedOut[balance.source] = balance.movedOut;
    flowChiSquare[balance.source] = balance.chiSquare;
    flowDof[balance.source] = balance.degreesOfFreedom;
  }
  const step: ResizeStep = {
    algorithm: result.algorithm,
    from: result.from,
    to: result.to,
    total: result.total,
    moved: result.moved,
    minimumMovedExpected: result.minimumMovedExpected,
    loadsBefore: result.loadsBefore,
    loadsAfter: result.loadsAfter,
    flows: result.flows,
    flowMovedOut,
    flowChiSquare,
    flowDof,
    sampleValues,
    sampleOld,
    sampleNew,
    sampleLabels,
  };
  const transfer: Transferable[] = [
    result.loadsBefore.buffer,
    result.loadsAfter.buffer,
    flowMovedOut.buffer,
    flowChiSquare.buffer,
    flowDof.buffer,
    sampleValues.buffer,
    sampleOld.buffer,
    sampleNew.buffer,
  ];
  if (result.flows) transfer.push(result.flows.buffer);
  return { step, transfer: dedupe(transfer) };
}

function dedupe(buffers: Transferable[]): Transferable[] {
  return [...new Set(buffers)];
}

function resize(jh: Jumphash, id: number, request: ResizeRequest): { reply: ResizeReply; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const pairs = request.sizes.length - 1;
  const progress = new Progress(id, keyCount * pairs * request.algos.length);
  const steps: ResizeStep[] = [];
  const transfer: Transferable[] = [];
  for (const algo of request.algos) {
    for (let i = 0; i < pairs; i++) {
      const from = request.sizes[i]!;
      const to = request.sizes[i + 1]!;
      let job: Job<ResizeResult>;
      try {
        job = jh.startResize(algo, request.keys, from, to, { sampleLimit: request.sampleLimit });
      } catch (error) {
        if (error instanceof RangeError) throw new FieldError(error.message, sizeField(error.message));
        throw error;
      }
      const compact = compactResize(runJob(job, progress, `${algo}: ${from} → ${to}`));
      steps.push(compact.step);
      transfer.push(...compact.transfer);
    }
  }
  return { reply: { keyCount, steps }, transfer };
}

function load(jh: Jumphash, id: number, request: LoadRequest): { reply: LoadReply; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const progress = new Progress(id, keyCount * request.algos.length);
  const items: LoadItem[] = [];
  for (const algo of request.algos) {
    const job = blame('n', () => jh.startLoad(algo, request.keys, request.n));
    const result = runJob(job, progress, `${algo}: loads among ${request.n}`);
    items.push({ algorithm: result.algorithm, n: result.n, loads: result.loads, ...result.stats });
  }
  return { reply: { keyCount, items }, transfer: items.map((item) => item.loads.buffer) };
}

/** SplitMix64 outputs as keys for timing lookups (BigInt arithmetic, exact). */
function randomKeys(count: number, seed: bigint): BigUint64Array {
  const keys = new BigUint64Array(count);
  let state = seed;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    keys[i] = z ^ (z >> 31n);
  }
  return keys;
}

function measureLookups(jh: Jumphash, algo: string, keys: BigUint64Array, n: number): number {
  jh.buckets(algo, keys, n); // warm-up (lets the engine tier up)
  let lookups = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 150) {
    jh.buckets(algo, keys, n);
    lookups += keys.length;
    elapsed = performance.now() - start;
  }
  return lookups / (elapsed / 1000);
}

function compare(jh: Jumphash, id: number, request: CompareRequest): CompareReply {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  // Bucket counts only until Compare takes node lists (issue 9).
  const algorithms = jh.algorithms().filter((info) => info.kind === 'bucket-count');
  const progress = new Progress(id, keyCount * 2 * algorithms.length);
  const timingKeys = randomKeys(1 << 16, 0x5eedn);
  const rows = algorithms.map((info) => {
    let job: Job<ResizeResult>;
    try {
      job = jh.startResize(info.name, request.keys, request.from, request.to, { sampleLimit: 0 });
    } catch (error) {
      if (error instanceof RangeError) throw new FieldError(error.message, sizeField(error.message));
      throw error;
    }
    const resized = runJob(job, progress, `${info.name}: ${request.from} → ${request.to}`);
    const loaded = runJob(
      blame('n', () => jh.startLoad(info.name, request.keys, request.n)),
      progress,
      `${info.name}: loads among ${request.n}`,
    );
    let worst: number | null = null;
    if (resized.flows) {
      worst = 0;
      for (const balance of resized.flowBalance) {
        if (balance.degreesOfFreedom > 0) worst = Math.max(worst, balance.chiSquare / balance.degreesOfFreedom);
      }
    }
    const lookupsPerSecond = measureLookups(jh, info.name, timingKeys, request.n);
    return {
      info,
      total: resized.total,
      moved: resized.moved,
      minimumMovedExpected: resized.minimumMovedExpected,
      maxOverMean: loaded.stats.maxOverMean,
      chiSquare: loaded.stats.chiSquare,
      degreesOfFreedom: loaded.stats.degreesOfFreedom,
      worstFlowChiPerDof: worst,
      lookupsPerSecond,
      nsPerLookup: 1e9 / lookupsPerSecond,
    };
  });
  return { keyCount, rows };
}

async function handle(id: number, request: Request): Promise<void> {
  const jh = await modulePromise;
  switch (request.kind) {
    case 'info':
      post({ id, type: 'result', value: { version: jh.version, algorithms: jh.algorithms(), language: jh.language() } });
      return;
    case 'compute': {
      const reply = compute(jh, request);
      post({ id, type: 'result', value: reply }, reply.traces.flatMap((t) => [t.ns.buffer, t.buckets.buffer]));
      return;
    }
    case 'keyCount':
      post({ id, type: 'result', value: blame('keys', () => jh.keyCount(request.keys)) });
      return;
    case 'run':
      post({ id, type: 'result', value: jh.run(request.script) });
      return;
    case 'check': {
      checkerPromise ??= loadChecker();
      const checker = await checkerPromise;
      post({ id, type: 'result', value: blame('output', () => checker.check(request.script, request.output)) });
      return;
    }
    case 'resize': {
      const { reply, transfer } = resize(jh, id, request);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'load': {
      const { reply, transfer } = load(jh, id, request);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'compare':
      post({ id, type: 'result', value: compare(jh, id, request) });
      return;
  }
}

self.onmessage = (event: MessageEvent<{ id: number; request: Request }>) => {
  const { id, request } = event.data;
  handle(id, request).catch((error: unknown) => {
    if (error instanceof FieldError) {
      post({ id, type: 'error', message: error.message, ...(error.field ? { field: error.field } : {}) });
    } else {
      post({ id, type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  });
};
