import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { LoadRequest, ResizeRequest } from './protocol';
import {
  GRANT_FROM_KEYS, GRANT_SHARE, GrantsProgress, type Grant, type Run, RunScheduler, firstMoved, leastMovedShares, samplesToRetake, skippedSamples, type PartProgress,
} from './split';
import { expectCover } from './fakeLane';
import { GRANTS_IN_FLIGHT } from './splitReport';
import { KEYS_PER_CARRIED_COUNT_TO_SPLIT, MAX_FLOW_CELLS, expectedPassedCounts, mergedCounts, splitWorkers } from './splitWorkers';

const resize = (sizes: number[], algos = ['jumpback']): ResizeRequest => ({ kind: 'resize', algos, keys: '', sizes, sampleLimit: 0 });

describe('mergedCounts', () => {
  test('a resize carries both loads and its flow matrix per algorithm and step', () => {
    expect(mergedCounts(resize([1000, 1001]))).toBe(1000 + 1001 + 1000 * 1001);
    expect(mergedCounts(resize([10, 12, 8], ['jump', 'modulo']))).toBe(2 * (10 + 12 + 120 + 12 + 8 + 96));
  });
  test('no flow matrix above the core\'s flow-cells limit', () => {
    expect(mergedCounts(resize([3000, 3001]))).toBe(6001);
    expect(mergedCounts(resize([2048, 2048]))).toBe(4096 + 2048 * 2048);
  });
  test('a load carries its loads; node lists count their nodes', () => {
    const load: LoadRequest = { kind: 'load', algos: ['jump', 'jumpback'], keys: '', n: 1000 };
    expect(mergedCounts(load)).toBe(2000);
    expect(mergedCounts({ ...load, scenario: { nodes: 'a b,c\nd', steps: '', opts: '' } })).toBe(8);
    const nodes = mergedCounts({ ...resize([]), scenario: { nodes: 'a b c', steps: '-a +e', opts: '' } });
    expect(nodes).toBe(2 * (5 * 5 + 10));
  });
  test('MAX_FLOW_CELLS is the core\'s flow-cells limit', () => {
    const limits = readFileSync(new URL('../../../include/jumphash/limits.hpp', import.meta.url), 'utf8');
    expect(limits).toMatch(/kMaxFlowCells = std::uint64_t\{1\} << 22;/);
    expect(MAX_FLOW_CELLS).toBe(2 ** 22);
  });
});

describe('expectedPassedCounts', () => {
  const consistent = (name: string) => name !== 'modulo';
  test('a consistent algorithm passes its loads and at most min(from, to) x (|to - from| + 1) cells a step', () => {
    expect(expectedPassedCounts(resize([1000, 1001]), consistent)).toBe(1000 + 1001 + 1000 * 2);
    expect(expectedPassedCounts(resize([16, 4]), consistent)).toBe(16 + 4 + 4 * 13);
    expect(expectedPassedCounts(resize([10, 12, 11], ['jump', 'modulo']), consistent)).toBe(10 + 12 + 30 + 12 + 11 + 22 + (10 + 12 + 120 + 12 + 11 + 132));
  });
  test('any other algorithm, a node list and a load pass all they carry', () => {
    expect(expectedPassedCounts(resize([1000, 1001], ['modulo']), consistent)).toBe(mergedCounts(resize([1000, 1001])));
    expect(expectedPassedCounts(resize([1000, 1001]), () => false)).toBe(mergedCounts(resize([1000, 1001])));
    const nodes: ResizeRequest = { ...resize([]), scenario: { nodes: 'a b c', steps: '-a +e', opts: '' } };
    expect(expectedPassedCounts(nodes, consistent)).toBe(mergedCounts(nodes));
    const load: LoadRequest = { kind: 'load', algos: ['jump'], keys: '', n: 1000 };
    expect(expectedPassedCounts(load, consistent)).toBe(1000);
  });
  test('no flow matrix above the core\'s flow-cells limit: the loads alone', () => {
    expect(expectedPassedCounts(resize([3000, 3001]), consistent)).toBe(6001);
  });
});

