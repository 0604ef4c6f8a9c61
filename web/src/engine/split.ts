// How a large report is split across workers (engine/client.ts,
// ReportPool): how many workers, the parts they take in turn, each part's
// sample, and the progress of them all. Pure arithmetic on the request,
// kept apart so that it can be tested without workers.
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

/** Keys a part has at least: each costs a job, a message each way and its counts. */
export const PART_FROM_KEYS = 1 << 20;

/**
 * Keys a part has at least per count it carries (its flow matrix, filled
 * and scanned for cells): a part of 1000 keys of jumpback 1000 -> 1001
 * (1,001,000 cells) took 1.75 ms in Node, where jumpback counts a key in
 * 5-6 ns, so 4 keys a count keep that under a tenth of the part.
 */
export const KEYS_PER_PART_COUNT = 4;

/**
 * Keys a report needs per character of its key text to be cut into more
 * parts than workers: each part reads and parses the whole text again, so
 * a pasted list (a character or more a key) is cut into one part a worker,
 * while a generated set (`random:10000000:1`, `0..99999999`) is cut finer.
 */
export const KEYS_PER_TEXT_CHAR = 1024;

/**
 * The key positions [begin, end) of the parts of a report over `keyCount`
 * keys split across `workers` workers, in key order; the first worker free
 * takes the next part. The parts shrink, as in guided self-scheduling
 * (C. D. Polychronopoulos and D. J. Kuck, 1987): each is the keys left
 * over 2 x workers, and at least PART_FROM_KEYS and KEYS_PER_PART_COUNT
 * keys per count it carries (`counts`, mergedCounts). The last parts are
 * short, so a worker slowed by the rest of the machine takes fewer keys
 * and the report hardly waits for it (on this project's 2-core VM, the
 * same loop pinned to one core ran 13-68% slower than on the other at
 * times: README, Every core). A key
 * list as long as keyCount / KEYS_PER_TEXT_CHAR or more (`textChars`, a
 * pasted list) is cut into one equal part a worker.
 */
export function splitRanges(keyCount: number, counts: number, textChars: number, workers: number): [number, number][] {
  const ranges: [number, number][] = [];
  const equal = workers <= 1 || textChars * KEYS_PER_TEXT_CHAR > keyCount;
  const least = Math.max(PART_FROM_KEYS, KEYS_PER_PART_COUNT * counts);
  for (let begin = 0, index = 0; begin < keyCount; index++) {
    const left = keyCount - begin;
    let keys = equal ? Number((BigInt(keyCount) * BigInt(index + 1)) / BigInt(workers)) - begin : Math.max(least, Math.ceil(left / (2 * workers)));
    // No part shorter than half the least: this one takes the rest.
    if (!equal && left - keys < least / 2) keys = left;
    ranges.push([begin, begin + keys]);
    begin += keys;
  }
  return ranges;
}

/**
 * The moved keys part `index` of a split resize samples, per report
 * (algorithm and step), given the parts already back (`done`, by part
 * index; undefined where not back yet). The merge lists the first
 * `sampleLimit` moved keys in key order, so a part need not list more than
 * `sampleLimit` less the moved keys of the parts before it; a part not back
 * yet counts as none moved (an upper bound). undefined: `sampleLimit`
 * each (no part before this one is back).
 */
export function partSampleLimits(sampleLimit: number, index: number, done: readonly ({ steps: readonly { result: { moved: number } | null }[] } | undefined)[]): number[] | undefined {
  let limits: number[] | undefined;
  for (let before = 0; before < index; before++) {
    const part = done[before];
    if (!part) continue;
    limits ??= part.steps.map(() => sampleLimit);
    part.steps.forEach((step, k) => {
      limits![k] = Math.max(0, limits![k]! - (step.result?.moved ?? 0));
    });
  }
  return limits;
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

/** A worker's progress on its part (engine/client.ts, Progress). */
export interface PartProgress {
  done: number;
  total: number;
  phase: string;
}

/**
 * The progress of a report cut into parts, as one bar: every part's keys
 * done, out of every part's work. A part's total is its keys times the
 * reports it makes (algorithms and steps), so the first part to report
 * gives the whole report's total: keyCount times its total per key.
 */
export class PartsProgress {
  private readonly done: number[];
  private total = 0;
  constructor(
    private readonly keyCount: number,
    parts: number,
    private readonly onProgress?: (progress: PartProgress) => void,
  ) {
    this.done = new Array<number>(parts).fill(0);
  }

  /** Part `index`, over `keys` keys (at least 1), reported `progress`. */
  update(index: number, keys: number, progress: PartProgress): void {
    this.done[index] = progress.done;
    this.total ||= Math.round((progress.total / keys) * this.keyCount);
    const done = this.done.reduce((sum, value) => sum + value, 0);
    this.onProgress?.({ done, total: Math.max(this.total, done), phase: progress.phase });
  }
}
