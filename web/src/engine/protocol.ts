// Messages between the page and its engine workers. Each worker owns its own
// instance of the WebAssembly module; keys cross as bigint or as the command
// language's key text, never as a Number.

import type {
  AlgorithmInfo, CheckResult, ClaimInfo, ClaimResult, LanguageWords, Limits, LoadResult, MovedKeyColumns, ResizeResultWithCells,
  ResizePart, ScriptResult,
} from 'jumphash-wasm';

/**
 * Keys in the KEYS syntax: as typed, or (a pasted list of 10^6 keys) a
 * UTF-8 Blob made in the text worker, which crosses as a handle and is read
 * in the engine worker, never copied on the page's main thread.
 */
export type KeyText = string | Blob;

/** Fields a request can blame in an error, so the page shows it next to them. */
export type Field =
  | 'key' | 'n' | 'trace' | 'from' | 'to' | 'keys' | 'script' | 'output' | 'algos'
  | 'nodes' | 'steps' | 'opts';

export interface InfoReply {
  version: string;
  /** Every algorithm of the core's registry, with kind, capabilities, options and limits. */
  algorithms: AlgorithmInfo[];
  /** The command language's words, from the core (the console's highlighting). */
  language: LanguageWords;
  /** The core's limits table. */
  limits: Limits;
}

/**
 * A cluster of named nodes as typed in the page; the worker parses it with
 * the core (the same rules and messages as NODES and MOVED's edits).
 */
export interface NodeScenario {
  /** The node list: names (`name*weight` for weights) separated by spaces, commas or newlines. */
  nodes: string;
  /** Changes in order: `-name` removes, `+name` / `+name*w` adds, `=name*w` changes a weight. */
  steps: string;
  /** Algorithm options, `algorithm.option=value` separated by spaces or commas (e.g. `maglev.table=251`). */
  opts: string;
}

/** Where one algorithm's result failed while the others still give results. */
export interface AlgorithmError {
  algorithm: string;
  message: string;
}

export interface ComputeRequest {
  kind: 'compute';
  algos: string[];
  key: string;
  n: number;
  traceMax: number;
  /** When set, the key is placed on this node list (n is not used). */
  scenario?: NodeScenario;
}
export interface ComputeBucket {
  algo: string;
  /** The bucket, or the node's index in the list (before the steps). */
  bucket: number;
  /** On a node list: the node's name before the steps and after all of them. */
  node?: string;
  nodeAfter?: string;
}
export interface ComputeReply {
  /** The key's value; bigint end to end. */
  value: bigint;
  /** How the key prints. */
  label: string;
  buckets: ComputeBucket[];
  /** Per bucket-count algorithm: the bucket counts n where the bucket changes, and the bucket from there on. */
  traces: { algo: string; ns: Float64Array; buckets: Int32Array }[];
  /** Algorithms that could not place the key (e.g. n above a node-set algorithm's limit). */
  errors: AlgorithmError[];
}

export interface KeyCountRequest {
  kind: 'keyCount';
  keys: KeyText;
}

/**
 * Loads a split report's code in the worker (engine/splitJob.ts) before
 * its first split report, which otherwise waits for it (ReportPool.warm),
 * and runs it once on a few keys, so that V8 optimises it first (warmUp).
 * Replies null, which nobody awaits (Lane.prepare).
 */
export interface PrepareSplitRequest {
  kind: 'prepareSplit';
}

/**
 * Runs a small whole report in the worker (WHOLE_REPORT_WARM_UP in
 * engine/reportJobs.ts), so that V8 optimises the report loops before the
 * first report on a page of one worker (ReportPool.warm). Replies null,
 * which nobody awaits (Lane.prepare).
 */
export interface WarmUpRequest {
  kind: 'warmUp';
}

export interface RunRequest {
  kind: 'run';
  script: string;
}
export type RunReply = ScriptResult;

/** A script run whose output streams back in chunks (WorkerMessage 'chunk'). */
export interface RunStreamRequest {
  kind: 'runStream';
  script: string;
  /** Lookups the run may compute; 0: no bound. */
  maxLookups: number;
  /** Output and error bytes the run may print; 0: no bound. */
  maxOutputBytes: number;
  /** Characters of standard output sent back as text (for the page to show);
   *  all of it also comes as Blob parts ('part' messages). */
  shownChars: number;
}
export interface RunStreamReply {
  exitCode: number;
}

export interface CheckRequest {
  kind: 'check';
  script: string;
  output: string;
}
export type CheckReply = CheckResult;

