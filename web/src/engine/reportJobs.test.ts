// The whole report a worker of a one-worker page runs when the page warms
// it up (reportJobs.ts, WHOLE_REPORT_WARM_UP): it must be a report the
// module runs without error for each of its algorithms, or the warm-up,
// whose reply nobody reads, would warm nothing and say nothing.

import { loadJumphash, type Jumphash } from 'jumphash-wasm';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { WHOLE_REPORT_WARM_UP, resizeReports } from './reportJobs';

// A report posts its progress to the page (workerJobs.ts, post): nowhere here.
vi.stubGlobal('self', { postMessage: () => {} });

let jh: Jumphash;
beforeAll(async () => {
  jh = await loadJumphash();
});

describe('WHOLE_REPORT_WARM_UP', () => {
  test('runs every algorithm it names over every key, each report without error', () => {
    const counted: number[] = [];
    const { reply } = resizeReports(jh, 0, WHOLE_REPORT_WARM_UP, (job) => {
      counted.push(job.done);
      return job.result().moved;
    });
    expect(reply.keyCount).toBe(1 << 19);
    expect(reply.steps.map((step) => [step.algorithm, step.error])).toEqual([['jump', null], ['jumpback', null]]);
    expect(counted).toEqual([1 << 19, 1 << 19]);
    // 10 -> 11: a consistent algorithm moves about 1/11 of the keys.
    for (const step of reply.steps) expect(Number(step.result) / (1 << 19)).toBeCloseTo(1 / 11, 2);
  });
});
