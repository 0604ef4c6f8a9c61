import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { LoadRequest, ResizeRequest } from './protocol';
import { KEYS_PER_CARRIED_COUNT, KEYS_PER_PASSED_COUNT, PART_FROM_KEYS, PartCutter, PartsProgress, firstMoved, leastMovedShares, partSampleLimits, passedCounts, samplesToRetake, skippedSamples, splitRanges, type PartProgress } from './split';
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

describe('splitRanges', () => {
  /** The ranges cover 0..keyCount once, in order, none empty. */
  const expectCover = (ranges: [number, number][], keyCount: number) => {
    let at = 0;
    for (const [begin, end] of ranges) {
      expect(begin).toBe(at);
      expect(end).toBeGreaterThan(begin);
      at = end;
    }
    expect(at).toBe(keyCount);
  };
  test('the parts shrink: the keys left over 2 x workers, down to PART_FROM_KEYS (2^18) keys', () => {
    expect(PART_FROM_KEYS).toBe(2 ** 18);
    const ranges = splitRanges(10 ** 7, 142, 17, 2);
    expectCover(ranges, 10 ** 7);
    expect(ranges.map(([b, e]) => e - b)).toEqual([
      2_500_000, 1_875_000, 1_406_250, 1_054_688, 791_016, 593_262, 444_946, 333_710, 262_144, 262_144, 262_144, 214_696,
    ]);
  });
  test('until a part is back, at least 4 keys a count each part carries: a 10^6-cell flow matrix makes 4 x 10^6-key parts', () => {
    expect(KEYS_PER_PASSED_COUNT).toBe(4);
    const counts = mergedCounts(resize([1000, 1001]));
    const ranges = splitRanges(10 ** 8, counts, 11, 2);
    expectCover(ranges, 10 ** 8);
    const sizes = ranges.map(([b, e]) => e - b);
    expect(sizes[0]).toBe(25_000_000);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(4 * counts);
    expect(sizes.length).toBe(10);
  });
  test('more workers, smaller first parts', () => {
    const ranges = splitRanges(10 ** 8, 142, 18, 8);
    expectCover(ranges, 10 ** 8);
    expect(ranges[0]![1]).toBe(6_250_000);
  });
  test('no part shorter than half the least: the last one takes the few keys left', () => {
    const ranges = splitRanges(3 * 2 ** 18 + 5, 142, 17, 2);
    expectCover(ranges, 3 * 2 ** 18 + 5);
    expect(ranges.map(([b, e]) => e - b)).toEqual([2 ** 18, 2 ** 18, 2 ** 18 + 5]);
    expect(splitRanges(2 ** 19 + 2 ** 17 - 1, 142, 17, 2).map(([b, e]) => e - b)).toEqual([2 ** 18, 2 ** 18 + 2 ** 17 - 1]);
  });
  test('a pasted list (each part parses all of it) is one equal part a worker', () => {
    expect(splitRanges(3 * 10 ** 6, 142, 8 * 3 * 10 ** 6, 2)).toEqual([[0, 1_500_000], [1_500_000, 3_000_000]]);
    expect(splitRanges(10, 1, 1000, 3)).toEqual([[0, 3], [3, 6], [6, 10]]);
    expect(splitRanges(10 ** 7, 142, 10 ** 7 / 1024 + 1, 2)).toHaveLength(2);
    expect(splitRanges(10 ** 7, 142, 10 ** 7 / 1024, 2).length).toBeGreaterThan(2);
  });
  test('one worker: one part', () => {
    expect(splitRanges(2 ** 24, 142, 17, 1)).toEqual([[0, 2 ** 24]]);
  });
});