describe('splitWorkers', () => {
  test('at least 2^20 keys a worker, at most the limit', () => {
    expect(splitWorkers(2 ** 21 - 1, 100, 100, 8)).toBe(1);
    expect(splitWorkers(2 ** 21, 100, 100, 8)).toBe(2);
    expect(splitWorkers(10 ** 8, 100, 100, 8)).toBe(8);
    expect(splitWorkers(10 ** 8, 100, 100, 2)).toBe(2);
    expect(splitWorkers(0, 0, 0, 8)).toBe(1);
  });
  test('a report whose merge would copy more than it saves stays on one worker', () => {
    const cells = mergedCounts(resize([1000, 1001]));
    expect(splitWorkers(10 ** 7, cells, cells, 2)).toBe(1); // modulo: measured slower on two
    expect(splitWorkers(10 ** 8, cells, cells, 2)).toBe(2); // measured faster on two
    expect(splitWorkers(3 * 10 ** 6, mergedCounts(resize([10, 12], ['jump', 'jumpback'])), mergedCounts(resize([10, 12], ['jump', 'jumpback'])), 2)).toBe(2);
  });
  test('a consistent resize that passes few cells splits once each worker has two parts of its matrix', () => {
    const carried = mergedCounts(resize([1000, 1001]));
    const passed = expectedPassedCounts(resize([1000, 1001]), () => true);
    expect(KEYS_PER_CARRIED_COUNT_TO_SPLIT).toBe(2);
    expect(splitWorkers(10 ** 7, passed, carried, 2)).toBe(2);
    expect(splitWorkers(10 ** 7, passed, carried, 8)).toBe(4);
    expect(splitWorkers(3 * 10 ** 6, passed, carried, 8)).toBe(1);
  });
});

/** A scheduler's grants to lane `lane` until it has none left, as [run id, from, to]. */
const grantsOf = (scheduler: RunScheduler, lane: number): [number, number, number][] => {
  const grants: [number, number, number][] = [];
  for (let grant = scheduler.next(lane); grant; grant = scheduler.next(lane)) grants.push([grant.run.id, grant.from, grant.to]);
  return grants;
};
const newScheduler = (keyCount: number, workers: number, runLeast = GRANT_FROM_KEYS, steals = true) => {
  let id = 0;
  return new RunScheduler(keyCount, workers, runLeast, steals, () => ++id);
};

/**
 * A split report's grants on workers of `speeds` (keys a time unit), each
 * holding GRANTS_IN_FLIGHT at once and taking its next when one is back,
 * as runSplitReport posts them, with no cost but the counting: when the
 * last worker is done, against an ideal split (each worker's keys in
 * proportion to its speed), and the runs.
 */
function simulate(keyCount: number, speeds: number[], runLeast = GRANT_FROM_KEYS) {
  const scheduler = newScheduler(keyCount, speeds.length, runLeast);
  const queues: Grant[][] = speeds.map(() => []);
  for (let round = 0; round < GRANTS_IN_FLIGHT; round++) {
    speeds.forEach((_, lane) => {
      const grant = scheduler.next(lane);
      if (grant) queues[lane]!.push(grant);
    });
  }
  const free = speeds.map(() => 0);
  const doneAt = (lane: number) => free[lane]! + (queues[lane]![0]!.to - queues[lane]![0]!.from) / speeds[lane]!;
  const counted: [number, number][] = [];
  let end = 0;
  for (;;) {
    let lane = -1;
    for (let l = 0; l < speeds.length; l++) if (queues[l]!.length > 0 && (lane < 0 || doneAt(l) < doneAt(lane))) lane = l;
    if (lane < 0) break;
    end = free[lane] = doneAt(lane);
    const grant = queues[lane]!.shift()!;
    counted.push([grant.from, grant.to]);
    const next = scheduler.next(lane);
    if (next) queues[lane]!.push(next);
  }
  const ideal = keyCount / speeds.reduce((sum, speed) => sum + speed, 0);
  return { overIdeal: end / ideal, runs: scheduler.runs, counted: counted.sort((a, b) => a[0] - b[0]) };
}

