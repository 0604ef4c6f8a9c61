// The worker's side of a split report (splitJob.ts) on the real module:
// two runs that count the same keys from either end and meet, then merged
// into either run (MergeResizeRequest's `into`: the one counted up from the
// first key, or the one counted down from the last) or by a merging job,
// give one reply, the same as one run over every key: counts, loads, flows
// and the moved-key list, cut at the limit on either side of the meeting
// point.

import { loadJumphash, type Jumphash } from 'jumphash-wasm';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { LoadReply, LoadRequest, ResizePartReply, ResizeReply, ResizeRequest } from './protocol';
import { splitRequest, warmUp } from './splitJob';

// A grant posts its progress to the page (workerJobs.ts, post): nowhere here.
vi.stubGlobal('self', { postMessage: () => {} });

let jh: Jumphash;
beforeAll(async () => {
  jh = await loadJumphash();
});

/** Run ids, unique in the module as in the page. */
let lastRun = 0;

/** A request to the worker's side of a split report. */
type SplitRequest = Parameters<typeof splitRequest>[2];

async function ask<T>(request: SplitRequest): Promise<T> {
  return (await splitRequest(jh, 0, request)).reply as T;
}

/** Run `run`'s counts (SplitCollectRequest), which ends it. */
function collect(run: number): Promise<ResizePartReply | LoadReply> {
  return ask({ kind: 'splitCollect', run });
}

/** `parts` (in key order) merged by a merging job, or absorbed by run `into`. */
function merge(report: ResizeRequest | LoadRequest, parts: (ResizePartReply | LoadReply)[], into?: number): Promise<ResizeReply | LoadReply> {
  const kind = report.kind === 'resize' ? 'mergeResize' : 'mergeLoad';
  return ask({ kind, request: report, parts, ...(into === undefined ? {} : { into }) } as SplitRequest);
}

/** Starts a run of `report` over every key, up from the first or (`fromEnd`) down from the last, and counts it to `to`. */
async function runTo(report: ResizeRequest | LoadRequest, keyCount: number, to: number, fromEnd: boolean): Promise<number> {
  const run = ++lastRun;
  await ask({ kind: 'splitRun', run, start: { report, begin: 0, end: keyCount, ...(fromEnd ? { fromEnd } : {}) }, to });
  return run;
}

/**
 * `report` over its `keyCount` keys as a pair that meets at `met`, merged
 * `into` the run counted up, the one counted down, or neither (a merging
 * job over both runs' counts).
 */
async function pairReply(report: ResizeRequest | LoadRequest, keyCount: number, met: number, into: 'up' | 'down' | 'neither'): Promise<ResizeReply | LoadReply> {
  const up = await runTo(report, keyCount, met, false);
  const down = await runTo(report, keyCount, met, true);
  if (into === 'up') return merge(report, [await collect(down)], up);
  if (into === 'down') return merge(report, [await collect(up)], down);
  return merge(report, [await collect(up), await collect(down)]);
}

/** `report` from one run over every key, collected and merged alone. */
async function wholeReply(report: ResizeRequest | LoadRequest, keyCount: number): Promise<ResizeReply | LoadReply> {
  return merge(report, [await collect(await runTo(report, keyCount, keyCount, false))]);
}

/** A reply's moved-key lists as plain arrays (a split reply keeps each run's columns apart). */
function plain(reply: ResizeReply | LoadReply): unknown {
  if (!('steps' in reply)) return reply;
  return reply.steps.map(({ result, ...outcome }) => {
    if (!result) return outcome;
    const { sample, ...counts } = result;
    const keys = sample.parts.flatMap((part) => [...part.values].map((value, i) => [value, part.oldBuckets[i], part.newBuckets[i]]));
    return { ...outcome, counts, keys, labels: sample.parts.flatMap((part) => part.labels.map(([, text]) => text)) };
  });
}

