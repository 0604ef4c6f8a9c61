// For the engine's tests (splitReport.test.ts, reportPool.test.ts): a Lane
// whose requests the test answers by hand, so that the order in which the
// page posts parts, counts and merges can be checked without workers.

import { CancelledError } from './client';

/** A request posted to a FakeLane, settled by the test. */
export interface Posted {
  request: { kind: string; keys?: unknown; part?: { index: number; begin: number; end: number } };
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A lane whose requests the test answers: what it was posted, in order, and which are pending. */
export class FakeLane {
  readonly posted: Posted[] = [];
  readonly pending = new Set<Posted>();
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
  /** The part indices posted, in order. */
  parts(): number[] {
    return this.posted.flatMap((posted) => (posted.request.part ? [posted.request.part.index] : []));
  }
}