describe('RunScheduler', () => {
  test('the workers are paired over two shares each, in key order: the first counts up from the front, the second down from the back', () => {
    const scheduler = newScheduler(10 ** 7 + 1, 3);
    const runs = () => scheduler.runs.map(({ lane, begin, end, granted, fromEnd }) => [lane, begin, end, granted, fromEnd ?? false]);
    // A pair over the first two shares, the third worker alone over its own.
    expect(runs()).toEqual([[0, 0, 6_666_667, 0, false], [1, 0, 6_666_667, 6_666_667, true], [2, 6_666_667, 10_000_001, 6_666_667, false]]);
    const down = scheduler.next(1)!;
    expect([down.run.id, down.from, down.to, down.first]).toEqual([2, 6_666_667 - 833_334, 6_666_667, true]);
    expect(scheduler.next(1)!.first).toBe(false);
    const up = scheduler.next(0)!;
    expect([up.run.id, up.from, up.first]).toEqual([1, 0, true]);
    // Each of the pair may count up to where the other has granted.
    const [first, second] = scheduler.runs;
    expect([first!.end, second!.begin]).toEqual([second!.granted, first!.granted]);
  });

  test('the grants shrink with the keys not granted, down to GRANT_FROM_KEYS (2^18); a pair meets wherever each has got to', () => {
    expect([GRANT_FROM_KEYS, GRANT_SHARE]).toEqual([2 ** 18, 4]);
    const scheduler = newScheduler(10 ** 7, 2);
    // Taken in turn: 10^7 / 8 keys first, then an eighth of what neither has granted.
    const sizes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const grant = scheduler.next(i % 2)!;
      sizes.push(grant.to - grant.from);
    }
    expect(sizes).toEqual([1_250_000, 1_093_750, 957_032, 837_403, 732_727, 641_136]);
    // The first worker taking three grants to the second's one: they meet
    // where their grants do, each run's grants contiguous from its own end,
    // the last ones GRANT_FROM_KEYS but the last, which takes the rest.
    const turns = newScheduler(10 ** 7, 2);
    const grants: Grant[] = [];
    for (let turn = 0, idle = 0; idle < 2; turn++) {
      const grant = turns.next(turn % 4 === 3 ? 1 : 0);
      idle = grant ? 0 : idle + 1;
      if (grant) grants.push(grant);
    }
    expect(turns.runs).toHaveLength(2);
    expect(turns.allGranted()).toBe(true);
    const [up, down] = turns.runs;
    expect(up!.end).toBe(down!.begin);
    expect(up!.end).toBeGreaterThan(6_000_000); // the first counted more than half
    const own = (run: Run) => grants.filter((grant) => grant.run === run).map(({ from, to }) => [from, to] as const);
    expectCover(own(up!), up!.end);
    expect(own(up!)[0]![0]).toBe(0);
    const downGrants = own(down!);
    expect(downGrants[0]![1]).toBe(10 ** 7);
    expectCover([[0, down!.begin] as const, ...[...downGrants].reverse()], 10 ** 7);
    const last = grants.at(-1)!;
    expect(Math.min(...grants.filter((grant) => grant !== last).map(({ from, to }) => to - from))).toBe(GRANT_FROM_KEYS);
    expect(last.to - last.from).toBeGreaterThanOrEqual(1);
  });

  test('a worker with no keys left counts down the keys left of a run counted alone, as its partner', () => {
    const scheduler = newScheduler(9_000_000, 3);
    grantsOf(scheduler, 0); // the first worker counts up to where its partner would start, then steals
    const [up, down, alone, stolen] = scheduler.runs;
    // The pair's keys all went to the first worker: its partner has none left.
    expect([up!.begin, up!.end, down!.begin, down!.end]).toEqual([0, 6_000_000, 6_000_000, 6_000_000]);
    // Then the third worker's run, alone, had the most: the first counted it down from its end.
    expect(stolen!.lane).toBe(0);
    expect(stolen!.fromEnd).toBe(true);
    expect(stolen!.partner).toBe(alone);
    expect([alone!.begin, alone!.granted, alone!.end]).toEqual([6_000_000, 6_000_000, 6_000_000]);
    expect([stolen!.begin, stolen!.end]).toEqual([6_000_000, 9_000_000]);
    expect(scheduler.allGranted()).toBe(true);
  });

  test('from a pair, a worker steals the back two thirds of the keys between them, counting up as the second one\'s partner', () => {
    const scheduler = newScheduler(9_000_000, 3);
    const up0 = scheduler.next(0)!; // 9,000,000 / 12 keys
    const down0 = scheduler.next(1)!; // 8,250,000 / 12
    expect([up0.from, up0.to, down0.from, down0.to]).toEqual([0, 750_000, 5_312_500, 6_000_000]);
    // The third worker counts its own run to the end, then steals.
    while (scheduler.runs.length === 3) expect(scheduler.next(2)).toBeDefined();
    const [up, down, alone, stealer] = scheduler.runs;
    expect(alone!.granted).toBe(9_000_000);
    // Between the pair: 4,562,500 keys; the first keeps a third, 1,520,833.
    expect(stealer!.lane).toBe(2);
    expect(stealer!.fromEnd ?? false).toBe(false);
    expect(stealer!.begin).toBe(750_000 + 1_520_833);
    expect(up!.end).toBe(stealer!.begin);
    expect(up!.partner).toBeUndefined();
    expect(down!.partner).toBe(stealer);
    expect(stealer!.partner).toBe(down);
    expect(down!.begin).toBe(stealer!.granted);
    // Everyone to the end: every key in one run, the runs in key order.
    for (let lane = 0, idle = 0; idle < 3; lane = (lane + 1) % 3) idle = scheduler.next(lane) ? 0 : idle + 1;
    expect(scheduler.allGranted()).toBe(true);
    expectCover(scheduler.runs.map(({ begin, end }) => [begin, end] as const).filter(([b, e]) => e > b).sort((a, b) => a[0] - b[0]), 9_000_000);
  });

  test('no steal of fewer than 2 x runLeast keys, nor of a pasted list', () => {
    const costly = newScheduler(9_000_000, 3, 1_500_001);
    grantsOf(costly, 0);
    expect(costly.runs).toHaveLength(3); // the third's 3,000,000 keys: not worth two runs of 1,500,001
    const pasted = newScheduler(9_000_000, 3, GRANT_FROM_KEYS, false);
    expect(grantsOf(pasted, 0).at(-1)![2]).toBe(6_000_000);
    expect(pasted.runs).toHaveLength(3);
  });

  test('a run counted from its end is expected to begin halfway to its partner', () => {
    const scheduler = newScheduler(10 ** 7, 2);
    scheduler.next(0);
    scheduler.next(1);
    const [up, down] = scheduler.runs;
    expect(scheduler.expectedBegin(up!)).toBe(0);
    expect(scheduler.expectedBegin(down!)).toBe(1_250_000 + Math.floor((10 ** 7 - 1_093_750 - 1_250_000) / 2));
  });

  test('a pair of workers ends together wherever they meet: a slower one counts fewer keys, and the report hardly waits for it', () => {
    // Alike, a pair ends within its last grants (2^18 keys) of an ideal
    // split: 1.006x over 10^7 keys, 1.002x over 10^8.
    for (const [keys, within] of [[10 ** 7, 1.007], [10 ** 8, 1.003]] as const) {
      const alike = simulate(keys, [1, 1]);
      expect(alike.runs).toHaveLength(2);
      expect(alike.overIdeal).toBeLessThan(within);
      expectCover(alike.counted, keys);
    }
    // One worker 3x slower over 10^8 keys: 1.06x the ideal split (an equal
    // split: 1.5x), with no steal; 2x slower: 1.003x; 2x slower, one of
    // four: 1.03x; over 10^7 keys, 2x slower: 1.04x, 10% slower: 1.01x.
    const slow = simulate(10 ** 8, [1, 1 / 3]);
    expectCover(slow.counted, 10 ** 8);
    expect(slow.runs).toHaveLength(2);
    expect(slow.overIdeal).toBeLessThan(1.06);
    expect(simulate(10 ** 8, [1, 0.5]).overIdeal).toBeLessThan(1.004);
    const four = simulate(10 ** 8, [1, 0.5, 1, 1]);
    expectCover(four.counted, 10 ** 8);
    expect(four.overIdeal).toBeLessThan(1.03);
    expect(simulate(10 ** 7, [1, 0.5]).overIdeal).toBeLessThan(1.05);
    expect(simulate(10 ** 7, [1, 0.9]).overIdeal).toBeLessThan(1.012);
    // Three alike: a pair and one alone, which the pair's first to end steals from.
    expect(simulate(10 ** 8, [1, 1, 1]).overIdeal).toBeLessThan(1.003);
  });
});
describe('skipped samples', () => {
  const run = (...moved: (number | null)[]) => ({ steps: moved.map((m) => ({ result: m === null ? null : { moved: m } })) });
  test('the least share each report moves, algorithm-major; none estimated for a node list', () => {
    expect(leastMovedShares(resize([10, 12, 8], ['jump', 'modulo']))).toEqual([2 / 12, 4 / 12, 2 / 12, 4 / 12]);
    expect(leastMovedShares(resize([1000, 1000]))).toEqual([0]);
    expect(leastMovedShares({ ...resize([]), scenario: { nodes: 'a b c', steps: '-a +e', opts: '' } })).toEqual([0, 0]);
  });
  test('a run skips its sample where the keys before it surely fill the list', () => {
    // jump 10 -> 12 over random:10000000:1 on two workers: the first run
    // (5,000,000 keys) moves about 833,000, four times the list: the second
    // run skips its sample.
    expect(skippedSamples(200_000, 5_000_000, [1 / 6])).toEqual([true]);
    // 1,500,000 keys before move about 250,000: just 1.25 x 200,000.
    expect(skippedSamples(200_000, 1_500_000, [1 / 6])).toEqual([true]);
    expect(skippedSamples(200_000, 1_499_999, [1 / 6])).toEqual([false]);
    // Per report.
    expect(skippedSamples(200_000, 2_000_000, [1 / 6, 1 / 100])).toEqual([true, false]);
    // No list, no key before, or no estimate: nothing to skip.
    expect(skippedSamples(0, 10 ** 7, [1 / 6])).toEqual([false]);
    expect(skippedSamples(200_000, 0, [1 / 6])).toEqual([false]);
    expect(skippedSamples(200_000, 10 ** 8, [0])).toEqual([false]);
  });
  test('a run that skipped its sample is run again only where the runs before it moved too few', () => {
    const skipped = [undefined, [true, true], [true, false]];
    // The first run filled report 0's list; report 1's left 160,000 for the second run.
    expect(samplesToRetake(200_000, [run(250_000, 40_000), run(90_000, 70_000), run(80_000, 5)], skipped)).toEqual([{ index: 1, limits: [0, 160_000] }]);
    // The first run filled both: nothing to run again.
    expect(samplesToRetake(200_000, [run(250_000, 210_000), run(90_000, 70_000), run(80_000, 5)], skipped)).toEqual([]);
    // A run that moved nothing, or a report without a result, has nothing to list.
    expect(samplesToRetake(200_000, [run(0, 0), run(0, null), run(7, 5)], skipped)).toEqual([{ index: 2, limits: [200_000, 0] }]);
  });
});

