// How a report split across workers is cut and joined (run by
// engine/splitReport.ts): each worker's runs and the grants it counts in
// turn, each run's sample (and which runs skip theirs), and the progress of
// them all. Pure arithmetic, kept apart so that it can be tested without
// workers; whether to split at all is engine/splitWorkers.ts.

import type { MovedKeyColumns } from 'jumphash-wasm';
import type { MovedSample, ResizeRequest } from './protocol';

/**
 * Keys a grant has at least: each is a message each way and a step of its
 * run's jobs (no job starts and no counts are copied: those are the run's,
 * once). The last grants are this short, so the worker that finishes first
 * waits at most about two of them (GRANTS_IN_FLIGHT) for the other: 2^18
 * keys of jumpback 1000 -> 1001 are about 3 ms in a page's worker.
 */
export const GRANT_FROM_KEYS = 1 << 18;

/**
 * A grant is the keys not granted yet of every run over GRANT_SHARE x
 * workers (at least GRANT_FROM_KEYS, at most what its run has left), as
 * in factoring (S. F. Hummel, E. Schonberg and L. E. Flynn, 1992): the
 * grants shrink as the report goes, so that a slow worker has little
 * granted and not done at its end. In a simulation of the grants (split.test.ts)
 * with one worker 3x slower than the other over 10^8 keys, the report
 * ended 1.07x the time an ideal split would take with 4 (40 grants) and
 * 1.29x with 2 (22); the same share of the run's own keys left took 1.23x
 * with 4 and 1.07x with 8 (96 grants).
 */
export const GRANT_SHARE = 4;

/**
 * Keys a run has at least per count it passes to the merge (a resize's
 * loads and flow cells, a load's loads): each is read out of the run's
 * module, moved to the page and on to the merging worker, and absorbed
 * there: in Node, warm, a part of 262,144 keys of modulo 1000 -> 1001 that
 * passed as many cells took 0.9-1.2 ms in partResult() and 4.1-5.8 ms in
 * the merge's absorb (a part of 4 x 10^6 keys, passing the whole matrix:
 * 2.5 and 10.7 ms), against 6-30 ns for a key's two lookups and counts.
 * A run passes what the request leads to expect (splitWorkers.ts,
 * expectedPassedCounts): modulo fills most of its matrix, jumpback
 * 1000 -> 1001 about 2,000 of its 1,001,000 cells. Only a steal starts a
 * run beyond each worker's first (RunScheduler).
 */
export const KEYS_PER_PASSED_COUNT = 4;

/**
 * Keys a run has at least per count it carries, passed or not: its flow
 * matrix's marks (a bit a cell) are made zero when it starts and read when
 * it is collected (FlowMatrix in the core).
 */
export const KEYS_PER_CARRIED_COUNT = 0.25;

/**
 * Keys a report needs per character of its key text for a worker to steal
 * keys from another: a stolen run reads and parses the whole text again,
 * so a pasted list (a character or more a key) is one run a worker, while
 * a generated set (`random:10000000:1`, `0..99999999`) may be stolen from.
 */
export const KEYS_PER_TEXT_CHAR = 1024;

/**
 * A worker's run of a split report: its jobs (one per report the request
 * makes) over key positions, counted a grant at a time, which hold their
 * counts until the run is collected. A run's keys are contiguous, so each
 * run passes its counts to the merge once, however many grants it
 * counted. Two runs may share keys as a pair (`partner`): one counts up
 * from the front, the other down from the back (`fromEnd`, the package's
 * fromEnd), and they meet wherever each has got to, so that neither waits
 * for the other.
 */
export interface Run {
  /** Unique in the page: the worker keeps the run's jobs under it. */
  readonly id: number;
  /** Index of the worker (lane) that runs it. */
  readonly lane: number;
  /** Start of the run's keys. Counted from its end with a partner: where the partner has granted up to. */
  begin: number;
  /** End of the run's keys. Counted up with a partner: where the partner has granted down to. */
  end: number;
  /** Keys [begin, granted) are granted so far (posted to the worker); counted from the end, [granted, end). */
  granted: number;
  /** Counted from its end down, toward its partner. */
  readonly fromEnd?: boolean;
  /** The run counting the same keys from the other side, while they have keys between them. */
  partner?: Run;
}

/** Keys of `run` not granted yet: between it and its partner, if it has one. */
function keysLeft(run: Run): number {
  return run.fromEnd ? run.granted - run.begin : run.end - run.granted;
}