describe('a pair of runs that meet, merged', () => {
  const keys = '"alpha" "beta" random:300000:5 "gamma" 7..20000 "omega"';

  test.each([
    ['jumpback', 100, 101, 700],
    ['jumpback', 100, 101, 20_000],
    ['jump', 10, 12, 3000],
  ])('%s %i -> %i, a list of at most %i keys: the same reply merged into either run or by a merging job', async (algo, from, to, sampleLimit) => {
    const report: ResizeRequest = { kind: 'resize', algos: [algo, 'modulo'], keys, sizes: [from, to], sampleLimit };
    const keyCount = jh.keyCount(keys);
    const whole = plain(await wholeReply(report, keyCount));
    for (const met of [1, Math.floor(keyCount * 0.37), keyCount - 1]) {
      for (const into of ['up', 'down', 'neither'] as const) {
        expect(plain(await pairReply(report, keyCount, met, into)), `met at ${met} of ${keyCount}, into ${into}`).toEqual(whole);
      }
    }
  });

  test('a load: the same reply merged into either run or by a merging job', async () => {
    const report: LoadRequest = { kind: 'load', algos: ['jump', 'jumpback'], keys, n: 37 };
    const keyCount = jh.keyCount(keys);
    const whole = await wholeReply(report, keyCount);
    for (const into of ['up', 'down', 'neither'] as const) {
      expect(await pairReply(report, keyCount, Math.floor(keyCount / 3), into), `into ${into}`).toEqual(whole);
    }
  });

  test('three runs merged into the middle one, which absorbs a run on each side: the same reply', async () => {
    const report: ResizeRequest = { kind: 'resize', algos: ['jumpback', 'jump'], keys, sizes: [100, 101], sampleLimit: 20_000 };
    const keyCount = jh.keyCount(keys);
    const whole = plain(await wholeReply(report, keyCount));
    const cuts = [0, Math.floor(keyCount / 4), Math.floor((keyCount * 2) / 3), keyCount];
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const run = ++lastRun;
      // The middle run counts down from its end, as a stolen run does.
      const fromEnd = i === 1;
      await ask({ kind: 'splitRun', run, start: { report, begin: cuts[i]!, end: cuts[i + 1]!, ...(fromEnd ? { fromEnd } : {}) }, to: fromEnd ? cuts[i]! : cuts[i + 1]! });
      runs.push(run);
    }
    const parts = [await collect(runs[0]!), await collect(runs[2]!)];
    expect(plain(await merge(report, parts, runs[1]!))).toEqual(whole);
  });

  test('a merge into a run with a part that is not beside its keys is refused, with the keys of both', async () => {
    const report: LoadRequest = { kind: 'load', algos: ['jump'], keys, n: 37 };
    const keyCount = jh.keyCount(keys);
    const cuts = [0, 1000, 2000, keyCount];
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const run = ++lastRun;
      await ask({ kind: 'splitRun', run, start: { report, begin: cuts[i]!, end: cuts[i + 1]! }, to: cuts[i + 1]! });
      runs.push(run);
    }
    await collect(runs[1]!);
    await expect(merge(report, [await collect(runs[2]!)], runs[0]!)).rejects.toThrow('absorb: the part covers keys [2000, ' + keyCount + ') but this job\'s keys, with the parts it absorbed, are [0, 1000)');
  });
});

describe('a run that takes its lists out once final (RunStart.sampleEarly)', () => {
  test('the list full within the first grant is taken at the next, the collect copies only the counts, and the reply is the same', async () => {
    const keys = '"alpha" random:100000:9 "omega"';
    const report: ResizeRequest = { kind: 'resize', algos: ['jump', 'jumpback'], keys, sizes: [10, 12], sampleLimit: 3000 };
    const keyCount = jh.keyCount(keys);
    const whole = plain(await wholeReply(report, keyCount));
    // Which partResult each job was asked for: its whole part, or its counts only.
    const asked: string[] = [];
    // The module's object is frozen: the worker's side gets one that watches its jobs.
    const watched: Jumphash = Object.create(jh);
    Object.defineProperty(watched, 'startResize', {
      value: (...args: Parameters<Jumphash['startResize']>) => {
        const job = jh.startResize(...args);
        const partResult = job.partResult.bind(job) as (options?: { sample?: boolean }) => unknown;
        job.partResult = ((options?: { sample?: boolean }) => {
          asked.push(`${args[0]} ${options?.sample === false ? 'counts' : 'whole'}`);
          return partResult(options);
        }) as typeof job.partResult;
        return job;
      },
    });
    const askWatched = async <T>(request: SplitRequest): Promise<T> => (await splitRequest(watched, 0, request)).reply as T;
    const met = Math.floor(keyCount * 0.6);
    const [up, down] = [++lastRun, ++lastRun];
    const start = { report, begin: 0, end: keyCount, sampleEarly: true };
    // About one key in six moves: 3,000 within the first 20,000.
    await askWatched({ kind: 'splitRun', run: up, start, to: 20_000 });
    expect(asked).toEqual([]);
    await askWatched({ kind: 'splitRun', run: up, to: 40_000 });
    expect(asked).toEqual(['jump whole', 'jumpback whole']);
    await askWatched({ kind: 'splitRun', run: up, to: met });
    // Counted down, a list is final only at the run's end: taken when collected.
    await askWatched({ kind: 'splitRun', run: down, start: { ...start, fromEnd: true }, to: keyCount - 20_000 });
    await askWatched({ kind: 'splitRun', run: down, to: met });
    const parts = [await askWatched<ResizePartReply>({ kind: 'splitCollect', run: up }), await askWatched<ResizePartReply>({ kind: 'splitCollect', run: down })];
    expect(asked).toEqual(['jump whole', 'jumpback whole', 'jump counts', 'jumpback counts', 'jump whole', 'jumpback whole']);
    expect(plain(await merge(report, parts))).toEqual(whole);
  });
});

describe('warmUp', () => {
  test('runs the split code once and leaves no run behind; a split report after it is the same', async () => {
    const report: ResizeRequest = { kind: 'resize', algos: ['jumpback'], keys: 'random:200000:3', sizes: [1000, 1001], sampleLimit: 500 };
    const keyCount = jh.keyCount(report.keys as string);
    const before = plain(await pairReply(report, keyCount, 70_000, 'up'));
    await warmUp(jh, 0);
    // Its runs (ids -1 and -2, apart from the page's) are collected and merged.
    await expect(collect(-1)).rejects.toThrow('splitCollect: no run -1 in this worker');
    await expect(collect(-2)).rejects.toThrow('splitCollect: no run -2 in this worker');
    expect(plain(await pairReply(report, keyCount, 70_000, 'up'))).toEqual(before);
    expect(before).toEqual(plain(await wholeReply(report, keyCount)));
  });
});
