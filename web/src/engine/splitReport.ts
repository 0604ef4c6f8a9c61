// A report split across workers, the page's side (engine/client.ts,
// ReportPool, once engine/splitWorkers.ts says to split): each worker
// counts its runs a grant at a time (split.ts, RunScheduler), the runs'
// counts are collected, the samples they held back are asked for, and one
// worker merges (into the run of the worker that counts last, where it
// may). A module
// of its own, fetched when the page warms its workers up
// (ReportPool.prepareSplit) or with the first report that splits, so that
// the page's first load (an embed's too, which never warms) carries less
// code. The worker's side is engine/splitJob.ts.

import { CancelledError, type Lane, type Progress } from './client';
import type { KeyText, LoadReply, LoadRequest, ResizePartReply, ResizeReply, ResizeRequest, RunStart } from './protocol';
import {
  GRANT_FROM_KEYS, KEYS_PER_CARRIED_COUNT, KEYS_PER_PASSED_COUNT, KEYS_PER_TEXT_CHAR, GrantsProgress, type PartProgress, type Run, RunScheduler, hasGrants, keysGranted, leastMovedShares,
  samplesToRetake, skippedSamples,
} from './split';
import { partBuffers } from './transfer';

export { expectedPassedCounts, mergedCounts, splitWorkers } from './splitWorkers';

/**
 * Grants a worker holds at once: the one it counts and the next, posted
 * while it counts the first (the worker's message queue holds it), so that
 * it goes on without a round trip through the page's main thread. Timed in
 * Chromium in 2-worker reports of 10^8 keys (when each grant was a part
 * with jobs of its own), a worker's gaps between its parts were 1.3-8.5 ms
 * (mostly 2-3.5) with one part at a time and 0.7-5.8 ms (mostly 1-2.5)
 * with two.
 */
export const GRANTS_IN_FLIGHT = 2;

/**
 * Moved keys a run may be expected to sample, at most, for the other runs
 * to be merged into it (mergesIntoOne): that merge starts once the others'
 * counts are in, and then copies the run's own sample out of its jobs,
 * where a merge of every run copies each run's sample as it is collected,
 * beside the others'. In 2-worker reports of jumpback 1000 -> 1001 over
 * 10^8 keys, each run sampling about 50,000 keys, the second run's counts
 * took 3.7-9.8 ms to collect and the merge into the first 4.5-5.3 ms after
 * them: 8-16 ms from the last grant to the reply, against 2.2-5.1 ms for a
 * merge of every run. Over 10^7 keys (about 5,000 each) the merge into the
 * first took 2.0-3.7 ms. (Both measured when the run merged into was
 * always the first.)
 */
export const MERGE_INTO_SAMPLED_KEYS = 1 << 14;

/**
 * Moved keys a run of `runKeys` keys is expected to sample, over every
 * report: per report, at most `sampleLimit`, and the run's keys at the
 * least share that report moves (leastMovedShares; the whole limit where
 * there is no estimate, as for a node list).
 */
function runSampledKeys(sampleLimit: number, runKeys: number, shares: readonly number[]): number {
  return shares.reduce((sum, share) => sum + Math.min(sampleLimit, share > 0 ? Math.ceil(runKeys * share) : sampleLimit), 0);
}

/** Characters of a report's key text (a pasted list's bytes). */
function textLength(keys: KeyText): number {
  return typeof keys === 'string' ? keys.length : keys.size;
}

