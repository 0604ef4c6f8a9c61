import { describe, expect, test } from 'vitest';
import { CancelledError, EngineError, type Lane, type Progress } from './client';
import { FakeLane, type Posted } from './fakeLane';
import type { GrantDone, LoadRequest, ResizeRequest } from './protocol';
import { GRANT_FROM_KEYS } from './split';
import { GRANTS_IN_FLIGHT, runSplitReport } from './splitReport';

const KEYS = 10_000_000;
const keyText = `0..${KEYS - 1}`;
const request: LoadRequest = { kind: 'load', algos: ['jump'], keys: keyText, n: 10 };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(lanes: FakeLane[], cancelled: () => boolean = () => false, split: LoadRequest = request, keys = KEYS, onProgress?: (progress: Progress) => void) {
  return runSplitReport(split, keys, 10, lanes as unknown as Lane[], cancelled, onProgress);
}

/** Each run's keys counted so far, by run id (grantDone). */
const counted = new Map<number, number>();

/** A fake worker's reply to a grant: its progress at its end, one report (`request`'s one algorithm) over its keys. */
function grantDone(posted: Posted): GrantDone {
  const { run, to, start } = posted.request;
  const keys = to! - (start ? start.begin : counted.get(run!)!);
  counted.set(run!, to!);
  return { done: keys, total: keys, phase: 'jump: loads among 10' };
}

/** What a fake worker answers: its progress to a grant, to a collect a load reply naming its run (the merge is the test's). */
function answer(posted: Posted): void {
  const { kind, run } = posted.request;
  if (kind === 'splitRun') posted.resolve(grantDone(posted));
  else if (kind === 'splitCollect') posted.resolve({ keyCount: KEYS, items: [{ algorithm: `run ${run}`, result: null, error: 'not counted here' }] });
}

/** Answers the lanes' oldest requests in turn (the lanes in `order`) until the first lane is asked to merge; the merge request. */
async function answerUntilMerge(lanes: FakeLane[], order = lanes.map((_, l) => l)): Promise<Posted> {
  for (let turn = 0; ; turn++) {
    const merge = lanes[0]!.posted.find((p) => p.request.kind.startsWith('merge'));
    if (merge) return merge;
    for (const lane of lanes) expect(lane.grants().length - lane.posted.filter((p) => p.request.kind === 'splitRun' && !lane.pending.has(p)).length).toBeLessThanOrEqual(GRANTS_IN_FLIGHT);
    const lane = lanes[order[turn % order.length]!]!;
    const oldest = lane.oldest();
    if (oldest) answer(oldest);
    await settle();
    if (turn > 10_000) throw new Error('no merge');
  }
}

