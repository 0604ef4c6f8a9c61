// Whether a large report is split across workers, and across how many
// (engine/client.ts, ReportPool): the counts its parts would carry to the
// merge against the keys each worker would save. Pure arithmetic on the
// request; how the parts are cut and run is engine/split.ts and
// engine/splitReport.ts, fetched with the first report that splits.
import type { LoadRequest, ResizeRequest } from './protocol';

/** Keys per worker below which a report is not split (one worker answers sooner than several starting). */
export const SPLIT_FROM_KEYS = 1 << 20;

/**
 * Keys a report needs per count the merge carries to split at all. Each
 * worker beyond the first saves its share of the counting, about 45 ns a
 * key in WebAssembly, and costs a copy of every count it reports (its
 * result, the merge's absorb and result: about 120 ns a count). Measured
 * with the page benchmark (e2e/bench/reports.bench.ts) on 2 cores:
 * jumpback 1000 -> 1001 (1,001,000 flow cells) over 10^7 keys took 454 ms
 * on one worker and 542 ms on two; over 10^8 keys, 1301 and 1090 ms.
 * A resize's parts now pass only their non-zero flow cells (the package's
 * ResizePart), yet each part still fills and scans a matrix of its own and
 * the merge makes one: counting only the cells passed (2,000 for
 * 1000 -> 1001) split random:10000000:1 across two workers, and that took
 * 143 ms from the report's start against 107 on one. So a matrix still
 * counts in full.
 */
export const KEYS_PER_MERGED_COUNT = 16;

/** The core's flow-cells limit (jumphash --help, limits()): larger resizes keep no flow matrix. */
export const MAX_FLOW_CELLS = 2 ** 22;

/**
 * The counts one part of `request` carries to the merge: for a resize, each
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
 * Workers to split a report over `keyCount` keys across: at most `limit`,
 * at least SPLIT_FROM_KEYS keys each, and KEYS_PER_MERGED_COUNT keys per
 * merged count each beyond the first; 1 means do not split.
 */
export function splitWorkers(keyCount: number, counts: number, limit: number): number {
  const byKeys = Math.floor(keyCount / SPLIT_FROM_KEYS);
  const byCounts = Math.floor(keyCount / (KEYS_PER_MERGED_COUNT * Math.max(1, counts)));
  return Math.max(1, Math.min(limit, byKeys, byCounts));
}