/** Every ArrayBuffer under the runs' counts (moved to the merging worker, not copied). */
function buffersOf(replies: readonly (ResizePartReply | LoadReply)[]): ArrayBuffer[] {
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

/** The last run id given out: ids are unique in the page, and a worker keeps a run's jobs under its id. */
let lastRunId = 0;

/**
 * `split` over `keyCount` keys (each run carrying `counts` counts and
 * expected to pass `expectedPassed` of them to the merge, as
 * engine/splitWorkers.ts counts them) run on `lanes`: each lane counts its
 * runs a grant at a time, GRANTS_IN_FLIGHT at once, the next posted when
 * one is back (split.ts, RunScheduler: a lane with nothing left in its run
 * steals from another's); then each run's counts are collected and merged,
 * in key order: absorbed by the jobs of the run the last lane to count
 * still holds, where it may (mergesIntoOne), else by a merging job of the
 * first worker's. Once `cancelled()`, no grant is posted and the report
 * rejects with CancelledError. The reply says how many workers counted
 * its keys (ResizeReply.workers).
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
  const runLeast = Math.max(GRANT_FROM_KEYS, KEYS_PER_PASSED_COUNT * expectedPassed, KEYS_PER_CARRIED_COUNT * counts);
  const steals = textLength(split.keys) * KEYS_PER_TEXT_CHAR <= keyCount;
  const scheduler = new RunScheduler(keyCount, lanes.length, runLeast, steals, () => ++lastRunId);
  const progress = new GrantsProgress(keyCount, onProgress);
  /** Grants posted so far (each one's progress is a part of the bar). */
  let grants = 0;
  const shares = split.kind === 'resize' ? leastMovedShares(split) : [];
  /** Whether a run is expected to sample few enough keys to merge the others into it (MERGE_INTO_SAMPLED_KEYS). */
  const runsSampleFew = split.kind !== 'resize' || runSampledKeys(split.sampleLimit, keyCount / lanes.length, shares) <= MERGE_INTO_SAMPLED_KEYS;
  /** Per run, per report: whether it skipped its sample (skippedSamples). */
  const skipped = new Map<Run, boolean[]>();
  /** Set when a grant failed: none is posted after it. */
  let failed = false;
  /**
   * What a run's first grant starts: its jobs over its keys, sampling none
   * where the keys before it surely fill the list, and, where every run is
   * collected (not runsSampleFew), taking each list out once it is final,
   * while the other workers count (RunStart.sampleEarly).
   */
  const runStart = (run: Run): RunStart => {
    const start: RunStart = { report: split, begin: run.begin, end: run.end, ...(run.fromEnd ? { fromEnd: true } : {}) };
    if (split.kind !== 'resize') return start;
    if (!runsSampleFew) start.sampleEarly = true;
    const skips = skippedSamples(split.sampleLimit, scheduler.expectedBegin(run), shares);
    skipped.set(run, skips);
    return skips.some(Boolean) ? { ...start, sampleLimits: skips.map((skip) => (skip ? 0 : split.sampleLimit)) } : start;
  };
  /** Each run's counts, asked for once it is final (collect). */
  const collected = new Map<Run, Promise<ResizePartReply | LoadReply>>();
  /** The runs whose first grant was posted (hasGrants). */
  const startedRuns = () => scheduler.runs.filter(hasGrants);
  /**
   * Whether the runs end merged into one of them (MergeResizeRequest's
   * `into`, laneDone): the run of the lane that counts its last grant
   * last, whose jobs absorb the others' counts right after that grant, so
   * that its own are neither copied out of them nor into a merging job's,
   * and the worker that finished first does not wait for the other to
   * pass its counts on. So each run is expected to sample few keys
   * (MERGE_INTO_SAMPLED_KEYS), and no run skipped a sample that may have to
   * be taken again (retakeSamples).
   */
  const mergesIntoOne = () => runsSampleFew && ![...skipped.values()].some((skips) => skips.some(Boolean));
  /** The run that absorbs the others, once chosen (laneDone), and the report's reply from it. */
  let into: Run | undefined;
  let mergedInto: Promise<ResizeReply | LoadReply> | undefined;
  /** Lanes whose every grant is back. */
  const finished = new Set<number>();
  /**
   * Asks for the counts of lane `l`'s runs but `except`, which are final
   * (a lane takes a new run only once its own has no keys left to grant,
   * and a steal takes keys not granted yet): posted behind its last grant,
   * so that the worker answers right after it, with no round trip through
   * the page between. The run that absorbs the others is kept.
   */
  const collect = (l: number, except?: Run) => {
    for (const run of startedRuns()) {
      if (run.lane !== l || run === except || run === into || collected.has(run)) continue;
      const counts = lanes[l]!.request({ kind: 'splitCollect', run: run.id });
      counts.catch(() => {}); // awaited below, unless a grant failed first
      collected.set(run, counts);
    }
  };
  /** Posts lane `l`'s next grant; undefined when nothing is left for it. */
  const post = (l: number): Promise<unknown> | undefined => {
    if (failed) return undefined;
    if (cancelled()) throw new CancelledError();
    const grant = scheduler.next(l);
    if (!grant) return undefined;
    const { run, from, to } = grant;
    const index = grants++;
    // A stolen run's jobs start once the lane's run before it is collected,
    // so that they take the memory its jobs free: on memory the module
    // had not used yet, a stolen run of jumpback 1000 -> 1001 took 12-19 ms
    // to start in Chromium traces, for 2-3 ms of counting, when its flow
    // matrix was a whole 8 MB array (a consistent algorithm's now starts
    // as a small table, FlowMatrix; modulo's still fills one).
    if (grant.first) collect(l, run);
    const start = grant.first ? { start: runStart(run) } : {};
    const onProgress = (p: PartProgress) => progress.update(index, to - from, p);
    // A run counted from its end counts down to the grant's first key.
    const answer = lanes[l]!.request({ kind: 'splitRun', run: run.id, to: run.fromEnd ? from : to, ...start }, onProgress).then(onProgress);
    // Awaited in turn by takeGrants; when another grant fails, this one is
    // cancelled with the rest, and that rejection is no error of its own.
    answer.catch(() => {});
    if (scheduler.allGranted()) endGrants();
    return answer;
  };
  /**
   * Once every key is granted (after the grant just posted), unless the
   * runs merge into one: each lane's runs are collected behind its last
   * grant. (Merging into one, a lane's runs are collected once it is done,
   * when it is known not to be the last: laneDone.)
   */
  const endGrants = () => {
    if (failed || mergesIntoOne()) return;
    lanes.forEach((_, l) => collect(l));
  };
  /**
   * Once lane `l` has counted its last grant, when the runs merge into one:
   * its runs are collected, and when one lane alone still counts, every
   * key is granted and that lane holds one run not collected, that run
   * absorbs the others, asked as soon as their counts are in, behind its
   * lane's last grant. (Otherwise every run is merged once all are in.) In
   * Chromium traces of 2-worker reports of jumpback 1000 -> 1001 over
   * random:10000000:1, 12 each, the reply came 1.9-13.9 ms after the last
   * grant (median 2.9) merging this way, and 2.6-28.4 ms (median 4.8) when
   * the first run always absorbed the other: the worker that ended last,
   * when it was not the first's, then had to pass its counts on through
   * the page first.
   */
  const laneDone = (l: number) => {
    finished.add(l);
    if (failed || mergedInto || !mergesIntoOne()) return;
    collect(l);
    const counting = lanes.flatMap((_, k) => (finished.has(k) ? [] : [k]));
    if (counting.length !== 1 || !scheduler.allGranted()) return;
    const held = startedRuns().filter((run) => run.lane === counting[0] && !collected.has(run));
    if (held.length !== 1) return;
    const target = held[0]!;
    into = target;
    const others = startedRuns().filter((run) => run !== target).sort((a, b) => a.begin - b.begin);
    mergedInto = Promise.all(others.map((run) => collected.get(run)!)).then((parts) => {
      if (failed || cancelled()) throw new CancelledError();
      return merge(split, parts, lanes[target.lane]!, target.id);
    });
    mergedInto.catch(() => {}); // awaited below, unless a grant failed first
  };
  // A lane's grants posted and not back yet, oldest first.
  const queues: Promise<unknown>[][] = lanes.map(() => []);
  /** Each time a grant of lane `l` is back, its next is posted, or its runs' counts asked for (laneDone, when the runs merge into one). */
  const takeGrants = async (l: number) => {
    const queue = queues[l]!;
    for (let posted = queue.shift(); posted; posted = queue.shift()) {
      await posted;
      const more = post(l);
      if (more) queue.push(more);
      else if (!failed && !mergesIntoOne()) collect(l);
    }
    laneDone(l);
  };
  /** The report's reply, merged however it was: the keys each worker counted marked (markKeysCounted), and how many workers counted them. */
  const completed = <R extends ResizeReply | LoadReply>(reply: R): R => {
    markKeysCounted(scheduler.runs, lanes.length);
    return { ...reply, workers: lanes.length };
  };
  let runs: Run[];
  let parts: (ResizePartReply | LoadReply)[];
  try {
    for (let round = 0; round < GRANTS_IN_FLIGHT; round++) {
      lanes.forEach((_, l) => {
        const posted = post(l);
        if (posted) queues[l]!.push(posted);
      });
    }
    await Promise.all(lanes.map((_, l) => takeGrants(l)));
    if (cancelled()) throw new CancelledError();
    if (mergedInto) return completed(await mergedInto);
    lanes.forEach((_, l) => collect(l));
    runs = startedRuns().sort((a, b) => a.begin - b.begin);
    parts = await Promise.all(runs.map((run) => collected.get(run)!));
    if (split.kind === 'resize') await retakeSamples(split, runs, parts as ResizePartReply[], runs.map((run) => skipped.get(run)), lanes);
  } catch (error) {
    // One request failed (the others fail alike, or run on), or the
    // report was cancelled: stop every worker, and with them their runs.
    failed = true;
    for (const lane of lanes) lane.cancel();
    throw error;
  }
  if (cancelled()) throw new CancelledError();
  return completed(await merge(split, parts, lanes[0]!));
}

