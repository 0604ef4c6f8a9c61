// For the engine's tests (splitReport.test.ts, reportPool.test.ts): a Lane
// whose requests the test answers by hand, so that the order in which the
// page posts grants, collects, counts and merges can be checked without
// workers.

import { expect } from 'vitest';
import { CancelledError } from './client';

/** A request posted to a FakeLane, settled by the test. */
export interface Posted {
  request: { kind: string; keys?: unknown; run?: number; to?: number; start?: { begin: number; end: number; fromEnd?: boolean; sampleLimits?: number[]; sampleEarly?: boolean }; parts?: unknown[]; into?: number };
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A lane whose requests the test answers: what it was posted, in order, and which are pending. */
export class FakeLane {
  readonly posted: Posted[] = [];
  readonly pending = new Set<Posted>();
  /** Requests posted with prepare(): never pending, never answered. */
  readonly prepared: Posted['request'][] = [];
  cancels = 0;
  request(request: Posted['request']): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const posted: Posted = {
        request,
        resolve: (value) => {
          this.pending.delete(posted);
          resolve(value);
        },
        reject: (error) => {
          this.pending.delete(posted);
          reject(error);
        },
      };
      this.posted.push(posted);
      this.pending.add(posted);
    });
  }
  prepare(request: Posted['request']): void {
    this.prepared.push(request);
  }
  cancel(): void {
    this.cancels++;
    for (const posted of [...this.pending]) posted.reject(new CancelledError());
  }
  get busy(): boolean {
    return this.pending.size > 0;
  }
  /** The request kinds posted, in order. */
  kinds(): string[] {
    return this.posted.map((posted) => posted.request.kind);
  }
  /** The grants posted (splitRun), in order: [run, to], with the run's begin and end on its first. */
  grants(): (readonly [number, number] | readonly [number, number, number, number])[] {
    return this.posted.flatMap(({ request: { kind, run, to, start } }) =>
      kind !== 'splitRun' ? [] : [start ? ([run!, to!, start.begin, start.end] as const) : ([run!, to!] as const)],
    );
  }
  /** The oldest request posted and not answered yet. */
  oldest(): Posted | undefined {
    return this.posted.find((posted) => this.pending.has(posted));
  }
}

/** The key ranges `[begin, end, ...]` cover 0..keyCount once, in order, none empty (the runs of a split report). */
export function expectCover(ranges: readonly (readonly [number, number, ...number[]])[], keyCount: number): void {
  let at = 0;
  for (const [begin, end] of ranges) {
    expect(begin).toBe(at);
    expect(end).toBeGreaterThan(begin);
    at = end;
  }
  expect(at).toBe(keyCount);
}
