/// <reference lib="webworker" />
// An engine worker: its own instance of the WebAssembly module. Reports run
// here in chunks and post their progress; the page cancels a report by
// terminating the worker, so nothing here has to poll for cancellation.
// What the jobs share is in engine/workerJobs.ts, and what a report's
// jobs share, whole or split, in engine/reportJobs.ts. The Compare view's
// job (engine/compareJob.ts), the console's streamed run
// (engine/streamJob.ts) and a split report's runs and merge
// (engine/splitJob.ts) are fetched on their first request.

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
} from 'jumphash-wasm';
import type {
  AlgorithmError,
  ComputeBucket,
  ComputeReply,
  ComputeRequest,
  LoadOutcome,
  LoadReply,
  LoadRequest,
  ReportedResize,
  Request,
} from './protocol';
import { WHOLE_REPORT_WARM_UP, buffersOf, loadLabel, loadTopology, resizeReports, throwIfAllFailed } from './reportJobs';
import { sampleBuffers } from './transfer';
import {
  FieldError, Progress, type WithKeyText, blame, messageOf, parseScenario, post, runJob, withKeyText, withOptions,
} from './workerJobs';

declare const self: DedicatedWorkerGlobalScope;

const modulePromise = loadJumphash();
// The checker is a module of its own, fetched on the first 'check' request
// only: most visits (and every embed) never check output.
let checkerPromise: Promise<Checker> | undefined;
// The articles' claims are a module of their own too, fetched on the first
// 'claimsList' or 'runClaim' request (the Claims view only).
let claimsPromise: Promise<Claims> | undefined;
// A split report's runs and merge (engine/splitJob.ts), fetched on its
// first request or ahead of it ('prepareSplit').
let splitJobPromise: Promise<typeof import('./splitJob')> | undefined;

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

/** A resize job's report, its sample in columns (one part), with the buffers to transfer added to `transfer`. */
function reported(job: ResizeJob, transfer: Transferable[]): ReportedResize {
  const { sample: columns, ...counts } = job.resultInColumns({ flows: 'cells' });
  const sample = { parts: [columns] };
  transfer.push(...buffersOf(counts), ...sampleBuffers(sample));
  return { ...counts, sample };
}

/** A load's report: each algorithm's loads. */
function load(jh: Jumphash, id: number, request: WithKeyText<LoadRequest>): { reply: LoadReply; transfer: Transferable[] } {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const progress = new Progress(id, keyCount * request.algos.length);
  const items: LoadOutcome[] = [];
  const transfer: Transferable[] = [];
  for (const algo of request.algos) {
    let job: Job<LoadResult>;
    try {
      job = jh.startLoad(withOptions(algo, scenario), request.keys, loadTopology(request, scenario));
    } catch (error) {
      items.push({ algorithm: algo, result: null, error: messageOf(error) });
      progress.add(keyCount, algo);
      continue;
    }
    const result = runJob(job, progress, `${algo}: ${loadLabel(request.n, scenario !== null)}`);
    items.push({ algorithm: algo, result, error: null });
    transfer.push(...buffersOf(result));
  }
  throwIfAllFailed(items, scenario !== null, () => 'n');
  return { reply: { keyCount, items }, transfer };
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
    case 'prepareSplit': {
      splitJobPromise ??= import('./splitJob');
      let splitJob: typeof import('./splitJob');
      try {
        splitJob = await splitJobPromise;
      } catch (error) {
        splitJobPromise = undefined; // a split report's own request tries again
        throw error;
      }
      await splitJob.warmUp(jh, id);
      post({ id, type: 'result', value: null });
      return;
    }
    case 'warmUp':
      resizeReports(jh, id, WHOLE_REPORT_WARM_UP, reported);
      post({ id, type: 'result', value: null });
      return;
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
      const { reply, transfer } = resizeReports(jh, id, await withKeyText(request), reported);
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'load': {
      const { reply, transfer } = load(jh, id, await withKeyText(request));
      post({ id, type: 'result', value: reply }, transfer);
      return;
    }
    case 'splitRun':
    case 'splitCollect':
    case 'mergeResize':
    case 'mergeLoad': {
      // One import() for every request, so that they reach splitRequest in
      // the order they came: with an import() each, a run's second grant
      // reached it before its first in Chromium.
      splitJobPromise ??= import('./splitJob');
      const { reply, transfer } = await (await splitJobPromise).splitRequest(jh, id, request);
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
