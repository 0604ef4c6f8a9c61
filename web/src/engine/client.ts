// The page's side of the engine workers. Two lanes, each a worker with its own
// module instance: `quick` answers small requests (a key's bucket, a trace, a
// script) at once; `jobs` runs reports over large key sets with progress, and
// cancelling one terminates its worker (a fresh one starts for the next job).

import type { Field, ReplyMap, Request, WorkerMessage } from './protocol';

/** A key set as typed (possibly a pasted list, one key a line) in the KEYS
 *  syntax, whose separators are spaces: line breaks become spaces. */
export function keySpec(typed: string): string {
  return typed.replace(/[\r\n]+/g, ' ');
}

export class EngineError extends Error {
  constructor(
    message: string,
    readonly field?: Field,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

export interface Progress {
  done: number;
  total: number;
  phase: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: ((progress: Progress) => void) | undefined;
}

function startWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'jumphash-engine' });
}

export class Lane {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new EngineError(`The engine failed to start: ${event.message || 'unknown error'}`));
    };
    this.worker = worker;
    return worker;
  }

  private receive(message: WorkerMessage): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') {
      pending.onProgress?.({ done: message.done, total: message.total, phase: message.phase });
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'result') pending.resolve(message.value);
    else pending.reject(new EngineError(message.message, message.field));
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Warms the worker up (fetches and compiles the module) before the first request. */
  warm(): void {
    this.ensureWorker();
  }

  request<K extends Request['kind']>(
    request: Extract<Request, { kind: K }>,
    onProgress?: (progress: Progress) => void,
  ): Promise<ReplyMap[K]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<ReplyMap[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
      worker.postMessage({ id, request });
    });
  }

  /** Stops whatever runs: every pending request rejects with CancelledError. */
  cancel(): void {
    if (this.pending.size === 0) return;
    this.failAll(new CancelledError());
  }
}

export const engine = {
  quick: new Lane(),
  jobs: new Lane(),
};
