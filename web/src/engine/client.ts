// The page's side of the engine workers. Two lanes, each a worker with its own
// module instance: `quick` answers small requests (a key's bucket, a trace, a
// script) at once; `jobs` runs reports over large key sets with progress, and
// cancelling one terminates its worker (a fresh one starts for the next job).
// A lane may run another worker script (the page's text worker, which checks
// output and prepares pasted key lists: web/src/ui/textLanes.ts) with the same
// message shapes.
//
// A worker whose request failed without blaming a field (an abort of the
// WebAssembly module, an out-of-memory error, a bug) is replaced: it is
// terminated once its other requests have settled, which releases its memory
// (a WebAssembly memory never shrinks), and the next request starts a fresh one.

import type { Field, KeyText, ReplyMap, Request, StreamMessage, WorkerMessage } from './protocol';

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

/** Receives a streamed run's output (runStream), in order. */
export type ChunkHandler = (message: StreamMessage) => void;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: ((progress: Progress) => void) | undefined;
  onChunk?: ChunkHandler | undefined;
  /** The worker the request was posted to. */
  worker: Worker;
}

function startWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'jumphash-engine' });
}

/** The shape of a lane's requests: each has a `kind`, which names its reply type. */
export interface LaneRequest {
  kind: string;
}

/**
 * One worker at a time, started on the first request, answering requests
 * in order. `Req` are the worker's requests and `Replies` the reply type of
 * each request kind (the engine's by default); `start` makes a worker (the
 * engine's by default).
 */
export class Lane<Req extends LaneRequest = Request, Replies = ReplyMap> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Workers being replaced: terminated as soon as none of their requests is pending. */
  private readonly retiring = new Set<Worker>();
  /** Workers that have sent at least one message (they started). */
  private readonly answered = new WeakSet<Worker>();

  constructor(private readonly start: () => Worker = startWorker) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start();
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      this.answered.add(worker);
      this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const what = event.message || 'unknown error';
      this.failWorker(
        worker,
        new EngineError(this.answered.has(worker) ? `The engine stopped (${what}); a fresh one takes the next request: try again.` : `The engine failed to start: ${what}`),
      );
    };
    worker.onmessageerror = () => {
      this.failWorker(worker, new EngineError('A reply of the engine could not be read; a fresh engine takes the next request: try again.'));
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
    if (message.type === 'chunk' || message.type === 'part') {
      pending.onChunk?.(message);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'result') pending.resolve(message.value);
    else {
      // An error that blames no field is no input error: the worker may be
      // left in a bad state (an abort) and holds its memory, so replace it.
      if (message.field === undefined) this.retire(pending.worker);
      pending.reject(new EngineError(message.message, message.field));
    }
    this.terminateIfDrained(pending.worker);
  }

  private hasPending(worker: Worker): boolean {
    for (const pending of this.pending.values()) if (pending.worker === worker) return true;
    return false;
  }

  private terminateIfDrained(worker: Worker): void {
    if (!this.retiring.has(worker) || this.hasPending(worker)) return;
    this.retiring.delete(worker);
    worker.terminate();
  }

  /** Rejects the requests posted to `worker` and terminates it. */
  private failWorker(worker: Worker, error: Error): void {
    for (const [id, pending] of this.pending) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      pending.reject(error);
    }
    this.retiring.delete(worker);
    if (this.worker === worker) this.worker = null;
    worker.terminate();
  }

  /**
   * Replaces the worker: the next request starts a fresh one, and this one
   * is terminated (its memory released) once its pending requests settle.
   * Use after work that grew its memory a lot (a large check).
   */
  release(): void {
    if (this.worker) this.retire(this.worker);
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    this.retiring.add(worker);
    this.terminateIfDrained(worker);
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Warms the worker up (fetches and compiles the module) before the first request. */
  warm(): void {
    this.ensureWorker();
  }

  /**
   * Posts a request whose reply nobody awaits: code for later requests to
   * load ahead of need (ReportPool.prepareSplit). It is never pending, so
   * cancel() leaves the worker running it (a report's start cancels the one
   * before it, and would otherwise throw away a warm worker in the middle
   * of its fetch) and `busy` does not count it; its reply, or its error, is
   * dropped (the request that needs the code loads it again).
   */
  prepare(request: Req): void {
    this.ensureWorker().postMessage({ id: this.nextId++, request });
  }

  request<K extends Req['kind']>(
    request: Extract<Req, { kind: K }>,
    onProgress?: (progress: Progress) => void,
    onChunk?: ChunkHandler,
    transfer: Transferable[] = [],
  ): Promise<Replies[K & keyof Replies]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Replies[K & keyof Replies]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress, onChunk, worker });
      worker.postMessage({ id, request }, transfer);
    });
  }

  /** Stops whatever runs: every pending request rejects with CancelledError. */
  cancel(): void {
    if (this.pending.size === 0) return;
    const error = new CancelledError();
    const workers = new Set([...this.pending.values()].map((pending) => pending.worker));
    for (const worker of workers) this.failWorker(worker, error);
  }
}

