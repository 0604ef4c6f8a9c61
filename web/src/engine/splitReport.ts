// A report split across workers, the page's side (engine/client.ts,
// ReportPool, once engine/splitWorkers.ts says to split): the workers take
// the parts in turn, the samples they held back are asked for, and the
// first worker merges. A module of its own, fetched with the first report
// that splits, so that the page every visit starts (an embed too) carries
// less code. The worker's side is engine/splitJob.ts.

import { CancelledError, type Lane, type Progress } from './client';
import type { KeyText, LoadReply, LoadRequest, ReplyMap, ResizeReply, ResizeRequest } from './protocol';
import { PartCutter, PartsProgress, leastMovedShares, partSampleLimits, passedCounts, samplesToRetake, skippedSamples } from './split';
import { partBuffers } from './transfer';

export { expectedPassedCounts, mergedCounts, splitWorkers } from './splitWorkers';

/**
 * Parts a worker holds at once: the one it runs and the next, posted while
 * it runs the first (the worker's message queue holds it), so that it
 * starts the next without a round trip through the page's main thread.
 * Timed in Chromium in 2-worker reports of 10^8 keys, a worker's gaps
 * between its parts were 1.3-8.5 ms (mostly 2-3.5) with one part at a
 * time and 0.7-5.8 ms (mostly 1-2.5) with two; what is left is the
 * worker's own (its reply, the next job's start).
 */
export const PARTS_IN_FLIGHT = 2;

/** Characters of a report's key text (a pasted list's bytes). */
function textLength(keys: KeyText): number {
  return typeof keys === 'string' ? keys.length : keys.size;
}

