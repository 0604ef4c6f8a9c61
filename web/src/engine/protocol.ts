// Messages between the page and its engine workers. Each worker owns its own
// instance of the WebAssembly module; keys cross as bigint or as the command
// language's key text, never as a Number.

import type { AlgorithmInfo, CheckResult, LanguageWords, ScriptResult } from 'jumphash-wasm';

/** Fields a request can blame in an error, so the page shows it next to them. */
export type Field = 'key' | 'n' | 'trace' | 'from' | 'to' | 'keys' | 'script' | 'output' | 'algos';

export interface InfoReply {
  version: string;
  algorithms: AlgorithmInfo[];
  /** The command language's words, from the core (the console's highlighting). */
  language: LanguageWords;
}

export interface ComputeRequest {
  kind: 'compute';
  algos: string[];
  key: string;
  n: number;
  traceMax: number;
}
export interface ComputeReply {
  /** The key's value; bigint end to end. */
  value: bigint;
  /** How the key prints. */
  label: string;
  buckets: { algo: string; bucket: number }[];
  /** Per algorithm: the bucket counts n where the bucket changes, and the bucket from there on. */
  traces: { algo: string; ns: Float64Array; buckets: Int32Array }[];
}

export interface KeyCountRequest {
  kind: 'keyCount';
  keys: string;
}

export interface RunRequest {
  kind: 'run';
  script: string;
}
export type RunReply = ScriptResult;

export interface CheckRequest {
  kind: 'check';
  script: string;
  output: string;
}
export type CheckReply = CheckResult;

export interface ResizeRequest {
  kind: 'resize';
  algos: string[];
  keys: string;
  /** Bucket counts of the chain: from, then each to. */
  sizes: number[];
  sampleLimit: number;
}

/** One resize step of one algorithm, in transferable form. */
export interface ResizeStep {
  algorithm: string;
  from: number;
  to: number;
  total: number;
  moved: number;
  minimumMovedExpected: number;
  loadsBefore: Float64Array;
  loadsAfter: Float64Array;
  /** Row-major from x to, or null when too large to keep. */
  flows: Float64Array | null;
  /** Per source bucket (length from, or 0 when flows is null). */
  flowMovedOut: Float64Array;
  flowChiSquare: Float64Array;
  flowDof: Float64Array;
  /** The first moved keys. */
  sampleValues: BigUint64Array;
  sampleOld: Int32Array;
  sampleNew: Int32Array;
  /** Printed forms of the sample keys that are strings: [index, label]. */
  sampleLabels: [number, string][];
}
export interface ResizeReply {
  keyCount: number;
  steps: ResizeStep[];
}

export interface LoadRequest {
  kind: 'load';
  algos: string[];
  keys: string;
  n: number;
}
export interface LoadItem {
  algorithm: string;
  n: number;
  loads: Float64Array;
  total: number;
  min: number;
  max: number;
  mean: number;
  maxOverMean: number;
  chiSquare: number;
  degreesOfFreedom: number;
}
export interface LoadReply {
  keyCount: number;
  items: LoadItem[];
}

export interface CompareRequest {
  kind: 'compare';
  keys: string;
  from: number;
  to: number;
  n: number;
}
export interface CompareRow {
  info: AlgorithmInfo;
  total: number;
  moved: number;
  minimumMovedExpected: number;
  maxOverMean: number;
  chiSquare: number;
  degreesOfFreedom: number;
  /** Largest per-source chi-square / dof of the resize's flows (null when not kept). */
  worstFlowChiPerDof: number | null;
  /** Measured with the batched buckets() call, in this browser. */
  lookupsPerSecond: number;
  nsPerLookup: number;
}
export interface CompareReply {
  keyCount: number;
  rows: CompareRow[];
}

export type Request =
  | ({ kind: 'info' })
  | ComputeRequest
  | KeyCountRequest
  | RunRequest
  | CheckRequest
  | ResizeRequest
  | LoadRequest
  | CompareRequest;

export interface ReplyMap {
  info: InfoReply;
  compute: ComputeReply;
  keyCount: number;
  run: RunReply;
  check: CheckReply;
  resize: ResizeReply;
  load: LoadReply;
  compare: CompareReply;
}

export type WorkerMessage =
  | { id: number; type: 'progress'; done: number; total: number; phase: string }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; message: string; field?: Field };