/**
 * For the page benchmark (e2e/bench/reports.bench.ts) and DevTools: the
 * User Timing mark `jumphash:split`, its detail `{ keys }`, the keys each
 * of `lanes` workers counted in a report's `runs`. The workers of a pair
 * count toward each other until they meet, so their keys are as their
 * speeds were: on this project's 2-core VM, where one vCPU at times runs
 * the report loop 1.45x slower than the other, two workers' keys far
 * apart show such a report.
 */
function markKeysCounted(runs: readonly Run[], lanes: number): void {
  const keys = new Array<number>(lanes).fill(0);
  for (const run of runs) keys[run.lane]! += keysGranted(run);
  performance.mark('jumphash:split', { detail: { keys } });
}

/** The runs' counts `parts` (in key order) merged by `lane`'s worker, or (`into`) absorbed by its run of that id. */
function merge(split: ResizeRequest | LoadRequest, parts: (ResizePartReply | LoadReply)[], lane: Lane, into?: number): Promise<ResizeReply | LoadReply> {
  const at = into === undefined ? {} : { into };
  if (split.kind === 'resize') {
    const resizeParts = parts as ResizePartReply[];
    return lane.request({ kind: 'mergeResize', request: split, parts: resizeParts, ...at }, undefined, undefined, buffersOf(resizeParts));
  }
  const loadParts = parts as LoadReply[];
  return lane.request({ kind: 'mergeLoad', request: split, parts: loadParts, ...at }, undefined, undefined, buffersOf(loadParts));
}

