// binLoads (ui/loadBins.ts) against the plain reading of its contract: the
// loads padded with zeros to the axis, cut into groups of `size`.
import { describe, expect, it } from 'vitest';
import { binLoads } from './loadBins';

/** The contract spelled out: pad with zeros, then take each group's min and max. */
function naive(loads: ArrayLike<number>, maxBars: number, length = loads.length) {
  const padded = Array.from({ length }, (_, i) => (i < loads.length ? loads[i]! : 0));
  const size = Math.ceil(length / Math.min(length, maxBars));
  const xs: number[] = [];
  const maxs: number[] = [];
  const mins: number[] = [];
  for (let start = 0; start < length; start += size) {
    const group = padded.slice(start, start + size);
    xs.push(start);
    maxs.push(Math.max(...group));
    mins.push(Math.min(...group));
  }
  return { xs, maxs, mins, size };
}

/** A deterministic pseudo-random load list (xorshift32). */
function loadsOf(count: number, seed: number): Float64Array {
  let x = seed;
  return Float64Array.from({ length: count }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % 1000;
  });
}

describe('binLoads', () => {
  it('keeps every bucket when there are no more than maxBars', () => {
    expect(binLoads([3, 1, 4, 1, 5], 10)).toEqual({ xs: [0, 1, 2, 3, 4], maxs: [3, 1, 4, 1, 5], mins: [3, 1, 4, 1, 5], size: 1 });
  });

  it('groups into at most maxBars groups of equal size, the last shorter', () => {
    const bins = binLoads([5, 2, 7, 7, 1, 9, 4], 3);
    expect(bins).toEqual({ xs: [0, 3, 6], maxs: [7, 9, 4], mins: [2, 1, 4], size: 3 });
  });

  it('gives buckets past the loads none: as the loads padded with zeros', () => {
    // 4 buckets after a resize from 10: the axis has 10.
    expect(binLoads([8, 6, 9, 7], 10, 10)).toEqual({ xs: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], maxs: [8, 6, 9, 7, 0, 0, 0, 0, 0, 0], mins: [8, 6, 9, 7, 0, 0, 0, 0, 0, 0], size: 1 });
    // A group that straddles the end takes a zero as its min.
    expect(binLoads([8, 6, 9, 7], 2, 6)).toEqual({ xs: [0, 3], maxs: [9, 7], mins: [6, 0], size: 3 });
  });

  it('matches the padded reading on random loads, counts and axes', () => {
    for (const [count, maxBars, length] of [
      [1000, 2000, 1000],
      [1001, 2000, 1001],
      [100_000, 2000, 100_000],
      [100_003, 999, 100_003],
      [4, 2000, 100_000],
      [777, 100, 5000],
      [5000, 2000, 5000],
    ] as const) {
      const loads = loadsOf(count, count + maxBars);
      expect(binLoads(loads, maxBars, length), `${count} loads, ${maxBars} bars, axis ${length}`).toEqual(naive(loads, maxBars, length));
    }
  });

  it('gives no groups for no buckets', () => {
    expect(binLoads([], 2000)).toMatchObject({ xs: [], maxs: [], mins: [] });
  });
});