/** Keys of `run` granted so far: [begin, granted), or counted from its end, [granted, end). Once the report is done, the keys its worker counted. */
export function keysGranted(run: Run): number {
  return run.fromEnd ? run.end - run.granted : run.granted - run.begin;
}

/** Whether `run` was granted any key: its first grant starts its jobs (a run its partner left no key has none to collect). */
export function hasGrants(run: Run): boolean {
  return keysGranted(run) !== 0;
}

/** Keys [from, to) of `run` for its worker to count; `first`: the run's first grant, which starts its jobs. */
export interface Grant {
  run: Run;
  from: number;
  to: number;
  first: boolean;
}

/**
 * The runs of a report over `keyCount` keys split across `workers`
 * workers, and the grants each worker counts in turn. The workers are
 * paired, each pair sharing two equal shares of the keys, the pairs in key
 * order: the first of a pair counts up from the front of the keys, the
 * second down from the back, each granted its keys a grant at a time,
 * shrinking as the keys not granted do (GRANT_SHARE), until the two meet,
 * wherever that is: a worker slowed by the rest of the machine counts
 * fewer keys (on this project's 2-core VM, the same loop pinned to one
 * core ran 13-68% slower than on the other at times, and a worker may
 * start its first grant a few ms after the other: docs/every-core.md).
 * With an odd number of workers the last counts its share alone. A worker
 * with no keys left steals, when the keys not granted of the run that has
 * the most are at least 2 x `runLeast` (a new run costs a job start and a
 * result): from a run counted alone, it counts those keys down from their
 * end as that run's partner; from a pair, it takes the back two thirds of
 * the keys between them, counting up as the second's new partner, and the
 * first counts the front third alone. `steals` false (a pasted list, which
 * each new run reads and parses again: KEYS_PER_TEXT_CHAR): one run a
 * worker.
 */
export class RunScheduler {
  /** Every run so far, in the order started. */
  readonly runs: Run[] = [];
  /** Each worker's run now. */
  private readonly current: Run[] = [];

  constructor(
    keyCount: number,
    workers: number,
    private readonly runLeast: number,
    private readonly steals: boolean,
    private readonly newId: () => number,
  ) {
    const share = (lane: number) => Number((BigInt(keyCount) * BigInt(lane)) / BigInt(workers));
    for (let lane = 0; lane < workers; lane += 2) {
      const begin = share(lane);
      if (lane + 1 === workers) {
        this.add({ id: newId(), lane, begin, end: share(lane + 1), granted: begin });
        continue;
      }
      const end = share(lane + 2);
      const up: Run = { id: newId(), lane, begin, end, granted: begin };
      const down: Run = { id: newId(), lane: lane + 1, begin, end, granted: end, fromEnd: true };
      up.partner = down;
      down.partner = up;
      this.add(up);
      this.add(down);
    }
  }

  private add(run: Run): void {
    this.runs.push(run);
    this.current[run.lane] = run;
  }

  /** Whether every key is granted: no worker is granted any more. */
  allGranted(): boolean {
    return this.current.every((run) => keysLeft(run) === 0);
  }

  /** Worker `lane`'s next grant (stealing when its run has no keys left), or undefined: nothing is left for it. */
  next(lane: number): Grant | undefined {
    let run = this.current[lane]!;
    if (keysLeft(run) === 0) {
      const stolen = this.steal(lane);
      if (!stolen) return undefined;
      run = stolen;
    }
    const first = !hasGrants(run);
    const left = keysLeft(run);
    // A pair's keys between them count once.
    let ungranted = 0;
    for (const each of this.current) if (!(each.fromEnd && each.partner)) ungranted += keysLeft(each);
    let keys = Math.min(left, Math.max(GRANT_FROM_KEYS, Math.ceil(ungranted / (GRANT_SHARE * this.current.length))));
    // No grant shorter than half the least: this one takes the rest.
    if (left - keys < GRANT_FROM_KEYS / 2) keys = left;
    if (run.fromEnd) {
      run.granted -= keys;
      if (run.partner) run.partner.end = run.granted;
      return { run, from: run.granted, to: run.granted + keys, first };
    }
    run.granted += keys;
    if (run.partner) run.partner.begin = run.granted;
    return { run, from: run.granted - keys, to: run.granted, first };
  }