/** Every ArrayBuffer under the parts' results (moved to the merging worker, not copied). */
function buffersOf(replies: (ReplyMap['resizePart'] | ReplyMap['load'])[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (array: ArrayBufferView | null) => {
    if (array) buffers.add(array.buffer as ArrayBuffer);
  };
  for (const reply of replies) {
    if ('steps' in reply) {
      for (const step of reply.steps) if (step.result) for (const buffer of partBuffers(step.result)) buffers.add(buffer);
    } else {
      for (const item of reply.items) if (item.result) [item.result.loads, item.result.idealShares].forEach(add);
    }
  }
  return [...buffers];
}

/**
 * `split` over `keyCount` keys (each part carrying `counts` counts and
 * expected to pass `expectedPassed` of them to the merge, as
 * engine/splitWorkers.ts counts them) run on `lanes`, the first of which
 * merges: cut into parts (PartCutter, each part cut when it is posted,
 * sized by the counts the parts back so far passed) that each lane takes
 * in turn, the next when one of its PARTS_IN_FLIGHT is back. Once
 * `cancelled()`, no part is handed out and the report rejects with
 * CancelledError.
 */
export async function runSplitReport(
  split: ResizeRequest | LoadRequest,
  keyCount: number,
  counts: number,
  lanes: Lane[],
  cancelled: () => boolean,
  onProgress?: (progress: Progress) => void,
  expectedPassed = counts,
): Promise<ResizeReply | LoadReply> {
  const cutter = new PartCutter(keyCount, counts, textLength(split.keys), lanes.length, expectedPassed);
  /** The parts cut so far, by index (all of them once every part is posted). */
  const ranges = cutter.ranges;
  const progress = new PartsProgress(keyCount, onProgress);
  /** Each part's reply, by index, once back. */
  const replies: (ReplyMap['resizePart'] | ReplyMap['load'] | undefined)[] = [];
  const shares = split.kind === 'resize' ? leastMovedShares(split) : [];
  /** Per part, per report: whether it skipped its sample (skippedSamples). */
  const skipped: boolean[][] = [];
  /** Set when a part failed: no part is cut or posted after it. */
  let failed = false;
  /** Posts the next part to `lane` (in part order); undefined when every part is posted. */
  const post = (lane: Lane): Promise<void> | undefined => {
    if (failed) return undefined;
    if (cancelled()) throw new CancelledError();
    const range = cutter.next();
    if (!range) return undefined;
    const index = ranges.length - 1;
    const [begin, end] = range;
    const part = { index, begin, end };
    const onPartProgress = (p: Progress) => progress.update(index, end - begin, p);
    let answer: Promise<ReplyMap['resizePart'] | ReplyMap['load']>;
    if (split.kind === 'resize') {
      const done = replies as (ReplyMap['resizePart'] | undefined)[];
      const limits = partSampleLimits(split.sampleLimit, index, done);
      // The keys of the parts before this one still running: when they
      // are sure to fill the list, this part samples nothing.
      const pendingKeys = ranges.slice(0, index).reduce((sum, [b, e], i) => sum + (done[i] ? 0 : e - b), 0);
      skipped[index] = skippedSamples(split.sampleLimit, limits, pendingKeys, shares);
      const sampleLimits = skipped[index].some(Boolean) ? shares.map((_, k) => (skipped[index]![k] ? 0 : (limits?.[k] ?? split.sampleLimit))) : limits;
      answer = lane.request({ ...split, kind: 'resizePart', part, sampleLimits }, onPartProgress);
    } else {
      answer = lane.request({ ...split, part }, onPartProgress);
    }
    const reply = answer.then((value) => {
      replies[index] = value;
      cutter.passed(passedCounts(value));
    });
    // Awaited in turn by takeParts; when an earlier part fails, this one is
    // cancelled with the rest, and that rejection is no error of its own.
    reply.catch(() => {});
    return reply;
  };
  // A lane's parts posted and not back yet, oldest first. The parts go out
  // in part order, one a lane a round, PARTS_IN_FLIGHT rounds: the largest
  // parts go to different workers, and each worker has its next part
  // queued while it runs one.
  const queues: Promise<void>[][] = lanes.map(() => []);
  /**
   * Each time a part of `lane` is back, the next part is posted to it;
   * but the last part is not queued behind a part the lane still runs: it
   * goes to the first lane with none left, so that a slower worker does
   * not hold it while the other waits (split.ts, PartCutter.nextIsLast).
   */
  const takeParts = async (lane: Lane, queue: Promise<void>[]) => {
    for (let posted = queue.shift(); posted; posted = queue.shift()) {
      await posted;
      if (queue.length > 0 && cutter.nextIsLast()) continue;
      const more = post(lane);
      if (more) queue.push(more);
    }
  };
  try {
    for (let round = 0; round < PARTS_IN_FLIGHT; round++) {
      lanes.forEach((lane, l) => {
        // The last part is queued behind no part (takeParts).
        if (round > 0 && cutter.nextIsLast()) return;
        const posted = post(lane);
        if (posted) queues[l]!.push(posted);
      });
    }
    await Promise.all(lanes.map((lane, l) => takeParts(lane, queues[l]!)));
  } catch (error) {
    // One part failed (the others fail alike, or run on): stop them all.
    failed = true;
    for (const lane of lanes) lane.cancel();
    throw error;
  }
  if (cancelled()) throw new CancelledError();
  const first = lanes[0]!;
  if (split.kind === 'resize') {
    const resizeParts = replies as ReplyMap['resizePart'][];
    await retakeSamples(split, ranges, resizeParts, skipped, lanes);
    if (cancelled()) throw new CancelledError();
    return first.request({ kind: 'mergeResize', request: split, parts: resizeParts }, undefined, undefined, buffersOf(resizeParts));
  }
  const loadParts = replies as ReplyMap['load'][];
  return first.request({ kind: 'mergeLoad', request: split, parts: loadParts }, undefined, undefined, buffersOf(loadParts));
}

/**
 * Runs again, on the lanes in turn, the parts whose skipped samples the
 * merge lists after all (samplesToRetake: the parts before them moved
 * fewer keys than expected), and puts their samples into `parts`. The
 * counts are the same each run; only the samples are taken.
 */
async function retakeSamples(
  split: ResizeRequest,
  ranges: readonly [number, number][],
  parts: ReplyMap['resizePart'][],
  skipped: readonly (readonly boolean[] | undefined)[],
  lanes: readonly Lane[],
): Promise<void> {
  const retakes = samplesToRetake(split.sampleLimit, parts, skipped);
  await Promise.all(
    lanes.map(async (lane, l) => {
      for (let r = l; r < retakes.length; r += lanes.length) {
        const { index, limits } = retakes[r]!;
        const [begin, end] = ranges[index]!;
        const again = await lane.request({ ...split, kind: 'resizePart', part: { index, begin, end }, sampleLimits: limits });
        const steps = parts[index]!.steps;
        again.steps.forEach((step, k) => {
          if (limits[k]! > 0 && step.result && steps[k]!.result) steps[k] = { ...steps[k]!, result: { ...steps[k]!.result!, sample: step.result.sample } };
        });
      }
    }),
  );
}
