/**
 * jumphash-wasm: the jumphash C++ core (JumpHash, JumpBackHash and friends,
 * key sets, resize/load/trace reports and the exercise's command language)
 * compiled to WebAssembly, behind a typed API.
 *
 * Keys are 64-bit unsigned integers. They are always `bigint` (or the command
 * language's key text), never a JavaScript `number`: a double holds integers
 * exactly only up to 2^53, so a `number` key would silently be a different key.
 *
 * Every error caused by a bad argument is a `RangeError` whose message is the
 * text the native CLI prints after `line N: error: ` for the same input, with
 * the range the function accepts, and the function's name where the CLI
 * would name its command (`load: bucket count ...`, `trace: max ...`).
 * A wrong JavaScript type is a `TypeError` that names the function.
 *
 * The same module works, unchanged, in a browser page, in a Web Worker and in
 * Node.js 20.19 or later. The `jumphash-wasm/inline` entry has exactly these
 * declarations, with the `.wasm` embedded in its JavaScript.
 *
 * @packageDocumentation
 */

/**
 * Options of {@link loadJumphash} and {@link loadChecker}: where the `.wasm`
 * comes from when the default does not fit (pass at most one of the two).
 * By default the default entry loads the `.wasm` beside its JavaScript
 * (`new URL('../dist/<file>.wasm', import.meta.url)`, which Vite and webpack
 * turn into an emitted asset; Node reads the file), and the
 * `jumphash-wasm/inline` entry uses the copy embedded in its JavaScript.
 */
export interface LoadOptions {
  /**
   * The bytes of `jumphash_wasm.wasm` (of `jumphash_checker_wasm.wasm` for
   * {@link loadChecker}), when the caller already has them (from a cache, a
   * bundler, a file it read itself).
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the `.wasm` is served (Emscripten's `locateFile`, for one file),
   * e.g. the URL a bundler's asset import of
   * `jumphash-wasm/jumphash_wasm.wasm` gives. A relative string is relative
   * to the page (in Node: to the working directory); a `file:` URL is read
   * from disk in Node. A `URL` object is accepted (typed by its `href`, so
   * that these declarations need no DOM or Node types).
   */
  wasmUrl?: string | { readonly href: string };
}

/** The command language's words (see {@link Jumphash.language}). */
export interface LanguageWords {
  /** Command keywords, e.g. "ALGO", "NODES", in the order the CLI's help lists them. */
  commands: string[];
  /** Every algorithm name of the registry, bucket-count and node-set, in its order. */
  algorithms: string[];
}

/**
 * One entry of the core's algorithm registry (the same list the CLI's
 * `ALGO` command accepts, in the same order).
 */
export interface AlgorithmInfo {
  /** Stable identifier: "jump", "jump-guava", "jumpback", "jumpback-indep" or "modulo". */
  readonly name: string;
  /** Human-readable name. */
  readonly title: string;
  /** Where the algorithm comes from (paper or library). */
  readonly paper: string;
  /** Expected work per lookup, in words (e.g. "ln(n) + 1 iterations"). */
  readonly expectedCost: string;
  /** True when growing n to n+1 moves only about 1/(n+1) of the keys. */
  readonly consistent: boolean;
  /** True when the algorithm can drop a middle bucket without renumbering. */
  readonly removesAnyBucket: boolean;
}

/** A 64-bit key as parsed by {@link Jumphash.parseKey}. */
export interface ParsedKey {
  /** The key, 0 ..= 2^64-1. */
  readonly value: bigint;
  /**
   * How the key prints in the command language's output: the quoted string
   * exactly as written for string keys, the decimal value for numeric keys.
   */
  readonly label: string;
}

/** One mistake that reproduces or explains a line, from {@link Checker.check}. */
export interface CheckDiagnosis {
  /**
   * Stable identifier: `js-number`, `integer-division`, `key-as-double`,
   * `off-by-one-n`, `guava-rounding`, `other-algorithm`, `moved-estimated`,
   * `no-64-bit-wrap`.
   */
  readonly id: string;
  /** This line's evidence, e.g. `at n - 1 = 99 jump gives 42`. */
  readonly detail: string;
  /** One paragraph: why this mistake gives this number. */
  readonly explanation: string;
  /** How to fix the program. */
  readonly fix: string;
}