  /** A new run for `lane`, from the keys not granted of the run that has the most, if that is worth a run (see the class). */
  private steal(lane: number): Run | undefined {
    if (!this.steals) return undefined;
    let victim: Run | undefined;
    for (const run of this.current) if (!victim || keysLeft(run) > keysLeft(victim)) victim = run;
    const left = victim ? keysLeft(victim) : 0;
    if (!victim || left < 2 * this.runLeast) return undefined;
    const partner = victim.partner;
    if (!partner) {
      // Counted alone (up): its keys left are counted down from their end too.
      const down: Run = { id: this.newId(), lane, begin: victim.granted, end: victim.end, granted: victim.end, fromEnd: true, partner: victim };
      victim.partner = down;
      this.add(down);
      return down;
    }
    const [up, down] = victim.fromEnd ? [partner, victim] : [victim, partner];
    const third = up.granted + Math.floor(left / 3);
    const stealer: Run = { id: this.newId(), lane, begin: third, end: down.granted, granted: third, partner: down };
    up.end = third;
    up.partner = undefined;
    down.partner = stealer;
    down.begin = third;
    this.add(stealer);
    return stealer;
  }

  /** Where a run's keys are expected to begin once it meets its partner (halfway between them, for a run counted from its end), for deciding whether it samples (skippedSamples). */
  expectedBegin(run: Run): number {
    if (!run.fromEnd || !run.partner) return run.begin;
    return run.partner.granted + Math.floor((run.granted - run.partner.granted) / 2);
  }
}

/**
 * How sure a run must be that the merge will list none of its moved keys
 * to skip its sample: the keys before it must be expected to move this
 * many times the keys the list holds. In Chromium traces, a part of
 * 1,875,000 keys of jump 10 -> 12 counted in 64 ms without a sample and in
 * about 75 with 200,000 sampled keys, which then took 12.5 ms more to copy
 * out of the module.
 */
export const SKIP_SAMPLE_MARGIN = 1.25;

/**
 * The least share of its keys each report of `request` moves (algorithm-
 * major, as the worker runs them): |to - from| / max(from, to), the core's
 * minimumMovedExpected over the keys, which a consistent algorithm meets
 * and modulo exceeds. 0 for a node list's steps: not estimated, so their
 * runs never skip a sample.
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
 * Per report, whether a run skips its sample (samples none: limit 0): the
 * `keysBefore` keys before it, at the least share they move (`shares`,
 * leastMovedShares), move at least SKIP_SAMPLE_MARGIN times the
 * `sampleLimit` keys the list holds, so the merge almost surely lists none
 * of this run's. If it does after all, the run is run again for them
 * (samplesToRetake).
 */
export function skippedSamples(sampleLimit: number, keysBefore: number, shares: readonly number[]): boolean[] {
  return shares.map((share) => sampleLimit > 0 && keysBefore * share >= SKIP_SAMPLE_MARGIN * sampleLimit);
}

/**
 * The runs to run again for the moved keys they skipped (`skipped`, by
 * index in key order, per report) that the merge lists after all, because
 * the runs before them moved fewer keys than expected: each such run with
 * its sample limits, per report what the runs before it left to list (0
 * where it skipped nothing or nothing is left).
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

/** A worker's progress on a grant (engine/client.ts, Progress). */
export interface PartProgress {
  done: number;
  total: number;
  phase: string;
}

/**
 * The progress of a report counted in grants, as one bar: every grant's
 * keys done, out of all the work. A grant's total is its keys times the
 * reports it makes (algorithms and steps), so the first grant to report
 * gives the whole report's total: keyCount times its total per key.
 */
export class GrantsProgress {
  /** Keys done, by grant index (grants not heard from yet: none). */
  private readonly done: number[] = [];
  private total = 0;
  constructor(
    private readonly keyCount: number,
    private readonly onProgress?: (progress: PartProgress) => void,
  ) {}

  /** Grant `index`, over `keys` keys (at least 1), reported `progress`. */
  update(index: number, keys: number, progress: PartProgress): void {
    this.done[index] = progress.done;
    this.total ||= Math.round((progress.total / keys) * this.keyCount);
    let done = 0;
    for (const keys of this.done) done += keys ?? 0;
    this.onProgress?.({ done, total: Math.max(this.total, done), phase: progress.phase });
  }
}

/**
 * The first `limit` moved keys of a split resize: the runs' samples (each
 * in key order, the runs in key order) one after another, as a MovedSample
 * of their own columns, not copied. The run that reaches the limit is cut
 * (subarrays of its columns), the runs after it are left out, and a run
 * that moved none of its keys lists none (the runs after it still may).
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