describe('PartCutter', () => {
  const counts = mergedCounts(resize([1000, 1001])); // 1,003,001
  /** The parts of 10^8 keys on 2 workers, cut as the workers take them: after the first `before` parts, each part back passes `passed(part)` counts. */
  const cut = (passed: (range: [number, number]) => number, before = 4) => {
    const cutter = new PartCutter(10 ** 8, counts, 11, 2);
    for (let i = 0; i < before; i++) cutter.next();
    for (let back = 0; cutter.next(); back++) cutter.passed(passed(cutter.ranges[back]!));
    return cutter.ranges;
  };
  const sizes = (ranges: [number, number][]) => ranges.map(([b, e]) => e - b);

  test('parts that pass few counts (jumpback 1000 -> 1001: about 3,600) end in parts of PART_FROM_KEYS, above a quarter key a count carried', () => {
    expect(KEYS_PER_CARRIED_COUNT).toBe(0.25);
    const least = Math.max(PART_FROM_KEYS, KEYS_PER_CARRIED_COUNT * counts);
    expect(least).toBe(PART_FROM_KEYS);
    const ranges = cut(() => 3_600);
    const cutSizes = sizes(ranges);
    // The first four, posted before any part is back, as splitRanges cuts them.
    expect(cutSizes.slice(0, 4)).toEqual(sizes(splitRanges(10 ** 8, counts, 11, 2)).slice(0, 4));
    let at = 0;
    for (const [begin, end] of ranges) {
      expect(begin).toBe(at);
      at = end;
    }
    expect(at).toBe(10 ** 8);
    expect(Math.min(...cutSizes.slice(0, -1))).toBe(least);
    expect(cutSizes.at(-1)!).toBeGreaterThanOrEqual(least / 2);
    expect(cutSizes.at(-1)!).toBeLessThan(1.5 * least);
    expect(cutSizes.length).toBeGreaterThan(splitRanges(10 ** 8, counts, 11, 2).length);
  });
  test('parts that pass their whole matrix (modulo) are cut as before any part was back', () => {
    expect(cut(() => counts)).toEqual(splitRanges(10 ** 8, counts, 11, 2));
  });
  test('the most counts any part passed sizes the parts cut after it', () => {
    // A small part that passed few counts does not undo a dense one.
    const ranges = cut(([b, e]) => (b === 0 ? counts : Math.min(e - b, 1000)));
    expect(Math.min(...sizes(ranges))).toBeGreaterThanOrEqual(KEYS_PER_PASSED_COUNT * counts / 2);
  });
  test('until a part is back, the parts are sized by the counts the request leads to expect', () => {
    const expected = expectedPassedCounts(resize([1000, 1001]), () => true); // 4,001
    const cutter = new PartCutter(10 ** 7, counts, 17, 2, expected);
    while (cutter.next());
    // 10^7 keys: the keys left over 4, down to PART_FROM_KEYS (2^18, above
    // a quarter key for each of the 1,003,001 counts carried); the last
    // takes what is left, at least half of that.
    expect(sizes(cutter.ranges)).toEqual([2_500_000, 1_875_000, 1_406_250, 1_054_688, 791_016, 593_262, 444_946, 333_710, 262_144, 262_144, 262_144, 214_696]);
  });
  test('at least PART_FROM_KEYS keys, whatever passed', () => {
    const cutter = new PartCutter(10 ** 7, 142, 17, 2);
    cutter.passed(0);
    while (cutter.next());
    expect(sizes(cutter.ranges)).toEqual(sizes(splitRanges(10 ** 7, 142, 17, 2)));
  });
});

describe('passedCounts', () => {
  const step = (cells: { index: Uint32Array | null; count: Float64Array } | null) => ({
    result: { loadsBefore: new Float64Array(10), loadsAfter: new Float64Array(12), flowCells: cells },
  });
  test('a resize part passes each report\'s loads and flow cells, or its whole matrix', () => {
    const sparse = step({ index: new Uint32Array(14), count: new Float64Array(14) });
    const dense = step({ index: null, count: new Float64Array(120) });
    expect(passedCounts({ steps: [sparse] })).toBe(22 + 14);
    expect(passedCounts({ steps: [sparse, dense, step(null), { result: null }] })).toBe(36 + 142 + 22);
  });
  test('a load part passes its loads', () => {
    expect(passedCounts({ items: [{ result: { loads: new Float64Array(1000) } }, { result: null }] })).toBe(1000);
  });
});

describe('partSampleLimits', () => {
  const part = (...moved: (number | null)[]) => ({ steps: moved.map((m) => ({ result: m === null ? null : { moved: m } })) });
  test('no part before back: the whole limit', () => {
    expect(partSampleLimits(200_000, 0, [])).toBeUndefined();
    expect(partSampleLimits(200_000, 1, [undefined, part(5, 5)])).toBeUndefined();
  });
  test('the limit less the moved keys of the parts before that are back, per report, never below 0', () => {
    expect(partSampleLimits(200_000, 2, [part(150_000, 10), undefined])).toEqual([50_000, 199_990]);
    expect(partSampleLimits(200_000, 2, [undefined, part(250_000, 10)])).toEqual([0, 199_990]);
    expect(partSampleLimits(200_000, 3, [part(120_000, 1), part(90_000, 2), undefined])).toEqual([0, 199_997]);
    expect(partSampleLimits(100, 2, [part(null, 40), part(null, 40)])).toEqual([100, 20]);
  });
  test('parts after this one do not count', () => {
    expect(partSampleLimits(200_000, 1, [part(7, 7), part(9, 9), part(11, 11)])).toEqual([199_993, 199_993]);
  });
});