/** The verdict of one expected line (or one extra line of the student's). */
export interface CheckLine {
  /** `match`, `wrong-value`, `wrong-format`, `missing`, `extra` or `out-of-order`. */
  readonly verdict: string;
  /** 1-based line of the expected output; 0 for an extra line. */
  readonly expectedLine: number;
  /** 1-based line of the student's output; 0 for a missing line. */
  readonly actualLine: number;
  /** 1-based script line that printed the expected line (0 when none). */
  readonly scriptLine: number;
  /** That script line's text. */
  readonly command: string;
  /** The expected text ('' for an extra line). */
  readonly expected: string;
  /** The student's text ('' for a missing line). */
  readonly actual: string;
  /** For `wrong-format`: what is wrong with the text, e.g. `a tab where one space belongs`. */
  readonly formatProblem: string;
  /** Every mistake that reproduces the student's value exactly (may be empty). */
  readonly diagnoses: CheckDiagnosis[];
}

/** What {@link Checker.check} found. */
export interface CheckResult {
  /** Every expected line in order, with extra lines next to the command they belong to. */
  readonly lines: CheckLine[];
  /** How many expected lines match. */
  readonly matching: number;
  /** How many lines the script prints. */
  readonly expectedLines: number;
  /** How many lines the student's output has. */
  readonly actualLines: number;
  /** The script's own `line N: error: ...` messages (the expected output is what the other lines print). */
  readonly scriptErrors: string[];
  /** True when a very large stretch of output had to be paired by position instead of by key. */
  readonly alignedByPosition: boolean;
  /** Every expected line matches and there is no extra line. */
  readonly allMatch: boolean;
  /** The report exactly as `jumphash check SCRIPT OUTPUT` prints it. */
  readonly text: string;
}

/** What {@link Jumphash.run} printed. */
export interface ScriptResult {
  /** Everything the script printed to standard output, byte for byte as the CLI. */
  readonly stdout: string;
  /** The `line N: error: ...` lines, byte for byte as the CLI. */
  readonly stderr: string;
  /** 0 when every line ran, 1 when any line failed (as the CLI's exit status). */
  readonly exitCode: number;
}

/** Progress reporting and cancellation for the synchronous report functions. */
export interface ProgressOptions {
  /**
   * Keys computed between two calls of `onProgress`, 1 ..= 2^53-1.
   * @defaultValue 1048576
   */
  chunkSize?: number;
  /**
   * Called after each chunk with the keys done so far and the total number of
   * keys (both counts of keys). Returning `false` (exactly) cancels: the
   * function then throws a `DOMException` whose `name` is `"AbortError"`.
   */
  onProgress?: (done: number, total: number) => boolean | void;
}

/** Options of {@link Jumphash.startResize}. */
export interface ResizeJobOptions {
  /**
   * How many moved keys to keep in {@link ResizeResult.sample} (the first
   * ones, in key-set order), an integer 0 ..= 1000000.
   * @defaultValue 100
   */
  sampleLimit?: number;
}

/** Options of {@link Jumphash.moved}. */
export interface ResizeOptions extends ResizeJobOptions, ProgressOptions {}

/** One moved key of a resize. */
export interface MovedKeySample {
  /** The key as the CLI prints it (decimal, or the quoted string as written). */
  readonly key: string;
  /** The key's 64-bit value. */
  readonly value: bigint;
  /** Its bucket among `from` buckets. */
  readonly oldBucket: number;
  /** Its bucket among `to` buckets. */
  readonly newBucket: number;
}

/**
 * Where the keys that left one source bucket went, against a uniform spread
 * over the buckets they may go to (the new buckets when growing, the
 * surviving buckets when shrinking, any other bucket for non-consistent
 * algorithms).
 */
export interface FlowBalance {
  /** The source bucket, 0 ..= from-1. */
  readonly source: number;
  /** Keys that left it. */
  readonly movedOut: number;
  /** Pearson's chi-square of their destinations against uniform (0 when none moved). */
  readonly chiSquare: number;
  /** Destinations - 1 (0 when none moved or only one destination is possible). */
  readonly degreesOfFreedom: number;
}

/** The structured resize report: what changes when n goes from `from` to `to`. */
export interface ResizeResult {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Bucket count before, 1 ..= 1000000. */
  readonly from: number;
  /** Bucket count after, 1 ..= 1000000. */
  readonly to: number;
  /** Keys looked at. */
  readonly total: number;
  /** Keys whose bucket differs between `from` and `to`. */
  readonly moved: number;
  /**
   * The fewest keys any scheme must move, in expectation:
   * total x |to - from| / max(from, to).
   */
  readonly minimumMovedExpected: number;
  /** Keys per bucket among `from` buckets (length `from`). */
  readonly loadsBefore: Float64Array;
  /** Keys per bucket among `to` buckets (length `to`). */
  readonly loadsAfter: Float64Array;
  /**
   * Row-major `from` x `to` matrix of key counts: `flows[old * to + new]`
   * keys went from bucket `old` to bucket `new` (staying keys on the
   * diagonal). `null` when from x to exceeds 2^22 cells.
   */
  readonly flows: Float64Array | null;
  /** One entry per source bucket 0 ..= from-1; empty when `flows` is null. */
  readonly flowBalance: FlowBalance[];
  /** The first moved keys, at most `sampleLimit` of them, in key-set order. */
  readonly sample: MovedKeySample[];
}