/**
 * Runs again, on the lanes in turn, the runs whose skipped samples the
 * merge lists after all (samplesToRetake: the keys before them moved fewer
 * keys than expected), and puts their samples into `parts` (the runs'
 * counts, in key order, as `runs`). The counts are the same each time;
 * only the samples are taken.
 */
async function retakeSamples(
  split: ResizeRequest,
  runs: readonly Run[],
  parts: ResizePartReply[],
  skipped: readonly (readonly boolean[] | undefined)[],
  lanes: readonly Lane[],
): Promise<void> {
  const retakes = samplesToRetake(split.sampleLimit, parts, skipped);
  await Promise.all(
    lanes.map(async (lane, l) => {
      for (let r = l; r < retakes.length; r += lanes.length) {
        const { index, limits } = retakes[r]!;
        const { begin, end } = runs[index]!;
        const run = ++lastRunId;
        const [, again] = await Promise.all([
          lane.request({ kind: 'splitRun', run, start: { report: split, begin, end, sampleLimits: limits }, to: end }),
          lane.request({ kind: 'splitCollect', run }) as Promise<ResizePartReply>,
        ]);
        const steps = parts[index]!.steps;
        again.steps.forEach((step, k) => {
          if (limits[k]! > 0 && step.result && steps[k]!.result) steps[k] = { ...steps[k]!, result: { ...steps[k]!.result!, sample: step.result.sample } };
        });
      }
    }),
  );
}