describe('GrantsProgress', () => {
  test('one bar over every grant: the total from the first grant to report, the done summed', () => {
    const seen: PartProgress[] = [];
    // 10 keys in 3 grants (3, 3, 4 keys), 2 reports each.
    const progress = new GrantsProgress(10, (p) => seen.push(p));
    progress.update(2, 4, { done: 2, total: 8, phase: 'jump: 10 → 12' });
    progress.update(0, 3, { done: 6, total: 6, phase: 'jump: 10 → 12' });
    progress.update(2, 4, { done: 8, total: 8, phase: 'jumpback: 10 → 12' });
    progress.update(1, 3, { done: 6, total: 6, phase: 'jumpback: 10 → 12' });
    expect(seen.map((p) => [p.done, p.total])).toEqual([[2, 20], [8, 20], [14, 20], [20, 20]]);
    expect(seen.at(-1)!.phase).toBe('jumpback: 10 → 12');
  });
});

describe('the first moved keys of the runs', () => {
  const sample = (first: number, count: number, labels: [number, string][] = []) => ({
    values: BigUint64Array.from({ length: count }, (_, i) => BigInt(first + i)),
    oldBuckets: Int32Array.from({ length: count }, (_, i) => i),
    newBuckets: Int32Array.from({ length: count }, (_, i) => i + 1),
    labels,
  });
  const keys = (moved: ReturnType<typeof firstMoved>) => moved.parts.flatMap((part) => [...part.values].map(Number));

  test('joins the runs in order, past a run that moved nothing, and cuts at the limit', () => {
    const parts = [sample(10, 2), sample(0, 0), sample(20, 3, [[0, 'a'], [2, 'c']]), sample(30, 4)];
    expect(keys(firstMoved(parts, 100))).toEqual([10, 11, 20, 21, 22, 30, 31, 32, 33]);
    const cut = firstMoved(parts, 4);
    expect(keys(cut)).toEqual([10, 11, 20, 21]);
    // The cut run keeps its columns (subarrays, not copies) and the labels below the cut.
    expect(cut.parts[1]!.values.buffer).toBe(parts[2]!.values.buffer);
    expect([...cut.parts[1]!.newBuckets]).toEqual([1, 2]);
    expect(cut.parts[1]!.labels).toEqual([[0, 'a']]);
    // A run taken whole is the run itself; none past the limit is kept.
    expect(cut.parts[0]).toBe(parts[0]);
    expect(firstMoved(parts, 2).parts).toEqual([parts[0]]);
    expect(firstMoved(parts, 0).parts).toEqual([]);
    expect(firstMoved([sample(0, 0)], 10).parts).toEqual([]);
  });
});
