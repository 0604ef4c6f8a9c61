import { describe, expect, test } from 'vitest';
import { CancelledError, EngineError, type Lane } from './client';
import { FakeLane } from './fakeLane';
import type { LoadRequest, ResizeRequest } from './protocol';
import { KEYS_PER_CARRIED_COUNT, KEYS_PER_PASSED_COUNT, PART_FROM_KEYS, splitRanges } from './split';
import { PARTS_IN_FLIGHT, runSplitReport } from './splitReport';

const KEYS = 10_000_000;
const keyText = `0..${KEYS - 1}`;
const request: LoadRequest = { kind: 'load', algos: ['jump'], keys: keyText, n: 10 };
/** The reply of a load part (its loads are not read before the merge). */
const partReply = { keyCount: KEYS, items: [{ algorithm: 'jump', result: null, error: 'not counted here' }] };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(lanes: FakeLane[], cancelled: () => boolean = () => false) {
  return runSplitReport(request, KEYS, 10, lanes as unknown as Lane[], cancelled);
}

describe('runSplitReport', () => {
  test('each worker has its next part queued while it runs one; the parts go out in order, one a lane a round', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    expect(PARTS_IN_FLIGHT).toBe(2);
    expect(lanes[0]!.parts()).toEqual([0, 2]);
    expect(lanes[1]!.parts()).toEqual([1, 3]);
    // The second worker's first part is back: it runs part 3, and part 4 is queued behind it.
    lanes[1]!.posted[0]!.resolve(partReply);
    await settle();
    expect(lanes[1]!.parts()).toEqual([1, 3, 4]);
    expect(lanes[0]!.parts()).toEqual([0, 2]);
    // Answer the oldest pending part of either lane until the merge is asked for.
    const ranges = splitRanges(KEYS, 10, keyText.length, 2);
    for (let turn = 0; !lanes[0]!.posted.some((p) => p.request.kind === 'mergeLoad'); turn++) {
      for (const lane of lanes) expect(lane.pending.size).toBeLessThanOrEqual(PARTS_IN_FLIGHT);
      const lane = lanes[turn % 2]!;
      const oldest = lane.posted.find((p) => lane.pending.has(p));
      oldest?.resolve(partReply);
      await settle();
    }
    const all = [...lanes[0]!.parts(), ...lanes[1]!.parts()].sort((a, b) => a - b);
    expect(all).toEqual(ranges.map((_, index) => index));
    const covered = lanes.flatMap((lane) => lane.posted.flatMap((p) => (p.request.part ? [[p.request.part.begin, p.request.part.end]] : [])));
    expect(covered.sort((a, b) => a[0]! - b[0]!)).toEqual(ranges);
    lanes[0]!.posted.at(-1)!.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [] });
  });

  test('the last part is posted to the first lane with no part left, never queued behind one', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    const last = splitRanges(KEYS, 10, keyText.length, 2).length - 1;
    // Only the first worker answers (the second is slow): it takes the parts in
    // turn, two in flight, and the last only once it runs no other.
    const first = lanes[0]!;
    while (!first.parts().includes(last)) {
      first.posted.find((p) => first.pending.has(p))!.resolve(partReply);
      await settle();
    }
    expect([...first.pending].map((p) => p.request.part?.index)).toEqual([last]);
    expect(lanes[1]!.parts()).toEqual([1, 3]);
    // It ran the part before the last, and took the last once that was back.
    expect(first.parts().slice(-2)).toEqual([last - 1, last]);
    for (const lane of [lanes[1]!, first]) for (const p of [...lane.pending]) p.resolve(partReply);
    await settle();
    first.posted.at(-1)!.resolve({ keyCount: KEYS, items: [] });
    await expect(report).resolves.toEqual({ keyCount: KEYS, items: [] });
    // Three parts: the third goes to whichever worker is free first.
    const few = [new FakeLane(), new FakeLane()];
    const small = runSplitReport(request, 3 * 2 ** 18 + 5, 10, few as unknown as Lane[], () => false);
    expect(few.map((lane) => lane.parts())).toEqual([[0], [1]]);
    few[1]!.posted[0]!.resolve(partReply);
    await settle();
    expect(few.map((lane) => lane.parts())).toEqual([[0], [1, 2]]);
    few[0]!.posted[0]!.resolve(partReply);
    few[1]!.posted[1]!.resolve(partReply);
    await settle();
    few[0]!.posted.at(-1)!.resolve({ keyCount: 3 * 2 ** 18 + 5, items: [] });
    await expect(small).resolves.toEqual({ keyCount: 3 * 2 ** 18 + 5, items: [] });
  });

  test('the parts cut after the first are back are sized by the counts those passed', async () => {
    // jumpback 1000 -> 1001 over 10^8 keys carries 1,003,001 counts a part, but a part
    // passes its loads and about 1,600 flow cells: the last parts are cut finer than
    // KEYS_PER_PASSED_COUNT keys a count carried, down to PART_FROM_KEYS.
    const resize: ResizeRequest = { kind: 'resize', algos: ['jumpback'], keys: '0..99999999', sizes: [1000, 1001], sampleLimit: 0 };
    const counts = 1000 + 1001 + 1000 * 1001;
    const sample = { values: new BigUint64Array(0), oldBuckets: new Int32Array(0), newBuckets: new Int32Array(0), labels: [] };
    const reply = () => ({
      keyCount: 10 ** 8,
      steps: [{ algorithm: 'jumpback', label: '1000 → 1001', error: null, result: {
        moved: 0, loadsBefore: new Float64Array(1000), loadsAfter: new Float64Array(1001),
        flowCells: { index: new Uint32Array(1600), count: new Float64Array(1600) }, sample,
      } }],
    });
    const lanes = [new FakeLane(), new FakeLane()];
    const report = runSplitReport(resize, 10 ** 8, counts, lanes as unknown as Lane[], () => false);
    for (let turn = 0; !lanes[0]!.posted.some((p) => p.request.kind === 'mergeResize'); turn++) {
      const lane = lanes[turn % 2]!;
      lane.posted.find((p) => lane.pending.has(p))?.resolve(reply());
      await settle();
    }
    const sizes = lanes.flatMap((lane) => lane.posted.flatMap((p) => (p.request.part ? [p.request.part] : [])))
      .sort((a, b) => a.index - b.index).map((part) => part.end - part.begin);
    expect(sizes.reduce((sum, keys) => sum + keys, 0)).toBe(10 ** 8);
    expect(sizes.slice(0, 4)).toEqual(splitRanges(10 ** 8, counts, 11, 2).slice(0, 4).map(([b, e]) => e - b));
    expect(sizes.at(-2)!).toBeLessThan(KEYS_PER_PASSED_COUNT * counts / 2);
    const least = Math.max(PART_FROM_KEYS, KEYS_PER_CARRIED_COUNT * counts);
    expect(Math.min(...sizes.slice(0, -1))).toBeGreaterThanOrEqual(least);
    expect(sizes.at(-1)!).toBeGreaterThanOrEqual(least / 2);
    lanes[0]!.posted.at(-1)!.resolve({ keyCount: 10 ** 8, steps: [] });
    await expect(report).resolves.toEqual({ keyCount: 10 ** 8, steps: [] });
  });

  test('a pasted list (one part a worker) posts no second part', () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const pasted: LoadRequest = { ...request, keys: Array.from({ length: 3000 }, (_, i) => i).join(' ') };
    void runSplitReport(pasted, 3000, 10, lanes as unknown as Lane[], () => false).catch(() => {});
    expect(lanes.map((lane) => lane.parts())).toEqual([[0], [1]]);
    for (const lane of lanes) lane.cancel();
  });

  test('a part that fails stops every worker, and the report rejects with its error alone', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    const report = start(lanes);
    const failure = new EngineError('the engine stopped');
    lanes[0]!.posted[0]!.reject(failure);
    // The queued parts are cancelled with the rest: no unhandled rejection (Vitest fails on one).
    await expect(report).rejects.toBe(failure);
    await settle();
    expect(lanes.map((lane) => lane.cancels)).toEqual([1, 1]);
    expect(lanes.map((lane) => lane.pending.size)).toEqual([0, 0]);
  });

  test('once cancelled, no part is posted and the report rejects with CancelledError', async () => {
    const lanes = [new FakeLane(), new FakeLane()];
    let cancelled = false;
    const report = start(lanes, () => cancelled);
    cancelled = true;
    lanes[1]!.posted[0]!.resolve(partReply);
    await expect(report).rejects.toBeInstanceOf(CancelledError);
    expect(lanes.map((lane) => lane.parts())).toEqual([[0, 2], [1, 3]]);
  });
});