export interface ResizeRequest {
  kind: 'resize';
  algos: string[];
  keys: KeyText;
  /** Bucket counts of the chain: from, then each to (not used with a scenario). */
  sizes: number[];
  /** When set: the node list, then one report per step. */
  scenario?: NodeScenario;
  sampleLimit: number;
}
/**
 * A run of a report split across workers (engine/splitReport.ts; split.ts,
 * RunScheduler): this worker's jobs, one per report the request makes,
 * over the key positions [begin, end) (the package's keyRange), counting a
 * grant of keys at a time and keeping their counts until the run is
 * collected (SplitCollectRequest). Its first grant carries `start`.
 * Answered once the run has counted its keys up to `to`, with the grant's
 * progress at its end (GrantDone): the worker posts none of its own then,
 * one message a grant fewer for the page's main thread.
 */
export interface SplitRunRequest {
  kind: 'splitRun';
  /** The run's id, unique in the page. */
  run: number;
  /** On the run's first grant: what its jobs count. */
  start?: RunStart;
  /** Count the run's keys up to this position (after the last grant's, at most start.end); a run counted from its end, down to it (before the last grant's, at least start.begin). */
  to: number;
}
/** A grant's progress at its end: its keys times the reports the run makes, all done. */
export interface GrantDone {
  done: number;
  total: number;
  phase: string;
}
export interface RunStart {
  report: ResizeRequest | LoadRequest;
  begin: number;
  end: number;
  /** Count the keys from `end` down (the package's fromEnd), toward the run that counts them up: the two meet wherever each has got to. */
  fromEnd?: boolean;
  /** When set: the moved keys the run samples, per report (instead of
   *  sampleLimit): 0 where the keys before it surely fill the list
   *  (engine/split.ts, skippedSamples). */
  sampleLimits?: number[];
  /**
   * Take each report's moved-key list out of the module at the first grant
   * after it is final (the package's ResizeJob.sampleFinal), while the
   * other workers still count, not when the run is collected, after the
   * last grant (engine/splitJob.ts, takeFinalSamples). Set where the run
   * is collected, never merged into (splitReport.ts, runsSampleFew).
   */
  sampleEarly?: boolean;
}
/**
 * A run's counts, which ends it where it has counted to (the package's
 * Job.endHere: a run met by another ends where they met): for a resize, each report's ResizePart
 * (flows as their non-zero cells: a 1000 -> 1001 resize passes about 2,000
 * cells, not 1,001,000; keyRange the keys it counted), for the merging
 * worker (MergeResizeRequest); for a load, its LoadReply.
 */
export interface SplitCollectRequest {
  kind: 'splitCollect';
  run: number;
}
/**
 * The moved keys a resize lists, in key order, in columns (the package's
 * ResizeJob.resultInColumns): 200,000 objects with a bigint each take
 * 120-230 ms to build in a worker and about 400 ms to clone into the page,
 * on its main thread, so they cross as typed arrays (transferred, not
 * copied) and the key text only where it is not the decimal value.
 *
 * The list is `parts`' keys one after another: one worker's report has one
 * part; a split report keeps each run's columns as its worker made them
 * (split.ts, firstMoved), since copying them into one list wrote fresh
 * memory, which costs more than the copy (100,000 keys, 1.6 MB: 5.5-6 ms
 * in Node on this project's 2-core VM, after the merge, with the other
 * worker idle). views/resize/flows.ts reads it (movedCount, movedAt).
 */
export interface MovedSample {
  readonly parts: readonly MovedKeyColumns[];
}

/**
 * A resize report as the page gets it: the package's ResizeResult with the
 * sample in columns and the flow matrix as its non-zero cells
 * (resultInColumns({ flows: 'cells' })): a 1000 -> 1001 matrix is 8 MB of
 * doubles, about 30 ms to write out in a worker, for some 2,000 cells.
 * views/resize/flows.ts reads them.
 */
export type ReportedResize = Omit<ResizeResultWithCells, 'sample'> & { readonly sample: MovedSample };

/** One algorithm over one step of the chain: its report `R`, or why it has none. */
export interface StepOutcome<R> {
  algorithm: string;
  /** The step: "10 → 12", or the edit ("-cache-3", "+big*2", "=cache-1*3"). */
  label: string;
  result: R | null;
  /** Why this algorithm has no result for this step (result is null). */
  error: string | null;
}
export type ResizeOutcome = StepOutcome<ReportedResize>;
export interface ResizeReply {
  keyCount: number;
  /** Algorithm-major: every step of the first algorithm, then the next. */
  steps: ResizeOutcome[];
  /** How many workers counted the keys, when the report was split across them (engine/splitReport.ts); absent: one. */
  workers?: number;
}
/** A ResizeReply of one run (SplitCollectRequest): each report as its ResizePart. */
export interface ResizePartReply {
  keyCount: number;
  steps: StepOutcome<ResizePart>[];
}

