import { describe, expect, test } from 'vitest';
import { CancelledError, EngineError, type Lane, type Progress } from './client';
import { FakeLane, type Posted, expectCover } from './fakeLane';
import type { GrantDone, LoadRequest, ResizeRequest } from './protocol';
import { GRANT_FROM_KEYS } from './split';
import { GRANTS_IN_FLIGHT, MERGE_INTO_SAMPLED_KEYS, runSplitReport } from './splitReport';

const KEYS = 10_000_000;
const keyText = `0..${KEYS - 1}`;
const request: LoadRequest = { kind: 'load', algos: ['jump'], keys: keyText, n: 10 };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(lanes: FakeLane[], cancelled: () => boolean = () => false, split: LoadRequest = request, keys = KEYS, onProgress?: (progress: Progress) => void) {
  return runSplitReport(split, keys, 10, lanes as unknown as Lane[], cancelled, onProgress);
}

/** Each run's position counted to so far, by run id (grantDone), and whether it counts from its end. */
const counted = new Map<number, { at: number; fromEnd: boolean }>();

/** A fake worker's reply to a grant: its progress at its end, one report (`request`'s one algorithm) over its keys. */
function grantDone(posted: Posted): GrantDone {
  const { run, to, start } = posted.request;
  if (start) counted.set(run!, { at: start.fromEnd ? start.end : start.begin, fromEnd: start.fromEnd ?? false });
  const before = counted.get(run!)!;
  const keys = Math.abs(to! - before.at);
  counted.set(run!, { ...before, at: to! });
  return { done: keys, total: keys, phase: 'jump: loads among 10' };
}

/** What a fake worker answers: its progress to a grant, to a collect a load reply naming its run (the merge is the test's). */
function answer(posted: Posted): void {
  const { kind, run } = posted.request;
  if (kind === 'splitRun') posted.resolve(grantDone(posted));
  else if (kind === 'splitCollect') posted.resolve({ keyCount: KEYS, items: [{ algorithm: `run ${run}`, result: null, error: 'not counted here' }] });
}

/** The merge request posted to one of `lanes`, if any. */
function mergePosted(lanes: FakeLane[]): Posted | undefined {
  for (const lane of lanes) {
    const merge = lane.posted.find((p) => p.request.kind.startsWith('merge'));
    if (merge) return merge;
  }
  return undefined;
}

/**
 * Answers the lanes' oldest requests in turn (the lanes in `order`) until a
 * lane is asked to merge; the merge request. `keeping`, if given, answers
 * only while it has GRANTS_IN_FLIGHT requests out, so that it keeps a grant
 * to count: it is the last to be done.
 */
async function answerUntilMerge(lanes: FakeLane[], order = lanes.map((_, l) => l), keeping?: FakeLane): Promise<Posted> {
  for (let turn = 0; ; turn++) {
    const merge = mergePosted(lanes);
    if (merge) return merge;
    for (const lane of lanes) expect(lane.grants().length - lane.posted.filter((p) => p.request.kind === 'splitRun' && !lane.pending.has(p)).length).toBeLessThanOrEqual(GRANTS_IN_FLIGHT);
    const lane = lanes[order[turn % order.length]!]!;
    const oldest = lane.oldest();
    if (oldest && (lane !== keeping || lane.pending.size >= GRANTS_IN_FLIGHT)) answer(oldest);
    await settle();
    if (turn > 10_000) throw new Error('no merge');
  }
}

/**
 * Each run's keys granted, [begin, end, run id], from the grants posted
 * (from its begin to its last grant's end, or, counted from its end, from
 * its last grant's begin to its end), sorted by begin.
 */
function runRanges(lanes: FakeLane[]): [number, number, number][] {
  const runs = new Map<number, [number, number, number]>();
  const fromEnd = new Set<number>();
  for (const lane of lanes) {
    for (const { request } of lane.posted) {
      const { kind, run, to, start } = request;
      if (kind !== 'splitRun') continue;
      if (start?.fromEnd) fromEnd.add(run!);
      if (start) runs.set(run!, start.fromEnd ? [to!, start.end, run!] : [start.begin, to!, run!]);
      else runs.get(run!)![fromEnd.has(run!) ? 0 : 1] = to!;
    }
  }
  return [...runs.values()].sort((a, b) => a[0] - b[0]);
}