/** Balance of a load vector against the uniform expectation total / n. */
export interface LoadStats {
  /** Keys counted. */
  readonly total: number;
  /** Fewest keys in one bucket. */
  readonly min: number;
  /** Most keys in one bucket. */
  readonly max: number;
  /** total / n. */
  readonly mean: number;
  /** max / mean; 0 when there are no keys. */
  readonly maxOverMean: number;
  /** Pearson's chi-square against uniform. */
  readonly chiSquare: number;
  /** n - 1. */
  readonly degreesOfFreedom: number;
}

/** The load report: how many keys each of n buckets holds. */
export interface LoadResult {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Bucket count, 1 ..= 1000000. */
  readonly n: number;
  /** Keys per bucket (length n). */
  readonly loads: Float64Array;
  /** Balance of `loads`. */
  readonly stats: LoadStats;
}

/** One row of a trace: from bucket count `n` on, the key sits in `bucket`. */
export interface TraceStep {
  /** Bucket count at which the key's bucket changes (1 is always the first row). */
  readonly n: number;
  /** The key's bucket among n buckets, 0 ..= n-1. */
  readonly bucket: number;
}

/**
 * A report computed in chunks, so that a Web Worker can post progress and
 * honour a cancel request between chunks. Holds WebAssembly memory until
 * {@link Job.dispose} is called.
 */
export interface Job<R> {
  /** Keys in the key set. */
  readonly total: number;
  /** Keys accounted for so far, 0 ..= total. */
  readonly done: number;
  /**
   * Accounts for up to `maxKeys` more keys (1 ..= 2^53-1).
   * @returns true when every key has been accounted for.
   * @throws RangeError when `maxKeys` is not a positive integer; Error after dispose.
   */
  step(maxKeys: number): boolean;
  /**
   * The report over the keys done so far (complete once `step` returned true).
   * @throws Error after dispose.
   */
  result(): R;
  /** Frees the job's WebAssembly memory. Idempotent. */
  dispose(): void;
}

/** A chunked {@link Jumphash.moved}. */
export type ResizeJob = Job<ResizeResult>;
/** A chunked {@link Jumphash.load}. */
export type LoadJob = Job<LoadResult>;

/** An instance of the WebAssembly module. Not shared between workers. */
export interface Jumphash {
  /** Version of the core and of this package, e.g. "0.1.0". */
  readonly version: string;

  /**
   * The bucket-count algorithms of the core's registry, in its fixed order:
   * the ones `bucket`, `buckets` and the reports take.
   */
  algorithms(): AlgorithmInfo[];

  /**
   * The words of the command language that {@link Jumphash.run} reads, from
   * the core's own lists: every command and every algorithm name (node-set
   * ones such as `ketama` too, which run() accepts).
   */
  language(): LanguageWords;

  /**
   * The bucket of one key.
   * @param algo - registry name, case-insensitive (see {@link Jumphash.algorithms}).
   * @param key - 0n ..= 2n**64n-1n, or key text: decimal, `0x` + 1 to 16 hex
   *   digits, or a double-quoted string (its XXH3-64).
   * @param n - bucket count, an integer 1 ..= 2147483647.
   * @returns the bucket, 0 ..= n-1.
   * @throws TypeError when `key` is a `number` (doubles cannot hold 64-bit keys)
   *   or not a bigint/string, or `n` is not a number.
   * @throws RangeError with the CLI's message for an unknown algorithm, a bad key or a bad n.
   */
  bucket(algo: string, key: bigint | string, n: number): number;

  /**
   * The buckets of many keys in one call (the fast path).
   * @param keys - the keys.
   * @param n - bucket count, an integer 1 ..= 2147483647.
   * @param out - where to write the buckets (length at least `keys.length`);
   *   reusing one array across calls avoids allocating fresh memory each
   *   time, which costs about 1 ns per key. Default: a new Int32Array.
   * @returns `out` (or the new array), where `out[i]` is the bucket of `keys[i]`, 0 ..= n-1.
   * @throws TypeError when `keys` is not a BigUint64Array or `out` not an Int32Array.
   * @throws RangeError with the CLI's message for an unknown algorithm or a bad n;
   *   RangeError when `out` is shorter than `keys`.
   */
  buckets(algo: string, keys: BigUint64Array, n: number, out?: Int32Array): Int32Array;

