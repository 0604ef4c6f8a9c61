import { describe, expect, test } from 'vitest';
import { COUNTED_TEXTS, COUNTED_TEXT_CHARS, EngineError, type Lane, ReportPool } from './client';
import { FakeLane } from './fakeLane';
import type { ResizeRequest } from './protocol';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const resize = (keys: string): ResizeRequest => ({ kind: 'resize', algos: ['jump'], keys, sizes: [10, 12], sampleLimit: 100 });
/** A pool of up to 2 workers whose first lane is `lane`. */
const poolOf = (lane: FakeLane, workers = 2) => new ReportPool(lane as unknown as Lane, () => workers);

describe('ReportPool key counts', () => {
  test('a text counted ahead is asked once; its report then starts at once, without asking again', async () => {
    const lane = new FakeLane();
    const pool = poolOf(lane);
    pool.countAhead('0..99');
    pool.countAhead('0..99');
    expect(lane.kinds()).toEqual(['keyCount']);
    lane.posted[0]!.resolve(100);
    await settle();
    const report = pool.request(resize('0..99'));
    // Posted before any await: the page draws no frame before the report starts.
    expect(lane.kinds()).toEqual(['keyCount', 'resize']);
    lane.posted[1]!.resolve({ keyCount: 100, steps: [] });
    await expect(report).resolves.toEqual({ keyCount: 100, steps: [] });
  });

  test('a text not counted ahead is counted when its report starts', async () => {
    const lane = new FakeLane();
    const report = poolOf(lane).request(resize('0..9'));
    expect(lane.kinds()).toEqual(['keyCount']);
    lane.posted[0]!.resolve(10);
    await settle();
    expect(lane.kinds()).toEqual(['keyCount', 'resize']);
    lane.posted[1]!.resolve('done');
    await expect(report).resolves.toBe('done');
  });

  test('a count still out when the reports are cancelled is asked again by the next report, not awaited', async () => {
    const lane = new FakeLane();
    const pool = poolOf(lane);
    pool.countAhead('0..99');
    pool.cancel();
    const report = pool.request(resize('0..99'));
    expect(lane.kinds()).toEqual(['keyCount', 'keyCount']);
    lane.posted[1]!.resolve(100);
    await settle();
    expect(lane.kinds()).toEqual(['keyCount', 'keyCount', 'resize']);
    lane.posted[2]!.resolve('done');
    await expect(report).resolves.toBe('done');
  });

  test('a count that failed is forgotten: the report asks again and shows its error', async () => {
    const lane = new FakeLane();
    const pool = poolOf(lane);
    pool.countAhead('0..x');
    lane.posted[0]!.reject(new EngineError('bad keys', 'keys'));
    await settle();
    const report = pool.request(resize('0..x'));
    expect(lane.kinds()).toEqual(['keyCount', 'keyCount']);
    lane.posted[1]!.reject(new EngineError('bad keys', 'keys'));
    await expect(report).rejects.toThrow('bad keys');
  });

  test(`the last ${COUNTED_TEXTS} texts are kept, none over ${COUNTED_TEXT_CHARS} characters, and none on one worker`, async () => {
    const lane = new FakeLane();
    const pool = poolOf(lane);
    for (let i = 0; i <= COUNTED_TEXTS; i++) pool.countAhead(`0..${i}`);
    for (const posted of lane.posted) posted.resolve(1);
    await settle();
    pool.countAhead(`0..${COUNTED_TEXTS}`); // kept
    pool.countAhead('0..0'); // the oldest, dropped: asked again
    pool.countAhead('1 '.repeat(COUNTED_TEXT_CHARS)); // too long to keep: not counted ahead
    expect(lane.posted).toHaveLength(COUNTED_TEXTS + 2);
    const single = new FakeLane();
    poolOf(single, 1).countAhead('0..99');
    expect(single.posted).toHaveLength(0);
  });
});

describe('ReportPool.warmUp', () => {
  test('warms a worker up with a small whole report on one worker, and with the split code on several', () => {
    const single = new FakeLane();
    poolOf(single, 1).warmUp();
    expect(single.prepared.map((request) => request.kind)).toEqual(['warmUp']);
    const lane = new FakeLane();
    poolOf(lane).warmUp();
    expect(lane.prepared.map((request) => request.kind)).toEqual(['prepareSplit']);
  });
});

describe('ReportPool.prepareSplit', () => {
  test('asks each worker to load the split code ahead of the first split report, and none on one worker', () => {
    const lane = new FakeLane();
    poolOf(lane).prepareSplit();
    expect(lane.prepared.map((request) => request.kind)).toEqual(['prepareSplit']);
    const single = new FakeLane();
    poolOf(single, 1).prepareSplit();
    expect(single.prepared).toEqual([]);
  });

  test('the load is not a pending request: the pool is not busy with it, and the next report starts at once', async () => {
    const lane = new FakeLane();
    const pool = poolOf(lane);
    pool.prepareSplit();
    expect(pool.busy).toBe(false);
    expect(lane.pending.size).toBe(0);
    const report = pool.request(resize('0..99'));
    expect(lane.kinds()).toEqual(['keyCount']);
    lane.posted[0]!.resolve(100);
    await settle();
    expect(lane.kinds()).toEqual(['keyCount', 'resize']);
    lane.posted[1]!.resolve('done');
    await expect(report).resolves.toBe('done');
  });
});