/** Workers a report uses at most. */
export const MAX_REPORT_WORKERS = 8;

/**
 * How many workers a report may use: navigator.hardwareConcurrency (at
 * most MAX_REPORT_WORKERS), or `?workers=N` in the page's address (for
 * benchmarks: e2e/bench/reports.bench.ts).
 */
export function reportWorkers(): number {
  const asked = Number(new URLSearchParams(globalThis.location?.search ?? '').get('workers'));
  const cores = Number.isInteger(asked) && asked >= 1 ? asked : (globalThis.navigator?.hardwareConcurrency ?? 1);
  return Math.max(1, Math.min(MAX_REPORT_WORKERS, cores));
}

/** Keys per worker below which a report is not split (one worker answers sooner than several starting). */
export const SPLIT_FROM_KEYS = 1 << 20;

/** Key texts up to this long have their counts kept (ReportPool.countKeys): what a reader types, not a pasted list. */
export const COUNTED_TEXT_CHARS = 1000;
/** How many key texts' counts ReportPool keeps, the latest asked. */
export const COUNTED_TEXTS = 4;

/** Whether ReportPool keeps the count of `keys`: a typed text (COUNTED_TEXT_CHARS at most), not a pasted list. */
function keptText(keys: KeyText): keys is string {
  return typeof keys === 'string' && keys.length <= COUNTED_TEXT_CHARS;
}

/** engine/splitReport.ts (and engine/splitWorkers.ts with it), once loaded (loadSplitReport). */
let splitReport: typeof import('./splitReport') | undefined;
/** The import of splitReport, from ReportPool.prepareSplit or the first report large enough to split. */
let splitReportLoading: Promise<typeof import('./splitReport')> | undefined;

function loadSplitReport(): Promise<typeof import('./splitReport')> {
  splitReportLoading ??= import('./splitReport').then(
    (module) => (splitReport = module),
    (error: unknown) => {
      splitReportLoading = undefined; // the next report tries again
      throw error;
    },
  );
  return splitReportLoading;
}

/** The reports that split across workers. */
type SplitKind = 'resize' | 'load';
type ReportRequest = Extract<Request, { kind: SplitKind | 'compare' }>;

/**
 * Reports over large key sets on every core: a resize or load over at
 * least 2 x SPLIT_FROM_KEYS keys is split across up to reportWorkers()
 * workers (fewer when merging the counts would cost more than it saves:
 * engine/splitWorkers.ts), which take its parts in turn, each the next
 * part when it is free (engine/splitReport.ts). Each worker has its
 * own module (no SharedArrayBuffer: any static host serves the page), and
 * the first worker merges the parts with the core (the package's
 * Job.absorb), so the reply is exactly one worker's. Progress sums every
 * part; cancel stops every worker. The first lane is `engine.jobs`, which
 * the console and claims use too.
 */
