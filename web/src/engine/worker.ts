/// <reference lib="webworker" />
// An engine worker: its own instance of the WebAssembly module. Reports run
// here in chunks and post their progress; the page cancels a report by
// terminating the worker, so nothing here has to poll for cancellation.
// What the jobs share is in engine/workerJobs.ts; the Compare view's job
// (engine/compareJob.ts) and the console's streamed run
// (engine/streamJob.ts) are fetched on their first request.

import {
  loadChecker,
  loadClaims,
  loadJumphash,
  type Checker,
  type Claims,
  type Job,
  type Jumphash,
  type LoadResult,
  type ResizeJob,
  type ResizePart,
  type Topology,
} from 'jumphash-wasm';
import type {
  AlgorithmError,
  ComputeBucket,
  ComputeReply,
  ComputeRequest,
  Field,
  LoadOutcome,
  LoadReply,
  LoadRequest,
  MovedSample,
  ReportPart,
  ReportedResize,
  Request,
  ResizeOutcome,
  ResizePartReply,
  ResizePartRequest,
  ResizeReply,
  ResizeRequest,
  StepOutcome,
} from './protocol';
import { describeChange } from './scenario';
import { partBuffers } from './transfer';
import {
  FieldError, Progress, type ParsedScenario, type WithKeyText, blame, messageOf, parseScenario, post, runJob, withKeyText, withOptions,
} from './workerJobs';

declare const self: DedicatedWorkerGlobalScope;

const modulePromise = loadJumphash();
// The checker is a module of its own, fetched on the first 'check' request
// only: most visits (and every embed) never check output.
let checkerPromise: Promise<Checker> | undefined;
// The articles' claims are a module of their own too, fetched on the first
// 'claimsList' or 'runClaim' request (the Claims view only).
let claimsPromise: Promise<Claims> | undefined;

function compute(jh: Jumphash, request: ComputeRequest): ComputeReply {
  const parsed = blame('key', () => jh.parseKey(request.key));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const kinds = new Map(jh.algorithms().map((info) => [info.name, info.kind]));
  const buckets: ComputeBucket[] = [];
  const errors: AlgorithmError[] = [];
  for (const algo of request.algos) {
    try {
      if (!scenario) {
        // The typed key, so that a node-set algorithm hashes a string key's bytes.
        const bucket = jh.bucket(algo, request.key, request.n);
        buckets.push(kinds.get(algo) === 'node-set' ? { algo, bucket, node: String(bucket) } : { algo, bucket });
        continue;
      }
      const choice = withOptions(algo, scenario);
      const before = jh.cluster(choice, { kind: 'nodes', nodes: scenario.nodes });
      let result: ComputeBucket;
      try {
        const bucket = before.bucket(request.key);
        result = { algo, bucket, node: before.nodes[bucket]!.name };
      } finally {
        before.dispose();
      }
      if (scenario.steps.length > 0) {
        const after = jh.cluster(choice, { kind: 'nodes', nodes: scenario.nodes, edits: scenario.steps });
        try {
          result.nodeAfter = after.nodes[after.bucket(request.key)]!.name;
        } finally {
          after.dispose();
        }
      }
      buckets.push(result);
    } catch (error) {
      errors.push({ algorithm: algo, message: messageOf(error) });
    }
  }
  const traces: ComputeReply['traces'] = [];
  for (const algo of request.algos) {
    if (kinds.get(algo) !== 'bucket-count') continue;
    try {
      const steps = jh.trace(algo, parsed.value, request.traceMax);
      traces.push({ algo, ns: Float64Array.from(steps, (s) => s.n), buckets: Int32Array.from(steps, (s) => s.bucket) });
    } catch (error) {
      errors.push({ algorithm: algo, message: messageOf(error) });
    }
  }
  if (buckets.length === 0 && errors.length > 0) {
    // Nothing to show: blame the field every algorithm refused.
    throw new FieldError(errors[0]!.message, scenario ? 'nodes' : /\btrace\b/.test(errors[0]!.message) ? 'trace' : 'n');
  }
  return { value: parsed.value, label: parsed.label, buckets, traces, errors };
}