describe('skipped samples', () => {
  const part = (...moved: (number | null)[]) => ({ steps: moved.map((m) => ({ result: m === null ? null : { moved: m } })) });
  test('the least share each report moves, algorithm-major; none estimated for a node list', () => {
    expect(leastMovedShares(resize([10, 12, 8], ['jump', 'modulo']))).toEqual([2 / 12, 4 / 12, 2 / 12, 4 / 12]);
    expect(leastMovedShares(resize([1000, 1000]))).toEqual([0]);
    expect(leastMovedShares({ ...resize([]), scenario: { nodes: 'a b c', steps: '-a +e', opts: '' } })).toEqual([0, 0]);
  });
  test('a part skips its sample where the parts still running before it surely fill the list', () => {
    // jump 10 -> 12 over random:10000000:1: the first part (2,500,000 keys) moves about
    // 417,000, twice the list: the second part, started with it, skips its sample.
    expect(skippedSamples(200_000, undefined, 2_500_000, [1 / 6])).toEqual([true]);
    // A smaller first part (775,005 keys) moves about 129,000: short of 1.25 x 200,000.
    expect(skippedSamples(200_000, undefined, 775_005, [1 / 6])).toEqual([false]);
    // Per report, against what the parts back already left to list.
    expect(skippedSamples(200_000, [50_000, 200_000], 400_000, [1 / 6, 1 / 6])).toEqual([true, false]);
    // Nothing left to list, no part pending, or no estimate: nothing to skip.
    expect(skippedSamples(200_000, [0], 10 ** 7, [1 / 6])).toEqual([false]);
    expect(skippedSamples(200_000, undefined, 0, [1 / 6])).toEqual([false]);
    expect(skippedSamples(200_000, undefined, 10 ** 8, [0])).toEqual([false]);
  });
  test('a part that skipped its sample is run again only where the parts before it moved too few', () => {
    const skipped = [undefined, [true, true], [true, false]];
    // The first part filled report 0's list; report 1's left 160,000 for the second part.
    expect(samplesToRetake(200_000, [part(250_000, 40_000), part(90_000, 70_000), part(80_000, 5)], skipped)).toEqual([{ index: 1, limits: [0, 160_000] }]);
    // The first part filled both: nothing to run again.
    expect(samplesToRetake(200_000, [part(250_000, 210_000), part(90_000, 70_000), part(80_000, 5)], skipped)).toEqual([]);
    // A part that moved nothing, or a report without a result, has nothing to list.
    expect(samplesToRetake(200_000, [part(0, 0), part(0, null), part(7, 5)], skipped)).toEqual([{ index: 2, limits: [200_000, 0] }]);
  });
});

describe('PartsProgress', () => {
  test('one bar over every part: the total from the first part to report, the done summed', () => {
    const seen: PartProgress[] = [];
    // 10 keys in 3 parts (3, 3, 4 keys), 2 reports each.
    const progress = new PartsProgress(10, (p) => seen.push(p));
    progress.update(2, 4, { done: 2, total: 8, phase: 'jump: 10 → 12' });
    progress.update(0, 3, { done: 6, total: 6, phase: 'jump: 10 → 12' });
    progress.update(2, 4, { done: 8, total: 8, phase: 'jumpback: 10 → 12' });
    progress.update(1, 3, { done: 6, total: 6, phase: 'jumpback: 10 → 12' });
    expect(seen.map((p) => [p.done, p.total])).toEqual([[2, 20], [8, 20], [14, 20], [20, 20]]);
    expect(seen.at(-1)!.phase).toBe('jumpback: 10 → 12');
  });
});

describe('the first moved keys of the parts', () => {
  const sample = (first: number, count: number, labels: [number, string][] = []) => ({
    values: BigUint64Array.from({ length: count }, (_, i) => BigInt(first + i)),
    oldBuckets: Int32Array.from({ length: count }, (_, i) => i),
    newBuckets: Int32Array.from({ length: count }, (_, i) => i + 1),
    labels,
  });
  const keys = (moved: ReturnType<typeof firstMoved>) => moved.parts.flatMap((part) => [...part.values].map(Number));

  test('joins the parts in order, past a part that moved nothing, and cuts at the limit', () => {
    const parts = [sample(10, 2), sample(0, 0), sample(20, 3, [[0, 'a'], [2, 'c']]), sample(30, 4)];
    expect(keys(firstMoved(parts, 100))).toEqual([10, 11, 20, 21, 22, 30, 31, 32, 33]);
    const cut = firstMoved(parts, 4);
    expect(keys(cut)).toEqual([10, 11, 20, 21]);
    // The cut part keeps its columns (subarrays, not copies) and the labels below the cut.
    expect(cut.parts[1]!.values.buffer).toBe(parts[2]!.values.buffer);
    expect([...cut.parts[1]!.newBuckets]).toEqual([1, 2]);
    expect(cut.parts[1]!.labels).toEqual([[0, 'a']]);
    // A part taken whole is the part itself; none past the limit is kept.
    expect(cut.parts[0]).toBe(parts[0]);
    expect(firstMoved(parts, 2).parts).toEqual([parts[0]]);
    expect(firstMoved(parts, 0).parts).toEqual([]);
    expect(firstMoved([sample(0, 0)], 10).parts).toEqual([]);
  });
});
