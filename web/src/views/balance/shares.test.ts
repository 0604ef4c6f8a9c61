import { describe, expect, it } from 'vitest';
import type { LoadResult } from 'jumphash-wasm';
import { binomialBand, chiSquareAgainstShares, nodeShares, shareExtremes } from './shares';

/** A load report on small-1, small-2 (weight 1 each) and big (weight 2), 100 keys. */
function weighted(loads: number[], idealShares: number[] | null = [0.25, 0.25, 0.5]): LoadResult {
  const total = loads.reduce((sum, keys) => sum + keys, 0);
  return {
    algorithm: 'ketama',
    n: loads.length,
    nodes: [{ name: 'small-1', weight: 1 }, { name: 'small-2', weight: 1 }, { name: 'big', weight: 2 }],
    idealShares: idealShares && Float64Array.from(idealShares),
    loads: Float64Array.from(loads),
    stats: { total, min: Math.min(...loads), max: Math.max(...loads), mean: total / loads.length, maxOverMean: 0, chiSquare: 0, degreesOfFreedom: loads.length - 1 },
    keyRange: [0, total],
  };
}

describe('nodeShares', () => {
  it('sets each node against its share of the keys', () => {
    expect(nodeShares(weighted([20, 30, 50]))).toEqual([
      { name: 'small-1', weight: 1, keys: 20, fair: 25, ratio: 0.8 },
      { name: 'small-2', weight: 1, keys: 30, fair: 25, ratio: 1.2 },
      { name: 'big', weight: 2, keys: 50, fair: 50, ratio: 1 },
    ]);
  });

  it('gives no shares for a report on a bucket count, and ratio 0 for a share of no keys', () => {
    expect(nodeShares({ ...weighted([20, 30, 50]), nodes: null, idealShares: null })).toBeNull();
    expect(nodeShares(weighted([0, 0, 0]))?.map((share) => share.ratio)).toEqual([0, 0, 0]);
  });
});

describe('chiSquareAgainstShares', () => {
  it('is Pearson’s chi-square against the fair shares, not against equal ones', () => {
    // (20-25)²/25 + (30-25)²/25 + (50-50)²/50 = 2, over 2 degrees of freedom.
    expect(chiSquareAgainstShares(nodeShares(weighted([20, 30, 50]))!)).toEqual({ chiSquare: 2, degreesOfFreedom: 2 });
    // Exactly fair: 0, although the loads are not equal.
    expect(chiSquareAgainstShares(nodeShares(weighted([25, 25, 50]))!).chiSquare).toBe(0);
  });

  it('leaves out a node whose fair share is no keys', () => {
    const shares = nodeShares(weighted([0, 10, 10], [0, 0.5, 0.5]))!;
    expect(chiSquareAgainstShares(shares)).toEqual({ chiSquare: 0, degreesOfFreedom: 2 });
  });
});

describe('shareExtremes', () => {
  it('finds the nodes most over and most under their shares', () => {
    const extremes = shareExtremes(nodeShares(weighted([20, 30, 50]))!);
    expect(extremes?.highest.name).toBe('small-2');
    expect(extremes?.lowest.name).toBe('small-1');
    expect(shareExtremes([])).toBeNull();
  });
});

describe('binomialBand', () => {
  it('is the mean and standard deviation of one bucket’s load', () => {
    // 1000 keys in 10 buckets: mean 100, σ = sqrt(1000 · 0.1 · 0.9) = sqrt(90).
    const band = binomialBand(1000, 10);
    expect(band.mean).toBe(100);
    expect(band.sigma).toBeCloseTo(Math.sqrt(90), 12);
    expect(binomialBand(1000, 1)).toEqual({ mean: 1000, sigma: 0 });
  });
});
