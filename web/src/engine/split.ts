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
 * Keys a part has at least per count it passes to the merge (a resize's
 * loads and flow cells, a load's loads): each is read out of the part's
 * module, moved to the page and on to the merging worker, and absorbed
 * there: in Node, warm, a part of 262,144 keys of modulo 1000 -> 1001 that
 * passed as many cells took 0.9-1.2 ms in partResult() and 4.1-5.8 ms in
 * the merge's absorb (a part of 4 x 10^6 keys, passing the whole matrix:
 * 2.5 and 10.7 ms), against 6-30 ns for a key's two lookups and counts.
 * Until a part is back, a part may pass every count it carries
 * (mergedCounts): modulo fills most of its matrix, jumpback 1000 -> 1001
 * about 2,000 of its 1,001,000 cells.
 */
export const KEYS_PER_PASSED_COUNT = 4;

/**
 * Keys a part has at least per count it carries, passed or not: its flow
 * matrix's marks (a bit a cell) are made zero for every part and read for
 * its cells. Its counts are no longer zeroed (FlowMatrix in the core): in
 * Node, a part's start went from 0.16-0.2 ms to 0.015-0.04 then. What
 * follows was measured while they were: for jumpback 1000 -> 1001
 * (1,001,000 cells) in a page's worker, a part's start took 0.3-1.0 ms and its
 * partResult() 0.2-1.3, against 2.5-2.9 ms for 2^18 keys; with a key a
 * count (parts of 10^6 keys, 10-15 ms), the worker done first waited up to
 * 18 ms for the other at the end of a report over `random:10000000:1`. A
 * quarter lets that report end in parts of PART_FROM_KEYS: taking turns
 * for 12 rounds on 2 workers, it took best 59 / median 80 ms from its
 * start to its reply, against 65 / 82 with a key a count (10^8 keys: 369
 * / 439 against 378 / 451).
 */
export const KEYS_PER_CARRIED_COUNT = 0.25;

/**
 * Keys a report needs per character of its key text to be cut into more
 * parts than workers: each part reads and parses the whole text again, so
 * a pasted list (a character or more a key) is cut into one part a worker,
 * while a generated set (`random:10000000:1`, `0..99999999`) is cut finer.
 */
export const KEYS_PER_TEXT_CHAR = 1024;

/**
 * The parts of a report over `keyCount` keys split across `workers`
 * workers, cut one at a time in key order as the workers take them (next).
 * The parts shrink, as in guided self-scheduling (C. D. Polychronopoulos and
 * D. J. Kuck, 1987): each is the keys left over 2 x workers, and at least
 * PART_FROM_KEYS keys, KEYS_PER_CARRIED_COUNT keys per count the part
 * carries (`counts`, mergedCounts) and KEYS_PER_PASSED_COUNT per count it
 * passes. Until a part is back (passed), a part is taken to pass what
 * the request leads to expect (`expectedPassed`); then, the most counts a
 * part passed so far: a report
 * that fills few of its flow cells (jumpback 1000 -> 1001) ends in parts
 * of PART_FROM_KEYS instead of 4 x 10^6, while a dense one (modulo) keeps
 * its large parts. The last parts are short, so a worker slowed by the rest of
 * the machine takes fewer keys and the report hardly waits for it (on this
 * project's 2-core VM, the same loop pinned to one core ran 13-68% slower
 * than on the other at times: README, Every core). A key list as long as
 * keyCount / KEYS_PER_TEXT_CHAR or more (`textChars`, a pasted list) is cut
 * into one equal part a worker.
 */
export class PartCutter {
  /** The parts cut so far: key positions [begin, end), in key order. */
  readonly ranges: [number, number][] = [];
  private readonly equal: boolean;
  /** The counts a part is taken to pass: the expectation until a part is back, then the most any part passed. */
  private passing: number;
  /** Whether a part is back yet (passed). */
  private heard = false;

