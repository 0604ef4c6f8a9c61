// How a report split across workers is cut and joined (run by
// engine/splitReport.ts): the parts the workers take in turn, each part's
// sample (and which parts skip theirs), and the progress of them all. Pure
// arithmetic, kept apart so that it can be tested without workers; whether
// to split at all is engine/splitWorkers.ts.

import type { MovedKeyColumns } from 'jumphash-wasm';
import type { MovedSample, ResizeRequest } from './protocol';

/**
 * Keys a part has at least: each costs a job, a message each way and its
 * counts (a worker waited 0.2-0.7 ms for its next part in a Chromium
 * trace). The last parts are this short, so the worker that finishes
 * first waits at most about one of them for the other: 2^20 keys of jump
 * 10 -> 12 are about 30 ms in a page's worker, 2^18 about 8.
 */
export const PART_FROM_KEYS = 1 << 18;

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
 * How sure a part must be that the merge will list none of its moved keys
 * to skip its sample: the parts before it that are still running must be
 * expected to move this many times the keys left to list. In Chromium
 * traces, a part of 1,875,000 keys of jump 10 -> 12 counted in 64 ms
 * without a sample and in about 75 with 200,000 sampled keys, which then
 * took 12.5 ms more to copy out of the module.
 */
export const SKIP_SAMPLE_MARGIN = 1.25;

/**
 * The least share of its keys each report of `request` moves (algorithm-
 * major, as the worker runs them): |to - from| / max(from, to), the core's
 * minimumMovedExpected over the keys, which a consistent algorithm meets
 * and modulo exceeds. 0 for a node list's steps: not estimated, so their
 * parts never skip a sample.
 */
export function leastMovedShares(request: ResizeRequest): number[] {
  const steps = request.scenario ? request.scenario.steps.split(/[\s,]+/).filter(Boolean).length : request.sizes.length - 1;
  const shares: number[] = [];
  for (let a = 0; a < request.algos.length; a++) {
    for (let i = 0; i < steps; i++) {
      const from = request.sizes[i] ?? 0, to = request.sizes[i + 1] ?? 0;
      shares.push(request.scenario || Math.max(from, to) === 0 ? 0 : Math.abs(to - from) / Math.max(from, to));
    }
  }
  return shares;
}

/**
 * Per report, whether a part skips its sample (samples none: limit 0): the
 * parts before it that are not back yet hold `pendingKeys` keys, and at
 * the least share they move (`shares`, leastMovedShares) that is at least
 * SKIP_SAMPLE_MARGIN times the keys left to list (`limits`, from
 * partSampleLimits, else `sampleLimit`), so the merge almost surely lists
 * none of this part's. If it does after all, the part is run again for
 * them (samplesToRetake).
 */
export function skippedSamples(sampleLimit: number, limits: readonly number[] | undefined, pendingKeys: number, shares: readonly number[]): boolean[] {
  return shares.map((share, k) => {
    const left = limits?.[k] ?? sampleLimit;
    return left > 0 && pendingKeys * share >= SKIP_SAMPLE_MARGIN * left;
  });
}

/**
 * The parts to run again for the moved keys they skipped (`skipped`, by
 * part index, per report) that the merge lists after all, because the
 * parts before them moved fewer keys than expected: each such part with
 * its sample limits, per report what the parts before it left to list
 * (0 where it skipped nothing or nothing is left).
 */
export function samplesToRetake(sampleLimit: number, parts: readonly { steps: readonly { result: { moved: number } | null }[] }[], skipped: readonly (readonly boolean[] | undefined)[]): { index: number; limits: number[] }[] {
  const movedBefore: number[] = [];
  const retakes: { index: number; limits: number[] }[] = [];
  parts.forEach((part, index) => {
    const limits = part.steps.map((step, k) => {
      const left = Math.max(0, sampleLimit - (movedBefore[k] ?? 0));
      return skipped[index]?.[k] && (step.result?.moved ?? 0) > 0 ? left : 0;
    });
    if (limits.some((limit) => limit > 0)) retakes.push({ index, limits });
    part.steps.forEach((step, k) => {
      movedBefore[k] = (movedBefore[k] ?? 0) + (step.result?.moved ?? 0);
    });
  });
  return retakes;
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

/**
 * The first `limit` moved keys of a split resize: the parts' samples (each
 * in key order, the parts in key order) one after another, as a MovedSample
 * of their own columns, not copied. The part that reaches the limit is cut
 * (subarrays of its columns), the parts after it are left out, and a part
 * that moved none of its keys lists none (the parts after it still may).
 */
export function firstMoved(samples: readonly MovedKeyColumns[], limit: number): MovedSample {
  const parts: MovedKeyColumns[] = [];
  let left = limit;
  for (const sample of samples) {
    if (left === 0) break;
    const take = Math.min(sample.values.length, left);
    if (take === 0) continue;
    parts.push(
      take === sample.values.length
        ? sample
        : {
            values: sample.values.subarray(0, take),
            oldBuckets: sample.oldBuckets.subarray(0, take),
            newBuckets: sample.newBuckets.subarray(0, take),
            labels: sample.labels.filter(([index]) => index < take),
          },
    );
    left -= take;
  }
  return { parts };
}