export class ReportPool {
  private readonly lanes: Lane[];
  /** How many times cancel() was called: a split report takes no more parts once it changes. */
  private cancels = 0;
  /**
   * The algorithms that move only the keys they must (the package's
   * AlgorithmInfo.consistent; app.ts sets them from the engine's info):
   * their resizes pass few flow cells, so they split from fewer keys
   * (splitWorkers.ts, expectedPassedCounts). Empty: every algorithm is
   * taken to fill its flow matrix.
   */
  consistentAlgorithms: ReadonlySet<string> = new Set();
  /** Key counts of the last COUNTED_TEXTS short key texts (countKeys), by text: the count, or the request still out. */
  private readonly counted = new Map<string, number | Promise<number>>();

  constructor(first: Lane, private readonly limit: () => number = reportWorkers) {
    this.lanes = [first];
  }

  get busy(): boolean {
    return this.lanes.some((lane) => lane.busy);
  }

  cancel(): void {
    this.cancels++;
    // A count still out is cancelled with the rest: forget it now, so that
    // a report started next asks again rather than awaiting the cancelled one.
    for (const [text, count] of this.counted) if (typeof count !== 'number') this.counted.delete(text);
    for (const lane of this.lanes) lane.cancel();
  }

  /**
   * The number of keys in `keys` (KEYS syntax), from the first lane's
   * worker, which parses them. The count of a text up to
   * COUNTED_TEXT_CHARS long is kept for the next COUNTED_TEXTS texts.
   */
  countKeys(keys: KeyText): Promise<number> {
    const first = this.lanes[0]!;
    if (!keptText(keys)) return first.request({ kind: 'keyCount', keys });
    const known = this.counted.get(keys);
    if (known !== undefined) return Promise.resolve(known);
    const asked = first.request({ kind: 'keyCount', keys });
    this.counted.set(keys, asked);
    if (this.counted.size > COUNTED_TEXTS) this.counted.delete(this.counted.keys().next().value!);
    asked.then(
      (count) => {
        if (this.counted.get(keys) === asked) this.counted.set(keys, count);
      },
      () => {
        if (this.counted.get(keys) === asked) this.counted.delete(keys);
      },
    );
    return asked;
  }

  /**
   * Counts `keys` ahead of a report that may split (the Keys field calls it
   * as the reader types): the report, which starts after the view's input
   * debounce, then has its count at once. Otherwise it asks the first
   * worker when it starts, and the answer waited behind the report's first
   * frame on the page's main thread: timed in 2-worker reports of jump
   * 10 -> 12, the parts were posted 1.0-7.2 ms after the report started,
   * with both workers idle (0.4-0.9 ms with the count known). Errors are
   * left for the report to show.
   */
  countAhead(keys: KeyText): void {
    if (this.limit() <= 1 || !keptText(keys)) return;
    this.countKeys(keys).catch(() => {});
  }

  /**
   * Starts every worker a report may use (their modules compile before the
   * first large report) and warms up the code its reports run (warmUp).
   */
  warm(): void {
    while (this.lanes.length < this.limit()) this.lanes.push(new Lane());
    for (const lane of this.lanes) lane.warm();
    this.warmUp();
  }

  /**
   * Has the workers run the code their reports will run, so that V8 has
   * optimised it before the first report: the split report's on several
   * workers (prepareSplit), a small whole report on one (WarmUpRequest).
   * On one worker, the first report of jumpback 1000 -> 1001 over
   * random:10000000:1 after a page load replied in a median 79.0 ms (71-122)
   * against 98.5 (82-138) without it, and the later ones in 66.5 either way
   * (20 fresh pages each, builds taken in turn, 2026-12-06).
   */
  warmUp(): void {
    if (this.limit() <= 1) this.lanes[0]!.prepare({ kind: 'warmUp' });
    else this.prepareSplit();
  }