/** Answers `lane`'s requests, oldest first, until it has none pending. */
async function answerAll(lane: FakeLane): Promise<void> {
  for (let oldest = lane.oldest(); oldest; oldest = lane.oldest()) {
    answer(oldest);
    await settle();
  }
}

/** Answers every request of `lanes` but `merge` (posted behind a worker's last grants), oldest first. */
async function answerAllBut(lanes: FakeLane[], merge: Posted): Promise<void> {
  for (const lane of lanes) {
    for (let oldest = lane.oldest(); oldest && oldest !== merge; oldest = lane.oldest()) {
      answer(oldest);
      await settle();
    }
  }
}

describe('runSplitReport', () => {
  test('each worker has GRANTS_IN_FLIGHT grants queued; the first counts up from the first key, the second down from the last', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    expect(GRANTS_IN_FLIGHT).toBe(2);
    // 10^7 / 8 keys first, then an eighth of what neither has granted; each
    // run's jobs start over the keys the other has not granted.
    expect(lanes[0]!.grants()).toEqual([[1, 1_250_000, 0, 10_000_000], [1, 1_250_000 + 957_032]]);
    expect(lanes[1]!.grants()).toEqual([[2, 10_000_000 - 1_093_750, 1_250_000, 10_000_000], [2, 10_000_000 - 1_093_750 - 837_403]]);
    expect(lanes.map((lane) => lane.posted[0]!.request.start!.fromEnd ?? false)).toEqual([false, true]);
    // The second worker's first grant is back: its third is queued behind its second.
    answer(lanes[1]!.posted[0]!);
    await settle();
    expect(lanes[1]!.grants()).toHaveLength(3);
    expect(lanes[0]!.grants()).toHaveLength(2);
    for (const lane of lanes) lane.cancel();
    await expect(report).rejects.toBeInstanceOf(CancelledError);
  });

  test.each([
    ['the second', 1, 0],
    ['the first', 0, 1],
  ])('%s worker done first: its run is collected once its last grant is back; the other\'s run absorbs it, asked behind its own last grant', async (_, early, late) => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Taking turns until every key is granted, the late worker keeping a
    // grant to count: the early one's run is collected once it is done.
    for (let turn = 0; !lanes[early]!.kinds().includes('splitCollect'); turn++) {
      const lane = lanes[turn % 2]!;
      if (lane === lanes[late] && lane.pending.size < 2) continue;
      expect(lane.kinds()).not.toContain('splitCollect');
      answer(lane.oldest()!);
      await settle();
      if (turn > 1000) throw new Error('the early run is never collected');
    }
    const done = lanes[early]!;
    expect(done.kinds().at(-1)).toBe('splitCollect');
    expect(done.pending.size).toBe(1);
    expect(mergePosted(lanes)).toBeUndefined();
    // The early worker answers its run's counts while the late one still counts.
    await answerAll(done);
    const last = lanes[late]!;
    const merge = last.posted.at(-1)!;
    expect(merge.request.kind).toBe('mergeLoad');
    expect(last.pending.has(last.posted.at(-2)!)).toBe(true);
    expect(last.posted.at(-2)!.request.kind).toBe('splitRun');
    expect(last.kinds()).not.toContain('splitCollect');
    // Taking turns, both workers count until they meet: two runs, every key once.
    const runs = runRanges(lanes);
    expect(runs).toHaveLength(2);
    expectCover(runs, KEYS);
    expect(merge.request).toMatchObject({ into: runs[late]![2], parts: [{ items: [{ algorithm: `run ${runs[early]![2]}` }] }] });
    await answerAllBut([last], merge);
    merge.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [], workers: 2 });
  });

  test('a worker that answers while the other does not counts the keys between them, up to the other\'s grants', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    await answerAll(lanes[0]!);
    const [up, down] = runRanges(lanes);
    // The second worker's two grants, not answered, are all it counts.
    expect(up![1]).toBe(10_000_000 - 1_093_750 - 837_403);
    expect(down![0]).toBe(up![1]);
    // The first is done first: the second's run, counted down, absorbs the first's.
    const merge = await answerUntilMerge(lanes);
    expect(lanes[1]!.posted).toContain(merge);
    expect(merge.request).toMatchObject({ into: down![2] });
    await answerAllBut(lanes, merge);
    performance.clearMarks('jumphash:split');
    merge.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [], workers: 2 });
    // The keys each worker counted, for the page benchmark: the second only its two grants.
    const marks = performance.getEntriesByName('jumphash:split') as PerformanceMark[];
    expect(marks.map((mark) => mark.detail)).toEqual([{ keys: [KEYS - 1_093_750 - 837_403, 1_093_750 + 837_403] }]);
  });

  test('with three workers, one that has no keys left counts down the keys left of the run counted alone; it then has two runs, the first collected, and the run the last worker holds absorbs the others', async () => {
    const lanes = [new FakeLane(), new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Only the first worker answers, until it has nothing left.
    await answerAll(lanes[0]!);
    const stolen = lanes[0]!.posted.filter((p) => p.request.kind === 'splitRun' && p.request.start && p.request.start.begin >= 6_666_666);
    expect(stolen).toHaveLength(1);
    expect(stolen[0]!.request.start!.fromEnd).toBe(true);
    // A run it stole starts once its run before is collected (the new jobs
    // take the memory the old ones free), and every run is collected.
    const posted = lanes[0]!.posted.map((p) => p.request);
    posted.forEach((request, i) => {
      if (request.kind === 'splitRun' && request.start && i > 0) expect(posted[i - 1]).toMatchObject({ kind: 'splitCollect' });
    });
    const collectedRuns = posted.filter((r) => r.kind === 'splitCollect').map((r) => r.run);
    expect(collectedRuns).toEqual(posted.filter((r) => r.kind === 'splitRun' && r.start).map((r) => r.run));
    const merge = await answerUntilMerge(lanes);
    const runs = runRanges(lanes);
    expect(runs).toHaveLength(4);
    expectCover(runs, KEYS);
    const merging = lanes.find((lane) => lane.posted.includes(merge))!;
    const into = runs.find(([, , run]) => run === merge.request.into)!;
    expect(merging.grants().some(([run]) => run === into[2])).toBe(true);
    // Every other run is collected, none twice, and passed in key order.
    const collects = lanes.flatMap((lane) => lane.posted.filter((p) => p.request.kind === 'splitCollect').map((p) => p.request.run));
    expect(collects.sort()).toEqual(runs.filter((run) => run !== into).map(([, , run]) => run).sort());
    expect(merge.request.parts).toHaveLength(runs.length - 1);
    merge.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [], workers: 3 });
  });

  test('a first run that a steal cut short still absorbs the others when its worker counts last: its jobs end where it got to', async () => {
    const lanes = [new FakeLane(), new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Only the third worker answers, until it has nothing left: it steals from the pair.
    await answerAll(lanes[2]!);
    // Taking turns, the first worker keeping a grant to count: it is the last to be done.
    const merge = await answerUntilMerge(lanes, undefined, lanes[0]);
    expect(lanes[0]!.posted).toContain(merge);
    const runs = runRanges(lanes);
    expectCover(runs, KEYS);
    expect(runs.length).toBeGreaterThan(3);
    expect(runs[0]![1]).toBeLessThan(5_000_000);
    expect(lanes[0]!.kinds()).not.toContain('splitCollect');
    expect(merge.request).toMatchObject({ into: runs[0]![2] });
    expect(merge.request.parts).toHaveLength(runs.length - 1);
    await answerAllBut(lanes, merge);
    merge.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [], workers: 3 });
  });

  test('a pasted list (each run parses all of it) is one run a worker: no steal', async () => {
    const lanes = [new FakeLane(), new FakeLane(), new FakeLane()];
    // 3,000 characters of key text for 3,000,000 keys: above a character per 1,024 keys.
    const pasted: LoadRequest = { ...request, keys: 'k'.repeat(3000) };
    const report = start(lanes, () => false, pasted, 3_000_000);
    await answerAll(lanes[0]!);
    // It counted up to the second worker's grants, and took none of the third's.
    const second = lanes[1]!.grants();
    expect(lanes[0]!.grants().at(-1)![1]).toBe(second.at(-1)![1]);
    expect(new Set(lanes[0]!.grants().map(([run]) => run)).size).toBe(1);
    for (const lane of lanes) lane.cancel();
    await expect(report).rejects.toBeInstanceOf(CancelledError);
  });

  test('a run merges the others only when each is expected to sample few keys; otherwise every run takes its lists out once final', async () => {
    // jumpback 1000 -> 1001 samples a key of about 1,001 in each run: about
    // 5,000 of 10^7 keys, 50,000 of 10^8 (over MERGE_INTO_SAMPLED_KEYS).
    expect(MERGE_INTO_SAMPLED_KEYS).toBe(2 ** 14);
    for (const [keys, into] of [[10 ** 7, true], [10 ** 8, false]] as const) {
      const resize: ResizeRequest = { kind: 'resize', algos: ['jumpback'], keys: `0..${keys - 1}`, sizes: [1000, 1001], sampleLimit: 200_000 };
      const lanes = [new FakeLane(), new FakeLane()];
      const report = runSplitReport(resize, keys, 1000 + 1001 + 1000 * 1001, lanes as unknown as Lane[], () => false);
      // A run merged into copies its list after the others' counts are in (RunStart.sampleEarly).
      expect(lanes.map((lane) => lane.posted[0]!.request.start!.sampleEarly)).toEqual(into ? [undefined, undefined] : [true, true]);
      const reply = (posted: Posted) => {
        if (posted.request.kind === 'splitRun') return posted.resolve(grantDone(posted));
        const sample = { values: new BigUint64Array(0), oldBuckets: new Int32Array(0), newBuckets: new Int32Array(0), labels: [] };
        const result = { moved: 0, loadsBefore: new Float64Array(1000), loadsAfter: new Float64Array(1001), flowCells: null, sample };
        posted.resolve({ keyCount: keys, steps: [{ algorithm: 'jumpback', label: '1000 → 1001', error: null, result }] });
      };
      for (let turn = 0; !mergePosted(lanes); turn++) {
        const oldest = lanes[turn % 2]!.oldest();
        if (oldest) reply(oldest);
        await settle();
        if (turn > 10_000) throw new Error('no merge');
      }
      const merge = mergePosted(lanes)!;
      expect(merge.request.parts).toHaveLength(into ? 1 : 2);
      if (into) expect(merge.request).toHaveProperty('into');
      else expect(merge.request).not.toHaveProperty('into');
      expect(lanes.flatMap((lane) => lane.kinds()).filter((kind) => kind === 'splitCollect')).toHaveLength(into ? 1 : 2);
      for (const lane of lanes) lane.cancel();
      await expect(report).rejects.toBeInstanceOf(CancelledError);
    }
  });

  test('a run whose skipped sample the list needs after all is run again for it', async () => {
    // jump 10 -> 20 moves at least half the keys: the second run, after
    // 5,000,000 keys, skips its sample; the first moved none after all.
    const resize: ResizeRequest = { kind: 'resize', algos: ['jump'], keys: keyText, sizes: [10, 20], sampleLimit: 200_000 };
    const lanes = [new FakeLane(), new FakeLane()];
    const report = runSplitReport(resize, KEYS, 10 + 20 + 200, lanes as unknown as Lane[], () => false);
    // The second run is expected to begin halfway, after about 2,500,000 moved keys.
    const starts = lanes.map((lane) => lane.posted[0]!.request.start);
    expect(starts[0]!.sampleLimits).toBeUndefined();
    expect(starts[1]!.sampleLimits).toEqual([0]);
    const sample = (first: number, count: number) => ({
      values: BigUint64Array.from({ length: count }, (_, i) => BigInt(first + i)), oldBuckets: new Int32Array(count), newBuckets: new Int32Array(count), labels: [],
    });
    const counts = (moved: number, sampled: ReturnType<typeof sample>) => ({
      keyCount: KEYS,
      steps: [{ algorithm: 'jump', label: '10 → 20', error: null, result: { moved, loadsBefore: new Float64Array(10), loadsAfter: new Float64Array(20), flowCells: null, sample: sampled } }],
    });
    const started = new Map<number, NonNullable<Posted['request']['start']>>();
    const reply = (posted: Posted) => {
      const { kind, run, start: runStart } = posted.request;
      if (runStart) started.set(run!, runStart);
      if (kind === 'splitRun') return posted.resolve(grantDone(posted));
      // The first run moved none of its keys; the second samples its moved keys where asked to (the retake).
      const { begin, fromEnd, sampleLimits } = started.get(run!)!;
      posted.resolve(begin === 0 && !fromEnd ? counts(0, sample(0, 0)) : counts(2_600_000, sample(5_000_000, sampleLimits?.[0] ?? 200_000)));
    };
    for (let turn = 0; !lanes[0]!.posted.some((p) => p.request.kind === 'mergeResize'); turn++) {
      const oldest = lanes[turn % 2]!.oldest();
      if (oldest) reply(oldest);
      await settle();
    }
    const retakes = lanes.flatMap((lane) => lane.posted.filter((p) => p.request.kind === 'splitRun' && p.request.start && p.request.start.sampleLimits?.[0] === 200_000));
    // The second run, over the keys where the two met to the last.
    const met = runRanges(lanes)[1]![0];
    expect(met).toBeGreaterThan(0);
    expect(retakes.map((p) => [p.request.start!.begin, p.request.start!.end, p.request.to, p.request.start!.fromEnd])).toEqual([[met, 10_000_000, 10_000_000, undefined]]);
    const merge = lanes[0]!.posted.at(-1)!;
    const parts = merge.request.parts as ReturnType<typeof counts>[];
    expect(parts.map((part) => part.steps[0]!.result.sample.values.length)).toEqual([0, 200_000]);
    performance.clearMarks('jumphash:split');
    merge.resolve({ keyCount: KEYS, steps: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, steps: [], workers: 2 });
    // The keys each worker counted, up to where the two met; the retake is not counted again.
    const marks = performance.getEntriesByName('jumphash:split') as PerformanceMark[];
    expect(marks.map((mark) => mark.detail)).toEqual([{ keys: [met, KEYS - met] }]);
  });

  test('a grant that fails stops every worker, and the report rejects with its error alone', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    const failure = new EngineError('the engine stopped');
    lanes[0]!.posted[0]!.reject(failure);
    // The queued grants are cancelled with the rest: no unhandled rejection (Vitest fails on one).
    await expect(report).rejects.toBe(failure);
    await settle();
    expect(lanes.map((lane) => lane.cancels)).toEqual([1, 1]);
    expect(lanes.map((lane) => lane.pending.size)).toEqual([0, 0]);
  });

  test('once cancelled, no grant is posted and the report rejects with CancelledError', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    let cancelled = false;
    const report = start(lanes, () => cancelled);
    cancelled = true;
    answer(lanes[1]!.posted[0]!);
    await expect(report).rejects.toBeInstanceOf(CancelledError);
    expect(lanes.map((lane) => lane.grants().length)).toEqual([2, 2]);
    expect(lanes.map((lane) => lane.cancels)).toEqual([1, 1]);
  });

  test('grants are never shorter than GRANT_FROM_KEYS but the one that closes the keys between a pair', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    const merge = await answerUntilMerge(lanes);
    const sizes: number[] = [];
    for (const lane of lanes) {
      let at = 0;
      for (const { request } of lane.posted) {
        if (request.kind !== 'splitRun') continue;
        if (request.start) at = request.start.fromEnd ? request.start.end : request.start.begin;
        sizes.push(Math.abs(request.to! - at));
        at = request.to!;
      }
    }
    expect(sizes.reduce((sum, keys) => sum + keys, 0)).toBe(KEYS);
    expect(sizes.filter((keys) => keys < GRANT_FROM_KEYS).length).toBeLessThanOrEqual(1);
    merge.resolve({ keyCount: KEYS, items: [] });
    await report;
  });

  test('the bar moves with each grant\'s reply alone (workers post no progress at a grant\'s end) and ends full', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const seen: Progress[] = [];
    const report = start(lanes, () => false, request, KEYS, (progress) => seen.push(progress));
    const merge = await answerUntilMerge(lanes, [1, 0, 0]);
    // The merge is posted behind the last grants: they are answered first.
    await answerAllBut(lanes, merge);
    const grants = lanes.reduce((sum, lane) => sum + lane.grants().length, 0);
    expect(seen).toHaveLength(grants);
    expect(seen.every((progress) => progress.total === KEYS)).toBe(true);
    expect(seen.map((progress) => progress.done)).toEqual([...seen.map((progress) => progress.done)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual({ done: KEYS, total: KEYS, phase: 'jump: loads among 10' });
    merge.resolve({ keyCount: KEYS, items: [] });
    await report;
  });
});
