// A load report against what fairness or chance would give: on a node
// list, each node against its fair share; on n buckets, the binomial band.
// What the Balance view's table (views/balance.ts) and its cards
// (./card.ts) show; pure arithmetic on the package's LoadResult.

import type { LoadResult } from 'jumphash-wasm';

/** One node's load against its fair share. */
export interface NodeShare {
  name: string;
  weight: number;
  /** Keys on the node. */
  keys: number;
  /** Keys its fair share is: idealShare × total keys. */
  fair: number;
  /** keys / fair (1 is exactly fair; 0 when the fair share is 0 keys). */
  ratio: number;
}

/**
 * Each node's load against its fair share, from a load report on a node
 * list; null for a report on a bucket count (no nodes).
 */
export function nodeShares(result: LoadResult): NodeShare[] | null {
  if (!result.nodes || !result.idealShares) return null;
  const total = result.stats.total;
  return result.nodes.map((node, i) => {
    const keys = result.loads[i] ?? 0;
    const fair = (result.idealShares![i] ?? 0) * total;
    return { name: node.name, weight: node.weight, keys, fair, ratio: fair > 0 ? keys / fair : 0 };
  });
}

/**
 * Pearson's chi-square of the loads against the fair shares (expected keys
 * idealShare × total per node) with its degrees of freedom (nodes − 1); the
 * core's own statistic compares against equal shares, which a weighted list
 * is not meant to have.
 */
export function chiSquareAgainstShares(shares: NodeShare[]): { chiSquare: number; degreesOfFreedom: number } {
  let chiSquare = 0;
  for (const share of shares) if (share.fair > 0) chiSquare += (share.keys - share.fair) ** 2 / share.fair;
  return { chiSquare, degreesOfFreedom: Math.max(0, shares.length - 1) };
}

/** The most and least loaded nodes relative to their fair shares (ratios keys / fair). */
export function shareExtremes(shares: NodeShare[]): { highest: NodeShare; lowest: NodeShare } | null {
  if (shares.length === 0) return null;
  let highest = shares[0]!;
  let lowest = shares[0]!;
  for (const share of shares) {
    if (share.ratio > highest.ratio) highest = share;
    if (share.ratio < lowest.ratio) lowest = share;
  }
  return { highest, lowest };
}

/**
 * The binomial expectation of one bucket's load when `total` keys fall
 * uniformly into `n` buckets: mean total / n, sigma sqrt(total p (1 - p))
 * with p = 1 / n (keys).
 */
export function binomialBand(total: number, n: number): { mean: number; sigma: number } {
  const p = 1 / n;
  return { mean: total * p, sigma: Math.sqrt(total * p * (1 - p)) };
}