  /**
   * Loads a split report's code ahead of the first report that splits, on
   * the page (engine/splitReport.ts) and in each worker started
   * (engine/splitJob.ts), where that report would wait for it: in a
   * Chromium trace on 2 cores, the page's import took about 8 ms and each
   * worker's 6-8 ms, and the first 2-worker report of 10^7 keys after a
   * page load had its reply a median 87 ms after it started, against
   * 100.5 ms loading on demand (16 pages each). Each worker then runs the
   * code once on a few keys (engine/splitJob.ts, warmUp). Nothing on one
   * worker, where no report splits. The workers' loads are Lane.prepare
   * requests, which a report's cancel() leaves running. A failed load is
   * forgotten: the report loads again, and shows the error if it fails
   * again.
   */
  prepareSplit(): void {
    if (this.limit() <= 1) return;
    loadSplitReport().catch(() => {});
    for (const lane of this.lanes) lane.prepare({ kind: 'prepareSplit' });
  }

  /**
   * Runs a report (see the class). For the page benchmark
   * (e2e/bench/reports.bench.ts) and DevTools, the User Timing marks
   * `jumphash:report` when it starts and `jumphash:reply` when its reply is
   * back on the page's main thread, before the view draws it.
   */
  async request<K extends ReportRequest['kind']>(
    request: Extract<ReportRequest, { kind: K }>,
    onProgress?: (progress: Progress) => void,
  ): Promise<ReplyMap[K]> {
    performance.mark('jumphash:report');
    const reply = await this.run(request, onProgress);
    performance.mark('jumphash:reply');
    return reply;
  }

  private async run<K extends ReportRequest['kind']>(
    request: Extract<ReportRequest, { kind: K }>,
    onProgress?: (progress: Progress) => void,
  ): Promise<ReplyMap[K]> {
    const first = this.lanes[0]!;
    if (request.kind === 'compare' || this.limit() <= 1) return first.request(request, onProgress) as Promise<ReplyMap[K]>;
    const split = request as Extract<Request, { kind: SplitKind }>;
    // A count known already (countAhead) is used without an await, so the
    // parts are posted before the page draws the report's first frame.
    const known = typeof split.keys === 'string' ? this.counted.get(split.keys) : undefined;
    const keyCount = typeof known === 'number' ? known : await this.countKeys(split.keys);
    if (keyCount < 2 * SPLIT_FROM_KEYS) return first.request(request, onProgress) as Promise<ReplyMap[K]>;
    const cancels = this.cancels;
    const cancelled = () => this.cancels !== cancels;
    // Fetched with the first report large enough to split (with how many
    // workers to split across: splitWorkers.ts), then called at once: an
    // await of import() (even of a module already loaded) lets the page draw
    // a frame before the parts start, about 4 ms in a Chromium trace of a
    // 2-worker report, while the workers waited.
    const { expectedPassedCounts, mergedCounts, runSplitReport, splitWorkers } = splitReport ?? (await loadSplitReport());
    if (cancelled()) throw new CancelledError();
    const counts = mergedCounts(split);
    const passed = expectedPassedCounts(split, (algorithm) => this.consistentAlgorithms.has(algorithm));
    const workers = splitWorkers(keyCount, passed, counts, this.limit());
    if (workers <= 1) return first.request(request, onProgress) as Promise<ReplyMap[K]>;
    while (this.lanes.length < workers) this.lanes.push(new Lane());
    return runSplitReport(split, keyCount, counts, this.lanes.slice(0, workers), cancelled, onProgress, passed) as Promise<ReplyMap[K]>;
  }
}

const jobs = new Lane();
export const engine = {
  quick: new Lane(),
  jobs,
  /** Resize, load and compare reports: split across workers when large. */
  reports: new ReportPool(jobs),
};
