// Whether a large report is split across workers, and across how many
// (engine/client.ts, ReportPool): the counts its runs would pass to the
// merge against the keys each worker would save. Pure arithmetic on the
// request; how its runs are granted and merged is engine/split.ts and
// engine/splitReport.ts. Fetched with engine/splitReport.ts, which
// re-exports it, by the first report of at least 2 x SPLIT_FROM_KEYS keys,
// so the page every visit starts (an embed too) carries none of it.
import { SPLIT_FROM_KEYS } from './client';
import type { LoadRequest, ResizeRequest } from './protocol';

/**
 * Keys a report needs per count a run passes to the merge to split at
 * all (expectedPassedCounts). Each worker beyond the first saves its share
 * of the counting, about 45 ns a key in WebAssembly, and costs a copy of
 * every count it passes (its result, the merge's absorb and result: about
 * 120 ns a count). Measured with the page benchmark
 * (e2e/bench/reports.bench.ts) on 2 cores when every part passed its whole
 * matrix: jumpback 1000 -> 1001 (1,001,000 flow cells) over 10^7 keys took
 * 454 ms on one worker and 542 ms on two; over 10^8 keys, 1301 and 1090 ms.
 */
export const KEYS_PER_MERGED_COUNT = 16;

/**
 * Keys a report needs per count a run carries (its loads and flow matrix,
 * passed or not: the matrix's marks, a bit a cell, are zeroed when a run
 * starts and read when it is collected; FlowMatrix in the core), per
 * worker, to split: each worker's run then has at least two keys a count
 * it carries. (Measured when a report was cut into parts, each with jobs
 * of its own, split.ts cutting none shorter than a key a count carried.)
 */
export const KEYS_PER_CARRIED_COUNT_TO_SPLIT = 2;

/** The core's flow-cells limit (jumphash --help, limits()): larger resizes keep no flow matrix. */
export const MAX_FLOW_CELLS = 2 ** 22;

/**
 * The counts one run of `request` carries to the merge: for a resize, each
 * report's loads before and after and its flow matrix (kept up to
 * MAX_FLOW_CELLS cells); for a load, each report's loads. Node lists count
 * their nodes (before the steps; each step adds at most a few).
 */
export function mergedCounts(request: ResizeRequest | LoadRequest): number {
  if (request.kind === 'load') {
    const n = request.scenario ? nodeCount(request.scenario.nodes) : request.n;
    return request.algos.length * n;
  }
  let perAlgorithm = 0;
  if (request.scenario) {
    const nodes = nodeCount(request.scenario.nodes) + request.scenario.steps.split(/[\s,]+/).filter(Boolean).length;
    const steps = Math.max(1, request.scenario.steps.split(/[\s,]+/).filter(Boolean).length);
    perAlgorithm = steps * (nodes * nodes + 2 * nodes);
  } else {
    for (let i = 0; i + 1 < request.sizes.length; i++) {
      const from = request.sizes[i]!, to = request.sizes[i + 1]!;
      perAlgorithm += from + to + (from * to <= MAX_FLOW_CELLS ? from * to : 0);
    }
  }
  return request.algos.length * perAlgorithm;
}

function nodeCount(nodes: string): number {
  return nodes.split(/[\s,]+/).filter(Boolean).length;
}

/**
 * The counts one run of `request` is expected to pass to the merge, at
 * most mergedCounts: each report's loads, and the cells of its flow matrix
 * that keys can reach. An algorithm for which `consistent(name)` (the
 * package's AlgorithmInfo.consistent) moves only the keys it must: growing
 * from `from` to `to` buckets, keys move only into the added buckets, and
 * shrinking, only out of the removed ones, so at most min(from, to) x
 * (|to - from| + 1) cells are filled (the diagonal and the moves): about
 * 2,000 of 1,001,000 for 1000 -> 1001. Any other algorithm, and a node
 * list, is taken to fill its whole matrix. A guess made before any run
 * starts: it sets the least keys a stolen run takes (split.ts, RunScheduler).
 */
export function expectedPassedCounts(request: ResizeRequest | LoadRequest, consistent: (algorithm: string) => boolean): number {
  if (request.kind === 'load' || request.scenario) return mergedCounts(request);
  let passed = 0;
  for (const algorithm of request.algos) {
    for (let i = 0; i + 1 < request.sizes.length; i++) {
      const from = request.sizes[i]!, to = request.sizes[i + 1]!;
      const cells = from * to <= MAX_FLOW_CELLS ? from * to : 0;
      passed += from + to + (consistent(algorithm) ? Math.min(cells, Math.min(from, to) * (Math.abs(to - from) + 1)) : cells);
    }
  }
  return passed;
}

/**
 * Workers to split a report over `keyCount` keys across: at most `limit`,
 * at least SPLIT_FROM_KEYS keys each, KEYS_PER_MERGED_COUNT keys per count
 * a run is expected to pass (`passed`, expectedPassedCounts) each beyond
 * the first, and KEYS_PER_CARRIED_COUNT_TO_SPLIT keys per count a run
 * carries (`carried`, mergedCounts) each; 1 means do not split.
 */
export function splitWorkers(keyCount: number, passed: number, carried: number, limit: number): number {
  const byKeys = Math.floor(keyCount / SPLIT_FROM_KEYS);
  const byPassed = Math.floor(keyCount / (KEYS_PER_MERGED_COUNT * Math.max(1, passed)));
  const byCarried = Math.floor(keyCount / (KEYS_PER_CARRIED_COUNT_TO_SPLIT * Math.max(1, carried)));
  return Math.max(1, Math.min(limit, byKeys, byPassed, byCarried));
}
