// A report split across workers, a worker's side of it (the page's side is
// engine/splitReport.ts): a part's counts and the merge. A module of its
// own, fetched by the engine worker on a split report's first request, so
// that the worker every page starts (an embed too) carries less code.

import type { Jumphash, ResizePart } from 'jumphash-wasm';
import type {
  LoadOutcome,
  LoadReply,
  LoadRequest,
  MovedSample,
  ResizeOutcome,
  ResizePartReply,
  ResizePartRequest,
  ResizeReply,
  ResizeRequest,
} from './protocol';
import { buffersOf, loadTopology, resizeReports, resizeSteps } from './reportJobs';
import { partBuffers } from './transfer';
import { type WithKeyText, parseScenario, withOptions } from './workerJobs';

/** A part of a split resize: each report's counts (the package's ResizePart). */
export function resizePart(jh: Jumphash, id: number, request: WithKeyText<ResizePartRequest>): { reply: ResizePartReply; transfer: Transferable[] } {
  return resizeReports(jh, id, request, (job, transfer): ResizePart => {
    const part = job.partResult();
    transfer.push(...partBuffers(part));
    return part;
  });
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
 * The parts of a resize (ResizePartRequest: each worker took a key range)
 * made into one reply: for each report, a job over no keys of its own
 * absorbs every part in key order, so the core sums the counts and derives
 * the rest, exactly as one worker over every key would.
 */
export function mergeResize(jh: Jumphash, request: WithKeyText<ResizeRequest>, parts: ResizePartReply[]): { reply: ResizeReply; transfer: Transferable[] } {
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

/** The parts of a load made into one reply, as mergeResize. */
export function mergeLoad(jh: Jumphash, request: WithKeyText<LoadRequest>, parts: LoadReply[]): { reply: LoadReply; transfer: Transferable[] } {
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