export interface LoadRequest {
  kind: 'load';
  algos: string[];
  keys: KeyText;
  n: number;
  /** When set: loads per node of this list (after its steps), n not used. */
  scenario?: NodeScenario;
}

/**
 * The counts of every run of `request` (SplitCollectRequest, in key order)
 * made into one reply, exactly. With `into`, a run of this worker: it ends
 * where it has counted to, its jobs absorb the parts, the counts of every
 * other run (before its keys and after them), and the run ends, so that it
 * is neither collected nor copied into a merging job of its own.
 */
export interface MergeResizeRequest {
  kind: 'mergeResize';
  request: ResizeRequest;
  parts: ResizePartReply[];
  into?: number;
}
export interface MergeLoadRequest {
  kind: 'mergeLoad';
  request: LoadRequest;
  parts: LoadReply[];
  into?: number;
}
export interface LoadOutcome {
  algorithm: string;
  result: LoadResult | null;
  error: string | null;
}
export interface LoadReply {
  keyCount: number;
  items: LoadOutcome[];
  /** As ResizeReply's. */
  workers?: number;
}

export interface CompareRequest {
  kind: 'compare';
  keys: KeyText;
  from: number;
  to: number;
  n: number;
  /** When set: the list before and after all its steps (from, to and n not used). */
  scenario?: NodeScenario;
}
export interface CompareRow {
  info: AlgorithmInfo;
  /** Why this algorithm has no numbers (the other fields are 0 then). */
  error: string | null;
  total: number;
  moved: number;
  minimumMovedExpected: number;
  maxOverMean: number;
  chiSquare: number;
  degreesOfFreedom: number;
  /** Largest per-source chi-square / dof of the resize's flows (null when not kept or on node lists). */
  worstFlowChiPerDof: number | null;
  /** Measured with the batched buckets() call, in this browser. */
  lookupsPerSecond: number;
  nsPerLookup: number;
  /** Bytes of lookup state the core reports for the placement (0 for bucket counts). */
  stateBytes: number;
  /** Time to build the placement once, in milliseconds, in this browser. */
  buildMs: number;
}
export interface CompareReply {
  keyCount: number;
  rows: CompareRow[];
}

/** The catalogue of the articles' claims (the claims module, loaded on first use). */
export interface ClaimsListRequest {
  kind: 'claimsList';
}
export type ClaimsListReply = ClaimInfo[];

/** Runs one claim by id; an unknown id is an error naming it and every known id. */
export interface RunClaimRequest {
  kind: 'runClaim';
  id: string;
}
export type RunClaimReply = ClaimResult;

export type Request =
  | ({ kind: 'info' })
  | ComputeRequest
  | KeyCountRequest
  | PrepareSplitRequest
  | WarmUpRequest
  | RunRequest
  | RunStreamRequest
  | CheckRequest
  | ResizeRequest
  | SplitRunRequest
  | SplitCollectRequest
  | LoadRequest
  | MergeResizeRequest
  | MergeLoadRequest
  | CompareRequest
  | ClaimsListRequest
  | RunClaimRequest;

export interface ReplyMap {
  info: InfoReply;
  compute: ComputeReply;
  keyCount: number;
  prepareSplit: null;
  warmUp: null;
  run: RunReply;
  runStream: RunStreamReply;
  check: CheckReply;
  resize: ResizeReply;
  splitRun: GrantDone;
  splitCollect: ResizePartReply | LoadReply;
  load: LoadReply;
  mergeResize: ResizeReply;
  mergeLoad: LoadReply;
  compare: CompareReply;
  claimsList: ClaimsListReply;
  runClaim: RunClaimReply;
}

/**
 * A streamed run's output (runStream), in order: error lines and the first
 * `shownChars` of standard output as text, and every character of standard
 * output as Blob parts of about a megabyte, made in the worker, so that the
 * page's thread never holds or copies the whole output.
 */
export type StreamMessage =
  | { id: number; type: 'chunk'; stream: 'stdout' | 'stderr'; text: string }
  | { id: number; type: 'part'; blob: Blob; chars: number; lines: number };

export type WorkerMessage =
  | { id: number; type: 'progress'; done: number; total: number; phase: string }
  | StreamMessage
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; message: string; field?: Field };