/** Each run's [begin, end of its last grant], from the grants posted, sorted by begin. */
function runRanges(lanes: FakeLane[]): [number, number, number][] {
  const runs = new Map<number, [number, number, number]>();
  for (const lane of lanes) {
    for (const grant of lane.grants()) {
      const [run, to] = grant;
      if (grant.length === 4) runs.set(run, [grant[2], to, run]);
      else runs.get(run)![1] = to;
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

/** `merge` takes all `runs` runs' counts (none merged into a run of its worker); answered, it is the report's reply. */
async function expectEveryRunMerged(merge: Posted, runs: number, report: Promise<unknown>): Promise<void> {
  expect(merge.request.parts).toHaveLength(runs);
  expect(merge.request).not.toHaveProperty('into');
  merge.resolve({ keyCount: KEYS, items: [] });
  await expect(report).resolves.toEqual({ keyCount: KEYS, items: [] });
}

describe('runSplitReport', () => {
  test('each worker has GRANTS_IN_FLIGHT grants queued; its first starts its run over its equal share', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    expect(GRANTS_IN_FLIGHT).toBe(2);
    // 10^7 / 8 keys first, then an eighth of what neither run has granted.
    expect(lanes[0]!.grants()).toEqual([[1, 1_250_000, 0, 5_000_000], [1, 1_250_000 + 957_032]]);
    const [second] = lanes[1]!.grants();
    expect(second!.slice(2)).toEqual([5_000_000, 10_000_000]);
    expect(lanes[1]!.grants()).toHaveLength(2);
    // The second worker's first grant is back: its third is queued behind its second.
    answer(lanes[1]!.posted[0]!);
    await settle();
    expect(lanes[1]!.grants()).toHaveLength(3);
    expect(lanes[0]!.grants()).toHaveLength(2);
    for (const lane of lanes) lane.cancel();
    await expect(report).rejects.toBeInstanceOf(CancelledError);
  });

  test('the other worker\'s run is collected behind its last grant; the first worker\'s run absorbs it, asked behind its own last grant', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Taking turns until every key is granted, the first worker keeping a
    // grant to count: the second run is collected then.
    for (let turn = 0; !lanes[1]!.kinds().includes('splitCollect'); turn++) {
      const lane = lanes[turn % 2]!;
      if (lane === lanes[0] && lane.pending.size < 2) continue;
      answer(lane.oldest()!);
      await settle();
      if (turn > 1000) throw new Error('the second run is never collected');
    }
    expect(lanes[1]!.kinds().at(-1)).toBe('splitCollect');
    // The second worker answers its last grants and its run's counts while the first still counts.
    await answerAll(lanes[1]!);
    const first = lanes[0]!;
    const merge = first.posted.at(-1)!;
    expect(merge.request.kind).toBe('mergeLoad');
    expect(first.pending.has(first.posted.at(-2)!)).toBe(true);
    expect(first.posted.at(-2)!.request.kind).toBe('splitRun');
    expect(first.kinds()).not.toContain('splitCollect');
    // Taking turns, both workers end their own runs: two runs, every key once.
    const runs = runRanges(lanes);
    expect(runs.map(([begin, end]) => [begin, end])).toEqual([[0, 5_000_000], [5_000_000, 10_000_000]]);
    expect(merge.request).toMatchObject({ into: runs[0]![2], parts: [{ items: [{ algorithm: `run ${runs[1]![2]}` }] }] });
    for (let oldest = first.oldest(); oldest !== merge; oldest = first.oldest()) {
      answer(oldest!);
      await settle();
    }
    merge.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [] });
  });

  test('a worker that answers while the other does not steals the other\'s keys not granted', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Only the first worker answers, until it has nothing left.
    await answerAll(lanes[0]!);
    const stolen = lanes[0]!.grants().filter((grant) => grant.length === 4 && grant[2] >= 5_000_000);
    expect(stolen.length).toBeGreaterThan(2);
    // Each run it stole starts once its run before is collected (the new
    // jobs take the memory the old ones free), and every run is collected.
    const posted = lanes[0]!.posted.map((p) => p.request);
    posted.forEach((request, i) => {
      if (request.kind === 'splitRun' && request.start && i > 0) expect(posted[i - 1]).toMatchObject({ kind: 'splitCollect' });
    });
    const collectedRuns = posted.filter((r) => r.kind === 'splitCollect').map((r) => r.run);
    expect(collectedRuns).toEqual(posted.filter((r) => r.kind === 'splitRun' && r.start).map((r) => r.run));
    // The second worker has what was too little to steal, then its runs are collected.
    const merge = await answerUntilMerge(lanes);
    const runs = runRanges(lanes);
    let at = 0;
    for (const [begin, end] of runs) {
      expect(begin).toBe(at);
      at = end;
    }
    expect(at).toBe(KEYS);
    const second = runs.find(([begin]) => begin === 5_000_000)!;
    expect(second[1] - second[0]).toBeLessThan(3_000_000);
    // The first worker ran more than one run: every run is collected and merged.
    await expectEveryRunMerged(merge, runs.length, report);
  });

  test('a first run cut by a steal is collected and merged with the others, not merged into', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    // Only the second worker answers, until it has nothing left: it steals from the first run.
    await answerAll(lanes[1]!);
    const merge = await answerUntilMerge(lanes);
    const runs = runRanges(lanes);
    expect(runs[0]![1]).toBeLessThan(5_000_000);
    expect(lanes[0]!.posted.filter((p) => p.request.kind === 'splitCollect').map((p) => p.request.run)).toEqual([runs[0]![2]]);
    await expectEveryRunMerged(merge, runs.length, report);
  });

  test('a pasted list (each run parses all of it) is one run a worker: no steal', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    // 3,000 characters of key text for 3,000,000 keys: above a character per 1,024 keys.
    const pasted: LoadRequest = { ...request, keys: 'k'.repeat(3000) };
    const report = start(lanes, () => false, pasted, 3_000_000);
    await answerAll(lanes[0]!);
    expect(lanes[0]!.grants().at(-1)![1]).toBe(1_500_000);
    expect(new Set(lanes[0]!.grants().map(([run]) => run)).size).toBe(1);
    for (const lane of lanes) lane.cancel();
    await expect(report).rejects.toBeInstanceOf(CancelledError);
  });

  test('a run whose skipped sample the list needs after all is run again for it', async () => {
    // jump 10 -> 20 moves at least half the keys: the second run, after
    // 5,000,000 keys, skips its sample; the first moved none after all.
    const resize: ResizeRequest = { kind: 'resize', algos: ['jump'], keys: keyText, sizes: [10, 20], sampleLimit: 200_000 };
    const lanes = [new FakeLane(), new FakeLane()];
    const report = runSplitReport(resize, KEYS, 10 + 20 + 200, lanes as unknown as Lane[], () => false);
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
      const { begin, sampleLimits } = started.get(run!)!;
      posted.resolve(begin === 0 ? counts(0, sample(0, 0)) : counts(2_600_000, sample(5_000_000, sampleLimits?.[0] ?? 200_000)));
    };
    for (let turn = 0; !lanes[0]!.posted.some((p) => p.request.kind === 'mergeResize'); turn++) {
      const oldest = lanes[turn % 2]!.oldest();
      if (oldest) reply(oldest);
      await settle();
    }
    const retakes = lanes.flatMap((lane) => lane.posted.filter((p) => p.request.kind === 'splitRun' && p.request.start && p.request.start.sampleLimits?.[0] === 200_000));
    expect(retakes.map((p) => [p.request.start!.begin, p.request.start!.end, p.request.to])).toEqual([[5_000_000, 10_000_000, 10_000_000]]);
    const merge = lanes[0]!.posted.at(-1)!;
    const parts = merge.request.parts as ReturnType<typeof counts>[];
    expect(parts.map((part) => part.steps[0]!.result.sample.values.length)).toEqual([0, 200_000]);
    merge.resolve({ keyCount: KEYS, steps: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, steps: [] });
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

  test('grants are never shorter than GRANT_FROM_KEYS but a run\'s last', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    const merge = await answerUntilMerge(lanes);
    for (const lane of lanes) {
      const grants = lane.grants();
      grants.forEach((grant, i) => {
        const from = grant.length === 4 ? grant[2] : grants[i - 1]![1];
        const last = grants[i + 1] === undefined || grants[i + 1]!.length === 4;
        if (!last) expect(grant[1] - from).toBeGreaterThanOrEqual(GRANT_FROM_KEYS);
      });
    }
    merge.resolve({ keyCount: KEYS, items: [] });
    await report;
  });

  test('the bar moves with each grant\'s reply alone (workers post no progress at a grant\'s end) and ends full', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const seen: Progress[] = [];
    const report = start(lanes, () => false, request, KEYS, (progress) => seen.push(progress));
    const merge = await answerUntilMerge(lanes, [1, 0, 0]);
    const grants = lanes.reduce((sum, lane) => sum + lane.grants().length, 0);
    expect(seen).toHaveLength(grants);
    expect(seen.every((progress) => progress.total === KEYS)).toBe(true);
    expect(seen.map((progress) => progress.done)).toEqual([...seen.map((progress) => progress.done)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual({ done: KEYS, total: KEYS, phase: 'jump: loads among 10' });
    merge.resolve({ keyCount: KEYS, items: [] });
    await report;
  });
});