  /**
   * `expectedPassed`: the counts a part is taken to pass until one is back
   * (splitWorkers.ts, expectedPassedCounts); by default every count it
   * carries.
   */
  constructor(
    private readonly keyCount: number,
    private readonly counts: number,
    textChars: number,
    private readonly workers: number,
    expectedPassed = counts,
  ) {
    this.equal = workers <= 1 || textChars * KEYS_PER_TEXT_CHAR > keyCount;
    this.passing = expectedPassed;
  }

  /** Keys a part has at least, by the counts it carries and is taken to pass. */
  private get least(): number {
    return Math.max(PART_FROM_KEYS, KEYS_PER_PASSED_COUNT * this.passing, KEYS_PER_CARRIED_COUNT * this.counts);
  }

  /** The next part, or undefined once every key is in one. */
  next(): [number, number] | undefined {
    const range = this.peek();
    if (range) this.ranges.push(range);
    return range;
  }

  /** Whether the next part (next()) is the last: it takes every key left. */
  nextIsLast(): boolean {
    return this.peek()?.[1] === this.keyCount;
  }

  /** The part next() would cut, without cutting it. */
  private peek(): [number, number] | undefined {
    const begin = this.ranges.at(-1)?.[1] ?? 0;
    if (begin >= this.keyCount) return undefined;
    const index = this.ranges.length;
    const left = this.keyCount - begin;
    const least = this.least;
    let keys = this.equal
      ? Number((BigInt(this.keyCount) * BigInt(index + 1)) / BigInt(this.workers)) - begin
      : Math.max(least, Math.ceil(left / (2 * this.workers)));
    // No part shorter than half the least: this one takes the rest.
    if (!this.equal && left - keys < least / 2) keys = left;
    return [begin, begin + keys];
  }

  /** A part is back, having passed `counts` counts to the merge (passedCounts): the parts cut from now on are sized by the most any part passed. */
  passed(counts: number): void {
    this.passing = this.heard ? Math.max(this.passing, counts) : counts;
    this.heard = true;
  }
}

/**
 * Every part of a report as PartCutter cuts them before any part is back
 * (each part taken to pass every count it carries).
 */
export function splitRanges(keyCount: number, counts: number, textChars: number, workers: number): [number, number][] {
  const cutter = new PartCutter(keyCount, counts, textChars, workers);
  while (cutter.next());
  return cutter.ranges;
}

/**
 * The counts a part's reply passes to the merge: per report, its loads
 * and its flow cells (the whole matrix when it passes the matrix).
 */
export function passedCounts(reply: { steps: readonly { result: PassedResize | null }[] } | { items: readonly { result: { loads: ArrayLike<number> } | null }[] }): number {
  let counts = 0;
  if ('steps' in reply) {
    for (const { result } of reply.steps) {
      if (!result) continue;
      counts += result.loadsBefore.length + result.loadsAfter.length + (result.flowCells ? (result.flowCells.index ?? result.flowCells.count).length : 0);
    }
  } else {
    for (const { result } of reply.items) counts += result?.loads.length ?? 0;
  }
  return counts;
}

/** What passedCounts reads of a resize part (the package's ResizePart). */
interface PassedResize {
  loadsBefore: ArrayLike<number>;
  loadsAfter: ArrayLike<number>;
  flowCells: { index: ArrayLike<number> | null; count: ArrayLike<unknown> } | null;
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
  /** Keys done, by part index (parts not heard from yet: none). */
  private readonly done: number[] = [];
  private total = 0;
  constructor(
    private readonly keyCount: number,
    private readonly onProgress?: (progress: PartProgress) => void,
  ) {}

  /** Part `index`, over `keys` keys (at least 1), reported `progress`. */
  update(index: number, keys: number, progress: PartProgress): void {
    this.done[index] = progress.done;
    this.total ||= Math.round((progress.total / keys) * this.keyCount);
    let done = 0;
    for (const keys of this.done) done += keys ?? 0;
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