  /**
   * Runs a script of the command language (ALGO, HASH, KEYS, BUCKETS, MOVED,
   * LOAD, TRACE) exactly as the CLI does. Never throws for script errors:
   * they are in `stderr` and `exitCode`.
   */
  run(script: string): ScriptResult;

  /**
   * Validates a KEYS specification and counts its keys.
   * @param keySpec - KEYS arguments, e.g. `0..9999 random:100:7 "alice"`.
   * @returns the number of keys, 0 ..= 10^9.
   * @throws RangeError with the CLI's message for a bad specification.
   */
  keyCount(keySpec: string): number;

  /**
   * Parses one key of the command language.
   * @throws RangeError with the CLI's message for text that is not a key.
   */
  parseKey(key: string): ParsedKey;

  /**
   * The resize report (the page's Resize view): moved keys, loads before and
   * after, the source -> destination matrix and the first moved keys.
   * @param keySpec - KEYS arguments; the keys are generated inside WebAssembly.
   * @param from - bucket count before, 1 ..= 1000000.
   * @param to - bucket count after, 1 ..= 1000000.
   * @throws RangeError with the CLI's message for a bad algorithm, key spec or count.
   * @throws DOMException named "AbortError" when `onProgress` returned false.
   */
  moved(algo: string, keySpec: string, from: number, to: number, options?: ResizeOptions): ResizeResult;

  /**
   * The chunked form of {@link Jumphash.moved}; call `step` until it returns true.
   * @throws RangeError as {@link Jumphash.moved}.
   */
  startResize(algo: string, keySpec: string, from: number, to: number, options?: ResizeJobOptions): ResizeJob;

  /**
   * The load report: keys per bucket among n.
   * @param n - bucket count, 1 ..= 1000000.
   * @throws RangeError with the CLI's message for a bad algorithm, key spec or n.
   * @throws DOMException named "AbortError" when `onProgress` returned false.
   */
  load(algo: string, keySpec: string, n: number, options?: ProgressOptions): LoadResult;

  /**
   * The chunked form of {@link Jumphash.load}; call `step` until it returns true.
   * @throws RangeError as {@link Jumphash.load}.
   */
  startLoad(algo: string, keySpec: string, n: number): LoadJob;

  /**
   * The bucket counts at which a key's bucket changes, for n = 1 ..= max.
   * @param max - 1 ..= 2147483647 for consistent algorithms, 1 ..= 1000000 for modulo.
   * @throws TypeError when `key` is a `number`.
   * @throws RangeError with the CLI's message for a bad algorithm, key or max.
   */
  trace(algo: string, key: bigint | string, max: number): TraceStep[];
}

/**
 * Instantiates the WebAssembly module. Each call makes a new, independent
 * instance (use one per Web Worker).
 * @throws Error when the `.wasm` cannot be fetched, read or compiled: the
 *   message names the URL or path tried, what came back (HTTP status, the
 *   first bytes) and the two fixes (the `jumphash-wasm/inline` entry, or the
 *   `wasmUrl`/`wasmBinary` options). Nothing is printed to the console.
 * @throws TypeError for options of the wrong type.
 */
export function loadJumphash(options?: LoadOptions): Promise<Jumphash>;

/**
 * The exercise checker (a module of its own: see {@link loadChecker}).
 */
export interface Checker {
  /** The core's version, e.g. `0.1.0` (equal to {@link Jumphash.version}). */
  readonly version: string;
  /**
   * Runs `script`, compares `studentOutput` with its
   * output line by line and names the classic mistake that reproduces each
   * wrong value; the same report as `jumphash check`.
   * @param studentOutput - lines ending in `\n` or `\r\n` (a final newline is optional).
   * @throws TypeError when an argument is not a string.
   * @throws RangeError when either side has more than 1000000 lines.
   */
  check(script: string, studentOutput: string): CheckResult;
}

/**
 * Instantiates the exercise checker's WebAssembly module. It is a separate
 * download (about 110 KB gzipped), imported only when this is called, so
 * pages that never check output do not pay for it. Each call makes a new,
 * independent instance; in Node it reads its `.wasm` itself.
 * @throws Error when the `.wasm` cannot be fetched, read or compiled: the
 *   message names the URL or path tried, what came back (HTTP status, the
 *   first bytes) and the two fixes (the `jumphash-wasm/inline` entry, or the
 *   `wasmUrl`/`wasmBinary` options). Nothing is printed to the console.
 * @throws TypeError for options of the wrong type.
 */
export function loadChecker(options?: LoadOptions): Promise<Checker>;
