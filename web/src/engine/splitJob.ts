// A report split across workers, a worker's side of it (the page's side is
// engine/splitReport.ts): a part's counts and the merge. A module of its
// own, fetched by the engine worker on a split report's first request, so
// that the worker every page starts (an embed too) carries less code.

import type { Jumphash, ResizePart } from 'jumphash-wasm';
import type {
  LoadOutcome,
  LoadReply,
  LoadRequest,
  ResizeOutcome,
  ResizePartReply,
  ResizePartRequest,
  ResizeReply,
  ResizeRequest,
} from './protocol';
import { buffersOf, loadTopology, resizeReports, resizeSteps } from './reportJobs';
import { firstMoved } from './split';
import { partBuffers, sampleBuffers } from './transfer';
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
    // The core sums the counts; the list is the parts' own samples, cut at
    // the limit (split.ts, firstMoved; the merging job keeps none).
    const job = start({ sampleLimit: 0, keyRange: [0, 0] });
    try {
      for (const outcome of outcomes) job.absorb(outcome.result!);
      const { sample: _none, ...counts } = job.resultInColumns({ flows: 'cells' });
      const sample = firstMoved(outcomes.map((outcome) => outcome.result!.sample), request.sampleLimit);
      transfer.push(...buffersOf(counts), ...sampleBuffers(sample));
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