/** The buffers a result holds, to transfer instead of copy. */
function buffersOf(result: Pick<ReportedResize, 'loadsBefore' | 'loadsAfter' | 'flowCells'> | LoadResult): ArrayBuffer[] {
  const arrays = 'loads' in result
    ? [result.loads, result.idealShares]
    : [result.loadsBefore, result.loadsAfter, result.flowCells?.index, result.flowCells?.count];
  return [...new Set(arrays.filter((a) => a != null).map((a) => a.buffer as ArrayBuffer))];
}

/** One report of a resize request: an algorithm over one step of the chain, started with job options. */
interface ResizeStep {
  algo: string;
  label: string;
  start: (options: { sampleLimit: number; keyRange?: [number, number] }) => ResizeJob;
}

/** The reports a resize request asks for, algorithm-major (every step of the first algorithm, then the next). */
function resizeSteps(jh: Jumphash, request: WithKeyText<ResizeRequest | ResizePartRequest>, scenario: ParsedScenario | null): ResizeStep[] {
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

/** The key positions of `part` (the package's keyRange, which it checks); undefined: every key (no part). */
function keyRangeOf(part: ReportPart | undefined): [number, number] | undefined {
  return part ? [part.begin, part.end] : undefined;
}

/** A resize job's report, its sample in columns, with the buffers to transfer added to `transfer`. */
function reported(job: ResizeJob, transfer: Transferable[]): ReportedResize {
  const result = job.resultInColumns({ flows: 'cells' });
  const { sample } = result;
  transfer.push(...buffersOf(result), sample.values.buffer, sample.oldBuckets.buffer, sample.newBuckets.buffer);
  return result;
}

/** A resize job's counts as one part of a split report (the package's ResizePart), its buffers added to `transfer`. */
function reportedPart(job: ResizeJob, transfer: Transferable[]): ResizePart {
  const part = job.partResult();
  transfer.push(...partBuffers(part));
  return part;
}

/**
 * The first `limit` moved keys of the parts' samples, in part (key) order:
 * what Job.absorb makes of the samples, done on the columns, so that 200,000
 * sampled keys a part never become objects with a bigint each.
 */
function joinSamples(samples: MovedSample[], limit: number): MovedSample {
  const total = Math.min(limit, samples.reduce((sum, sample) => sum + sample.values.length, 0));
  // The first part alone fills the sample (the usual case: each part samples
  // up to the limit): it is the sample, uncopied. A copy of 200,000 keys
  // wrote 3.2 MB of fresh memory, 11 ms on this project's 2-core VM.
  if (samples.length > 0 && samples[0]!.values.length === total) return samples[0]!;
  const joined: MovedSample = {
    values: new BigUint64Array(total),
    oldBuckets: new Int32Array(total),
    newBuckets: new Int32Array(total),
    labels: [],
  };
  let at = 0;
  for (const sample of samples) {
    if (at === total) break;
    // A part that moved none of its keys lists none; the parts after it may.
    const take = Math.min(sample.values.length, total - at);
    joined.values.set(sample.values.subarray(0, take), at);
    joined.oldBuckets.set(sample.oldBuckets.subarray(0, take), at);
    joined.newBuckets.set(sample.newBuckets.subarray(0, take), at);
    for (const [index, label] of sample.labels) if (index < take) joined.labels.push([at + index, label]);
    at += take;
  }
  return joined;
}

/**
 * The reports of a resize request, each made by `finish` from its finished
 * job: the whole report (`reported`) or, for a part of a split report
 * (ResizePartRequest), the part's counts (`reportedPart`).
 */
function resize<R>(
  jh: Jumphash,
  id: number,
  request: WithKeyText<ResizeRequest | ResizePartRequest>,
  finish: (job: ResizeJob, transfer: Transferable[]) => R,
): { reply: { keyCount: number; steps: StepOutcome<R>[] }; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const keyRange = keyRangeOf('part' in request ? request.part : undefined);
  const ownKeys = keyRange ? keyRange[1] - keyRange[0] : keyCount;
  const planned = resizeSteps(jh, request, scenario);
  const progress = new Progress(id, ownKeys * planned.length);
  const steps: StepOutcome<R>[] = [];
  const transfer: Transferable[] = [];
  const sampleLimits = 'sampleLimits' in request ? request.sampleLimits : undefined;
  for (const [k, { algo, label, start }] of planned.entries()) {
    let job: ResizeJob;
    try {
      job = start({ sampleLimit: sampleLimits?.[k] ?? request.sampleLimit, ...(keyRange ? { keyRange } : {}) });
    } catch (error) {
      steps.push({ algorithm: algo, label, result: null, error: messageOf(error) });
      progress.add(ownKeys, `${algo}: ${label}`);
      continue;
    }
    steps.push({ algorithm: algo, label, result: runJob(job, progress, `${algo}: ${label}`, (finished) => finish(finished, transfer)), error: null });
  }
  const failed = steps.filter((step) => step.error !== null);
  if (steps.length > 0 && failed.length === steps.length && !scenario) {
    throw new FieldError(failed[0]!.error!, sizeField(failed[0]!.error!));
  }
  return { reply: { keyCount, steps }, transfer };
}

/**
 * The parts of a resize (ResizePartRequest: each worker took a key range)
 * made into one reply: for each report, a job over no keys of its own
 * absorbs every part in key order, so the core sums the counts and derives
 * the rest, exactly as one worker over every key would.
 */
function mergeResize(jh: Jumphash, request: WithKeyText<ResizeRequest>, parts: ResizePartReply[]): { reply: ResizeReply; transfer: Transferable[] } {
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const planned = resizeSteps(jh, request, scenario);
  const transfer: Transferable[] = [];
  const steps = planned.map(({ algo, label, start }, k): ResizeOutcome => {
    const outcomes = parts.map((part) => part.steps[k]!);
    const failed = outcomes.find((outcome) => outcome.result === null);
    if (failed) return { ...failed, result: null };
    // The core sums the counts; the samples are joined here, in columns
    // (the merging job keeps none: sampleLimit 0).
    const job = start({ sampleLimit: 0, keyRange: [0, 0] });
    try {
      for (const outcome of outcomes) job.absorb(outcome.result!);
      const { sample: _none, ...counts } = job.resultInColumns({ flows: 'cells' });
      const sample = joinSamples(outcomes.map((outcome) => outcome.result!.sample), request.sampleLimit);
      transfer.push(...buffersOf(counts), sample.values.buffer, sample.oldBuckets.buffer, sample.newBuckets.buffer);
      return { algorithm: algo, label, result: { ...counts, sample }, error: null };
    } finally {
      job.dispose();
    }
  });
  return { reply: { keyCount: parts[0]!.keyCount, steps }, transfer };
}

function sizeField(message: string): Field | undefined {
  if (/\bfrom\b/.test(message)) return 'from';
  if (/\bto\b/.test(message)) return 'to';
  return undefined;
}

function loadTopology(request: LoadRequest, scenario: ParsedScenario | null): Topology {
  return scenario ? { kind: 'nodes', nodes: scenario.nodes } : request.n;
}

function load(jh: Jumphash, id: number, request: WithKeyText<LoadRequest>): { reply: LoadReply; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const keyRange = keyRangeOf(request.part);
  const ownKeys = keyRange ? keyRange[1] - keyRange[0] : keyCount;
  const progress = new Progress(id, ownKeys * request.algos.length);
  const items: LoadOutcome[] = [];
  const transfer: Transferable[] = [];
  for (const algo of request.algos) {
    let job: Job<LoadResult>;
    try {
      job = jh.startLoad(withOptions(algo, scenario), request.keys, loadTopology(request, scenario), keyRange ? { keyRange } : {});
    } catch (error) {
      items.push({ algorithm: algo, result: null, error: messageOf(error) });
      progress.add(ownKeys, algo);
      continue;
    }
    const result = runJob(job, progress, scenario ? `${algo}: loads per node` : `${algo}: loads among ${request.n}`);
    items.push({ algorithm: algo, result, error: null });
    transfer.push(...buffersOf(result));
  }
  if (items.every((item) => item.error !== null) && !scenario) {
    throw new FieldError(items[0]!.error!, 'n');
  }
  return { reply: { keyCount, items }, transfer };
}

/** The parts of a load made into one reply, as mergeResize. */
function mergeLoad(jh: Jumphash, request: WithKeyText<LoadRequest>, parts: LoadReply[]): { reply: LoadReply; transfer: Transferable[] } {
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const transfer: Transferable[] = [];
  const items = request.algos.map((algo, k): LoadOutcome => {
    const outcomes = parts.map((part) => part.items[k]!);
    const failed = outcomes.find((outcome) => outcome.result === null);
    if (failed) return failed;
    const job = jh.startLoad(withOptions(algo, scenario), request.keys, loadTopology(request, scenario), { keyRange: [0, 0] });
    try {
      job.step(1);
      for (const outcome of outcomes) job.absorb(outcome.result!);
      const result = job.result();
      transfer.push(...buffersOf(result));
      return { algorithm: algo, result, error: null };
    } finally {
      job.dispose();
    }
  });
  return { reply: { keyCount: parts[0]!.keyCount, items }, transfer };
}

async function handle(id: number, request: Request): Promise<void> {
  const jh = await modulePromise;
  switch (request.kind) {
    case 'info':
      post({ id, type: 'result', value: { version: jh.version, algorithms: jh.algorithms(), language: jh.language(), limits: jh.limits() } });
      return;
    case 'compute': {
      const reply = compute(jh, request);
      post({ id, type: 'result', value: reply }, reply.traces.flatMap((t) => [t.ns.buffer, t.buckets.buffer]));
      return;
    }
    case 'keyCount': {
      const { keys } = await withKeyText(request);
      post({ id, type: 'result', value: blame('keys', () => jh.keyCount(keys)) });
      return;
    }
    case 'run':
      post({ id, type: 'result', value: jh.run(request.script) });
      return;
    case 'runStream': {
      const { runStream } = await import('./streamJob');
      runStream(jh, id, request);
      return;
    }
    case 'check': {
      checkerPromise ??= loadChecker();
      const checker = await checkerPromise;
      post({ id, type: 'result', value: blame('output', () => checker.check(request.script, request.output)) });
      return;
    }
    case 'resize': {
      const { reply, transfer } = resize(jh, id, await withKeyText(request), reported);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'resizePart': {
      const { reply, transfer } = resize(jh, id, await withKeyText(request), reportedPart);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'load': {
      const { reply, transfer } = load(jh, id, await withKeyText(request));
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'mergeResize': {
      const { reply, transfer } = mergeResize(jh, await withKeyText(request.request), request.parts);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'mergeLoad': {
      const { reply, transfer } = mergeLoad(jh, await withKeyText(request.request), request.parts);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'compare': {
      const { compare } = await import('./compareJob');
      post({ id, type: 'result', value: compare(jh, id, await withKeyText(request)) });
      return;
    }
    case 'claimsList': {
      claimsPromise ??= loadClaims();
      post({ id, type: 'result', value: (await claimsPromise).list() });
      return;
    }
    case 'runClaim': {
      claimsPromise ??= loadClaims();
      const result = (await claimsPromise).run(request.id);
      const buffers = (result.chart?.series ?? []).flatMap((s) => [s.x.buffer, s.y.buffer]);
      post({ id, type: 'result', value: result }, buffers);
      return;
    }
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
