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
 * Options of {@link loadJumphash}, {@link loadChecker} and {@link loadClaims}: where the `.wasm`
 * comes from when the default does not fit (pass at most one of the two).
 * By default the default entry loads the `.wasm` beside its JavaScript
 * (`new URL('../dist/<file>.wasm', import.meta.url)`, which Vite and webpack
 * turn into an emitted asset; Node reads the file), and the
 * `jumphash-wasm/inline` entry uses the copy embedded in its JavaScript.
 */
export interface LoadOptions {
  /**
   * The bytes of `jumphash_wasm.wasm` (of `jumphash_checker_wasm.wasm` for
   * {@link loadChecker}, of `jumphash_claims_wasm.wasm` for
   * {@link loadClaims}), when the caller already has them (from a cache, a
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
 * An algorithm's registry name. Names are matched case-insensitively; the
 * union lists today's names for editors, any string is accepted and an
 * unknown one is a RangeError that lists the known names.
 */
export type AlgorithmName =
  | 'jump' | 'jump-guava' | 'jumpback' | 'jumpback-indep' | 'modulo'
  | 'ketama' | 'libketama' | 'nginx' | 'groupcache' | 'rendezvous'
  | 'envoy-ring' | 'maglev' | 'memento' | 'memento-java'
  | (string & {});

/**
 * An algorithm argument: its name, its name followed by ALGO's options
 * (`'maglev table=251'`), or `{ name, options }` (`{ name: 'maglev',
 * options: { table: 251 } }`). Options are checked by the core with ALGO's
 * messages; bucket-count algorithms take none.
 */
export type AlgorithmChoice = AlgorithmName | { name: AlgorithmName; options?: Record<string, string | number> };

/**
 * The two kinds of algorithm: `bucket-count` ones map a key to 0 ..= n-1
 * (on a node list: `nodes[bucket(key, nodes.length)]`, so removing a middle
 * node renumbers the rest); `node-set` ones build a structure from named,
 * weighted nodes (a ring, a table, a replacement table) as a real client
 * does, and hash the key's bytes.
 */
export type AlgorithmKind = 'bucket-count' | 'node-set';

/** One option of a node-set algorithm (`ALGO maglev table=251`). */
export interface OptionInfo {
  /** The option's name, e.g. "table". */
  readonly name: string;
  /** Its value when not given, e.g. "65537". */
  readonly defaultValue: string;
  /** One line: what it changes. */
  readonly description: string;
  /** The allowed values; empty for integer options (then `min`..`max`). */
  readonly choices: string[];
  /** Smallest integer value (integer options only; 0 otherwise). */
  readonly min: number;
  /** Largest integer value (integer options only; 0 otherwise). */
  readonly max: number;
}

/** What one algorithm accepts. */
export interface AlgorithmLimits {
  /** Largest bucket count: 2147483647 for bucket-count algorithms, the node limit (100000) for node-set ones (n means nodes "0".."n-1"). */
  readonly maxBuckets: number;
  /** Largest `trace` max: 2147483647, 1000000 for modulo, 0 for node-set algorithms (no jump history). */
  readonly maxTrace: number;
}

/** The core's limits, one table (also in the CLI's `--help`). */
export interface Limits {
  /** Largest bucket count of `bucket`, `buckets` and the command language. */
  readonly maxBuckets: number;
  /** Largest bucket count of the reports (`moved`, `load`), which keep one count per bucket. */
  readonly maxLoadBuckets: number;
  /** Largest `trace` max for modulo. */
  readonly maxModuloTrace: number;
  /** Most keys in one key set. */
  readonly maxKeysPerSet: number;
  /** Most nodes in one node list. */
  readonly maxNodes: number;
  /** Largest node weight. */
  readonly maxNodeWeight: number;
  /** Longest node name, in UTF-8 bytes. */
  readonly maxNodeNameBytes: number;
  /** Most points (ring entries, table slots) one placement may hold. */
  readonly maxPlacementPoints: number;
  /** Largest before x after flow matrix a resize report keeps. */
  readonly maxFlowCells: number;
  /** Most lines the checker compares on each side. */
  readonly maxCheckedLines: number;
  /** Largest student output `check()` reads, in bytes. */
  readonly maxCheckOutputBytes: number;
  /** Largest script `run()` and `runStream()` take, in bytes. */
  readonly maxScriptBytes: number;
  /** Most output `run()` collects, in bytes. */
  readonly maxRunOutputBytes: number;
  /** The page's bound on one `runStream()`'s output, in bytes (pass it as `maxOutputBytes`). */
  readonly maxStreamOutputBytes: number;
  /** The page's bound on an embedded console's automatic run, in lookups (`maxLookups`). */
  readonly maxEmbedLookups: number;
  /** Longest field of a shared link, in characters (the page enforces it). */
  readonly maxLinkFieldChars: number;
  /** Longest shared link the page writes, its address included, in characters. */
  readonly maxLinkChars: number;
  /** Longest list the page takes from one paste or drop into a Keys box, in characters. */
  readonly maxPastedListChars: number;
  /** The whole table, in the order `jumphash --help` and the README list it. */
  readonly table: readonly LimitRow[];
}

/** One row of the core's limits table. */
export interface LimitRow {
  /** Stable identifier, e.g. "keys-per-set". */
  readonly name: string;
  /** The largest allowed value. */
  readonly value: number;
  /** What the value counts: "keys", "bytes", ... */
  readonly unit: string;
  /** What it bounds, for a reader. */
  readonly bounds: string;
  /** "core" (every face checks it) or "page" (the web page only). */
  readonly enforcedBy: 'core' | 'page';
}

/**
 * One entry of the core's algorithm registry (the same list the CLI's
 * `ALGO` command accepts, in the same order).
 */
export interface AlgorithmInfo {
  /** Stable identifier, e.g. "jump" or "ketama". */
  readonly name: string;
  /** Bucket-count or node-set. */
  readonly kind: AlgorithmKind;
  /** Human-readable name. */
  readonly title: string;
  /** Where the algorithm comes from: the paper, or the library and version it matches bit for bit. */
  readonly paper: string;
  /** Expected work per lookup, in words (e.g. "ln(n) + 1 iterations"). */
  readonly expectedCost: string;
  /** The state it keeps, in words (measured: {@link Cluster.stateBytes}). */
  readonly memory: string;
  /** True when growing by one bucket or node moves only the keys the new one must take. */
  readonly consistent: boolean;
  /** True when any bucket or node (not only the last) can be removed moving only its keys. */
  readonly removesAnyBucket: boolean;
  /** True when node weights change the shares (others ignore weights). */
  readonly weights: boolean;
  /** Node-set options (ALGO name option=value); empty for bucket-count algorithms. */
  readonly options: OptionInfo[];
  /** What it accepts. */
  readonly limits: AlgorithmLimits;
}

/** A node as you pass it: a name (UTF-8 text without control characters, 1 ..= 1024 bytes, unique in its list) and a weight. */
export interface NodeSpec {
  /** The node's name, e.g. "10.0.0.1:11211". */
  name: string;
  /**
   * An integer 1 ..= 1000000.
   * @defaultValue 1
   */
  weight?: number;
}

/** A node as the results give it back. */
export interface ClusterNode {
  /** The node's name. */
  readonly name: string;
  /** Its weight, 1 ..= 1000000. */
  readonly weight: number;
}

/**
 * One change to a node list, as MOVED's edits (`-name`, `+name*w`, `=name*w`):
 * remove any node, add one at the end, or change a weight.
 */
export type NodeChange =
  | { kind: 'remove'; name: string }
  | { kind: 'add'; name: string; weight?: number }
  | { kind: 'reweight'; name: string; weight: number };

/**
 * Where keys are placed: a bucket count (a number, or `{ kind: 'count', n }`;
 * a node-set algorithm reads n as nodes "0".."n-1", 1 ..= 100000) or a list
 * of named nodes, each optionally followed by changes already made to it
 * (`edits`, applied in order: memento's table depends on the order of
 * removals, so a scenario step is its list plus the edits before it).
 */
export type Topology =
  | number
  | { kind: 'count'; n: number; edits?: NodeChange[] }
  | { kind: 'nodes'; nodes: NodeSpec[]; edits?: NodeChange[] };

/**
 * An algorithm placed on a topology: the structure a real client holds,
 * built once for many lookups. Holds WebAssembly memory until
 * {@link Cluster.dispose}.
 */
export interface Cluster {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Its options as ALGO's assignments (e.g. "table=251"), "" when none were given. */
  readonly options: string;
  /** The nodes in list order (after the topology's edits); results index into this. */
  readonly nodes: ClusterNode[];
  /** Bytes of lookup state (ring points, tables, replacement entries), measured from the core; 0 for bucket-count algorithms. */
  readonly stateBytes: number;
  /**
   * The index into {@link Cluster.nodes} of the node a key lands on.
   * Node-set algorithms hash a numeric key's decimal text and a string key's UTF-8 bytes.
   * @throws TypeError when `key` is a `number`; RangeError with the CLI's message for bad key text.
   */
  bucket(key: bigint | string): number;
  /**
   * The node indices of many numeric keys (each hashed as its decimal text by node-set algorithms).
   * @throws TypeError when `keys` is not a BigUint64Array or `out` not an Int32Array; RangeError when `out` is too short.
   */
  buckets(keys: BigUint64Array, out?: Int32Array): Int32Array;
  /** Frees its WebAssembly memory. Idempotent. */
  dispose(): void;
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

/** The mistakes the checker names (see {@link CheckDiagnosis}). */
export type DiagnosisId =
  | 'js-number' | 'integer-division' | 'key-as-double' | 'off-by-one-n' | 'guava-rounding'
  | 'other-algorithm' | 'moved-estimated' | 'no-64-bit-wrap' | 'index-renumbering';

/** The verdict of one line of a check (see {@link CheckLine}). */
export type CheckVerdict = 'match' | 'wrong-value' | 'wrong-format' | 'missing' | 'extra' | 'out-of-order';

/** One mistake that reproduces or explains a line, from {@link Checker.check}. */
export interface CheckDiagnosis {
  /** Stable identifier of the mistake. */
  readonly id: DiagnosisId;
  /** This line's evidence, e.g. `at n - 1 = 99 jump gives 42`. */
  readonly detail: string;
  /** One paragraph: why this mistake gives this number. */
  readonly explanation: string;
  /** How to fix the program. */
  readonly fix: string;
}

/** The verdict of one expected line (or one extra line of the student's). */
export interface CheckLine {
  /** What the line is: a match, a wrong value or format, missing, extra, or out of order. */
  readonly verdict: CheckVerdict;
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

/** Bounds on one {@link Jumphash.runStream}; 0 or absent means no bound. */
export interface RunBudget {
  /** Lookups the run may compute (one per key for HASH, BUCKETS and LOAD, two for MOVED). */
  maxLookups?: number;
  /** Bytes of output and error lines together. */
  maxOutputBytes?: number;
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

/** Options of a chunked job ({@link Jumphash.startResize}, {@link Jumphash.startLoad}). */
export interface KeyRangeOptions {
  /**
   * Only the keys at positions `begin ..= end-1` of the key set (integers,
   * 0 <= begin <= end <= the key count): a part of the report, for splitting
   * it across Web Workers (each with its own module). One job then adds
   * the others' results with {@link Job.absorb}, each part beside the keys
   * it covers so far; the whole is the same report, bit for bit.
   * @defaultValue every key
   */
  keyRange?: readonly [begin: number, end: number];
  /**
   * Count the keys from the range's end down: each {@link Job.step} takes
   * the keys just before those done so far, and the result's `keyRange` is
   * `[end - done, end]`. The counts and the moved-key sample (the first
   * moved keys in key order) are those of the same keys counted up. Two
   * jobs, one counting up from a range's begin and one down from its end,
   * can meet wherever each has got to ({@link Job.endHere}), as the
   * playground's workers do, so that neither waits for the other.
   * @defaultValue false
   */
  fromEnd?: boolean;
}

/** Options of {@link Jumphash.startLoad}. */
export interface LoadJobOptions extends KeyRangeOptions {}

/** Options of {@link Jumphash.load}. */
export interface LoadOptions extends LoadJobOptions, ProgressOptions {}

/** Options of {@link Jumphash.startResize}. */
export interface ResizeJobOptions extends KeyRangeOptions {
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
  /** Its bucket among `from` buckets (on node lists: its node's index in `nodesBefore`). */
  readonly oldBucket: number;
  /** Its bucket among `to` buckets (on node lists: its node's index in `nodesAfter`). */
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

/**
 * The structured resize report: what changes when n goes from `from` to
 * `to`, or when a node list changes. On node lists every "bucket" below is
 * an index into `nodesBefore` (sources) or `nodesAfter` (destinations); a
 * key "moved" when its node (by name) differs.
 */
export interface ResizeResult {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Bucket or node count before, 1 ..= 1000000 (node lists: 1 ..= 100000). */
  readonly from: number;
  /** Bucket or node count after. */
  readonly to: number;
  /** The nodes before, in list order; null for a bucket-count algorithm on bucket counts. */
  readonly nodesBefore: ClusterNode[] | null;
  /** The nodes after; null as `nodesBefore`. */
  readonly nodesAfter: ClusterNode[] | null;
  /** Keys looked at. */
  readonly total: number;
  /** Keys whose bucket differs between `from` and `to`. */
  readonly moved: number;
  /**
   * The fewest keys any scheme must move, in expectation:
   * total x |to - from| / max(from, to) for bucket counts; on node lists
   * total x the shares the nodes lose (weight / total weight for algorithms
   * that honour weights, else 1 / nodes; a removed node loses all of its).
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
  /** One entry per source bucket 0 ..= from-1; empty when `flows` is null and on node lists. */
  readonly flowBalance: FlowBalance[];
  /** The first moved keys, at most `sampleLimit` of them, in key-set order. */
  readonly sample: MovedKeySample[];
  /** Positions of the keys counted, `[begin, end)` of the key set (with parts absorbed: from the first part's begin to the last part's end). */
  readonly keyRange: readonly [begin: number, end: number];
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

/** The load report: how many keys each of n buckets (or nodes) holds. */
export interface LoadResult {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Bucket count, 1 ..= 1000000, or the number of nodes. */
  readonly n: number;
  /** The nodes in list order (`loads[i]` is `nodes[i]`'s); null for a bucket-count algorithm on a bucket count. */
  readonly nodes: ClusterNode[] | null;
  /**
   * Each node's fair share of the keys (they sum to 1): weight / total weight
   * for algorithms that honour weights, 1 / n otherwise; null as `nodes`.
   * `stats` compares against the uniform share.
   */
  readonly idealShares: Float64Array | null;
  /** Keys per bucket (length n). */
  readonly loads: Float64Array;
  /** Balance of `loads`. */
  readonly stats: LoadStats;
  /** Positions of the keys counted, as {@link ResizeResult.keyRange}. */
  readonly keyRange: readonly [begin: number, end: number];
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
  /** Keys of the job: the key set's, or its `keyRange`. */
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
  /**
   * Adds `part`, the result of another job over the same report (the same
   * algorithm, topologies and key set) whose `keyRange` starts where this
   * job's keys (and the parts absorbed so far) end, or ends where they
   * begin: counts, loads and flows are summed by the core, the part's
   * moved keys go after the sample or in front of it, and
   * {@link Job.result} then covers both, exactly as one job over all those
   * keys. So any of the jobs may merge the others: the one that finishes
   * last, say. The part may come from another module instance (a Web
   * Worker's result, cloned). This job must be stepped to its end first.
   * @throws TypeError when `part` is not a result; Error when this job is not finished or was disposed;
   *   RangeError for a part of another algorithm, another shape or a key range on neither side.
   */
  absorb(part: R): void;
  /**
   * Ends the job's keys where its counting has got to: the keys not done
   * yet are no longer its, `total` becomes `done`, and the job is finished
   * (for a job another took the rest of the range from: one counting from
   * the other end, {@link KeyRangeOptions.fromEnd}).
   * @throws Error after dispose.
   */
  endHere(): void;
  /** Frees the job's WebAssembly memory. Idempotent. */
  dispose(): void;
}

/**
 * A resize's moved-key sample in columns ({@link ResizeJob.resultInColumns}):
 * entry i of each array is sampled key i, in key order.
 */
export interface MovedKeyColumns {
  /** The keys' 64-bit values. */
  readonly values: BigUint64Array;
  /** Their buckets (node indices) before, as {@link MovedKeySample.oldBucket}. */
  readonly oldBuckets: Int32Array;
  /** Their buckets (node indices) after, as {@link MovedKeySample.newBucket}. */
  readonly newBuckets: Int32Array;
  /**
   * [index, printed key] for the keys that do not print as their value in
   * decimal (string keys, quoted as written); every other key prints as
   * `values[index].toString()`.
   */
  readonly labels: [number, string][];
}

/**
 * The non-zero cells of a flow matrix ({@link ResizeResult.flows}), in index
 * order: `flows[index[i]] = count[i]`. When two thirds or more of the cells
 * are non-zero (modulo, say), the list would take more room than the
 * matrix: then `index` is null and `count` is the whole matrix, as `flows`.
 */
export interface FlowCells {
  /** Each cell's position in the row-major from x to matrix, ascending; null: `count` is the whole matrix. */
  readonly index: Uint32Array | null;
  /** Each cell's keys (at least 1 where `index` is given). */
  readonly count: Float64Array;
}

/**
 * {@link ResizeResult.flowBalance} in columns ({@link ResizeJob.resultInColumns}):
 * entry `source` of each array is that source bucket's {@link FlowBalance}
 * field, so each has `from` entries (none when the report keeps no flows,
 * and on node lists). The three are views of one ArrayBuffer, which a
 * Worker transfers at once.
 */
export interface FlowBalanceColumns {
  /** Keys that left each source bucket. */
  readonly movedOut: Float64Array;
  /** Pearson's chi-square of their destinations against uniform (0 when none moved). */
  readonly chiSquare: Float64Array;
  /** Destinations - 1 (0 when none moved or only one destination is possible). */
  readonly degreesOfFreedom: Float64Array;
}

/** {@link ResizeJob.resultInColumns}: {@link ResizeResult} with the sample and the flow balance in columns. */
export type ResizeResultInColumns = Omit<ResizeResult, 'sample' | 'flowBalance'> & {
  /** The first moved keys, in columns. */
  readonly sample: MovedKeyColumns;
  /** One entry per source bucket in each column; empty when `flows` is null and on node lists. */
  readonly flowBalance: FlowBalanceColumns;
};

/**
 * {@link ResizeJob.resultInColumns} with `{ flows: 'cells' }`: the flow
 * matrix as its non-zero cells instead of `flows` (1000 -> 1001 buckets:
 * about 2,000 cells, 24 KB, instead of 8 MB of doubles), the sample in columns.
 */
export type ResizeResultWithCells = Omit<ResizeResult, 'sample' | 'flows' | 'flowBalance'> & {
  /** As {@link ResizeResultInColumns}'s. */
  readonly sample: MovedKeyColumns;
  /** As {@link ResizeResultInColumns}'s. */
  readonly flowBalance: FlowBalanceColumns;
  /** The flow matrix's non-zero cells; null when the report keeps no matrix (as `flows`). */
  readonly flowCells: FlowCells | null;
};

/**
 * A resize job's counts as one part of a report split by key range
 * ({@link ResizeJob.partResult}): what {@link ResizeJob.absorb} adds, in
 * the form that is cheapest to post between Workers. The flow matrix comes
 * as its non-zero cells (1000 -> 1001 buckets: about 2,000 of 1,001,000
 * cells, 24 KB instead of 8 MB), the sample in columns, and nothing that
 * the merged report derives (flowBalance, minimumMovedExpected, the nodes).
 */
export interface ResizePart {
  /** Registry name of the algorithm. */
  readonly algorithm: string;
  /** Bucket or node count before (the length of `loadsBefore`). */
  readonly from: number;
  /** Bucket or node count after (the length of `loadsAfter`). */
  readonly to: number;
  /** Keys of the part. */
  readonly total: number;
  /** Its keys that moved. */
  readonly moved: number;
  /** As {@link ResizeResult.loadsBefore}. */
  readonly loadsBefore: Float64Array;
  /** As {@link ResizeResult.loadsAfter}. */
  readonly loadsAfter: Float64Array;
  /** The non-zero cells of {@link ResizeResult.flows}; null when the report keeps no matrix. */
  readonly flowCells: FlowCells | null;
  /** The part's first moved keys, as {@link ResizeResult.sample}, in columns. */
  readonly sample: MovedKeyColumns;
  /** As {@link ResizeResult.keyRange}. */
  readonly keyRange: readonly [begin: number, end: number];
}

/**
 * A {@link ResizePart} without its moved keys (`partResult({ sample: false })`),
 * for a caller that took them from the job before, once final
 * ({@link ResizeJob.sampleFinal}). {@link ResizeJob.absorb} refuses it:
 * put the sample taken before back in first.
 */
export type ResizePartCounts = Omit<ResizePart, 'sample'> & { readonly sample: null };

/** A chunked {@link Jumphash.moved}. */
export interface ResizeJob extends Job<ResizeResult> {
  /**
   * {@link Job.result} with the sample and the flow balance in columns: no
   * object or string per key (a sample of 200,000 keys: about 25 ms, where
   * result() takes 120-230 ms) or per source bucket (10^6 -> 4 buckets:
   * 10^6 objects), and typed arrays that a Worker can transfer. With
   * `{ flows: 'cells' }` the flow matrix comes as its non-zero cells
   * ({@link ResizeResultWithCells}): a 1000 x 1001 matrix is 8 MB of
   * doubles, and writing them to fresh memory took about 30 ms here.
   * @throws TypeError for other options; Error after dispose.
   */
  resultInColumns(options?: { readonly flows?: 'matrix' }): ResizeResultInColumns;
  /** {@link ResizeJob.resultInColumns} with the flows as their non-zero cells. */
  resultInColumns(options: { readonly flows: 'cells' }): ResizeResultWithCells;
  /**
   * This job's counts for another job's {@link ResizeJob.absorb}: what a
   * Worker that took one key range posts to the one that merges. Cheaper
   * than {@link Job.result} to make, post and absorb, because a resize
   * leaves most of its flow matrix at zero.
   * With `{ sample: false }`, the moved keys are not copied out of the
   * module (`sample` is null): for a caller that took them before, with a
   * partResult() once {@link ResizeJob.sampleFinal}, while the job went on
   * counting (a list of 200,000 keys took 11-23 ms to copy in Chromium).
   * @throws TypeError for other options; Error after dispose.
   */
  partResult(options?: { readonly sample?: true }): ResizePart;
  /** {@link ResizeJob.partResult} without the moved keys: `sample` is null. */
  partResult(options: { readonly sample: false }): ResizePartCounts;
  /**
   * Whether the keys this job has still to count can no longer change its
   * moved-key sample: it has counted every key, or it counts up (not
   * {@link KeyRangeOptions.fromEnd}) and holds `sampleLimit` keys, which
   * are the first moved and stay so. (Counted from the end, each key goes in
   * front of the list.) Parts absorbed later still join it.
   * @throws Error after dispose.
   */
  readonly sampleFinal: boolean;
  /**
   * {@link Job.absorb}, which also takes a {@link ResizePart} (or the same
   * with its sample as objects) or a result in columns.
   */
  absorb(part: ResizeResult | ResizePart | ResizeResultInColumns | ResizeResultWithCells): void;
}
/** A chunked {@link Jumphash.load}. */
export type LoadJob = Job<LoadResult>;

/** An instance of the WebAssembly module. Not shared between workers. */
export interface Jumphash {
  /** Version of the core and of this package, e.g. "0.1.0". */
  readonly version: string;

  /**
   * Every algorithm of the core's registry, in its fixed order (the
   * bucket-count ones first), with its kind, capabilities, options and
   * limits: fresh objects each call.
   */
  algorithms(): AlgorithmInfo[];

  /** The core's limits, one table. */
  limits(): Limits;

  /**
   * How `buckets()` and the reports look keys up in batches: "simd128"
   * (WebAssembly SIMD, two keys a vector, for jump, jumpback and
   * jumpback-indep; bit-identical to the scalar functions) or "scalar".
   */
  batchPath(): 'simd128' | 'scalar';

  /**
   * Chooses the batch path of this instance, for tests and benchmarks that
   * compare the two.
   * @throws RangeError when `path` is not "simd128" or "scalar", or this build has no such path.
   */
  setBatchPath(path: 'simd128' | 'scalar'): void;

  /**
   * The words of the command language that {@link Jumphash.run} reads, from
   * the core's own lists: every command and every algorithm name.
   */
  language(): LanguageWords;

  /**
   * Parses a node list as people type it: NODES tokens (`name`, `name*weight`,
   * `"quoted name"*2`) separated by spaces, commas or newlines; `#` starts a
   * comment to the end of the line.
   * @returns the nodes in order (weight 1 when not given).
   * @throws RangeError with the CLI's message (NODES) for a bad name, weight, a repeated name, none, or too many.
   */
  parseNodes(text: string): ClusterNode[];

  /**
   * Parses changes as people type them: MOVED's edits (`-name`, `+name`,
   * `+name*w`, `=name*w`) separated by spaces, commas or newlines.
   * Whether each applies (the node exists, the name is new) is checked
   * against a list by the calls that take changes.
   * @returns the changes in order (empty for empty text).
   * @throws RangeError with the CLI's message for a malformed edit.
   */
  parseChanges(text: string): NodeChange[];

  /**
   * Places an algorithm on a topology once, for many lookups; also the
   * measured state size. Build time is yours to measure around this call.
   * @throws TypeError for a malformed topology; RangeError with the CLI's
   *   message for a bad name, weight, option, edit or limit (e.g. too many ring points).
   */
  cluster(algo: AlgorithmChoice, topology: Topology): Cluster;

  /**
   * The bucket of one key, or the index of its node on a node list.
   * @param algo - an algorithm (see {@link AlgorithmChoice}).
   * @param key - 0n ..= 2n**64n-1n, or key text: decimal, `0x` + 1 to 16 hex
   *   digits, or a double-quoted string (its XXH3-64; node-set algorithms
   *   hash the string's bytes and a number's decimal text).
   * @param topology - a bucket count, an integer 1 ..= 2147483647, or a
   *   {@link Topology}. The last node topology is kept built between calls.
   * @returns the bucket, 0 ..= n-1 (node index, 0 ..= nodes-1).
   * @throws TypeError when `key` is a `number` (doubles cannot hold 64-bit keys)
   *   or not a bigint/string, or the topology is malformed.
   * @throws RangeError with the CLI's message for an unknown algorithm, a bad key, n or node list.
   */
  bucket(algo: AlgorithmChoice, key: bigint | string, topology: Topology): number;

  /**
   * The buckets (node indices) of many keys in one call (the fast path).
   * @param keys - the keys.
   * @param topology - a bucket count, an integer 1 ..= 2147483647, or a {@link Topology}.
   * @param out - where to write the buckets (length at least `keys.length`);
   *   reusing one array across calls avoids allocating fresh memory each
   *   time, which costs about 1 ns per key. Default: a new Int32Array.
   * @returns `out` (or the new array), where `out[i]` is the bucket of `keys[i]`.
   * @throws TypeError when `keys` is not a BigUint64Array or `out` not an Int32Array.
   * @throws RangeError with the CLI's message for an unknown algorithm or a bad topology;
   *   RangeError when `out` is shorter than `keys`.
   */
  buckets(algo: AlgorithmChoice, keys: BigUint64Array, topology: Topology, out?: Int32Array): Int32Array;

  /**
   * Runs a script of the command language (ALGO, HASH, KEYS, BUCKETS, MOVED,
   * LOAD, TRACE, NODES, REMOVE, ADD) exactly as the CLI does. Never throws for script errors:
   * they are in `stderr` and `exitCode`.
   */
  run(script: string): ScriptResult;

  /**
   * Runs a script as {@link Jumphash.run} does, but hands its output to
   * `onChunk` in pieces (whole lines, about 64 KiB each) as it is printed,
   * so output of any size never sits whole in memory: a 2*10^8-line BUCKETS
   * streams. Output and errors arrive in the order the CLI prints them.
   * Synchronous: `onChunk` is called before runStream returns.
   *
   * A budget bounds the run (0 or absent: no bound): `maxOutputBytes` ends
   * it after the last whole line that fits, with a `line N: error:` naming
   * the limit; `maxLookups` ends it before a command that would compute more
   * lookups than are left (see {@link Limits}: `streamOutputBytes` is the
   * page's bound).
   * @returns the exit status: 0 when every line ran, 1 when any failed or the budget ended the run.
   * @throws TypeError when `script` is not a string or `onChunk` not a function;
   *   RangeError when a budget is not a whole number 0..2^53-1.
   */
  runStream(script: string, onChunk: (stream: 'stdout' | 'stderr', text: string) => void, budget?: RunBudget): { exitCode: number };

  /**
   * {@link Jumphash.runStream} with each chunk as its UTF-8 bytes: no string
   * is made for it, so a run that prints gigabytes leaves no garbage for the
   * JavaScript engine to collect (copy the bytes, e.g. into a Blob, and
   * decode only what you show).
   *
   * `bytes` is a view of the module's memory, valid only until `onChunk`
   * returns; `lines` counts its '\n' and `chars` its UTF-16 code units (the
   * `length` the decoded text would have).
   * @throws as {@link Jumphash.runStream}.
   */
  runStreamBytes(
    script: string,
    onChunk: (stream: 'stdout' | 'stderr', bytes: Uint8Array, lines: number, chars: number) => void,
    budget?: RunBudget,
  ): { exitCode: number };

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
   * The resize report (the page's Resize view): moved keys against the
   * fewest possible, loads before and after, the source -> destination
   * matrix (the migration plan) and the first moved keys.
   * @param keySpec - KEYS arguments; the keys are generated inside WebAssembly.
   * @param from - the topology before: a bucket count 1 ..= 1000000 or a {@link Topology}.
   * @param to - the topology after, or the changes made to `from` (applied in
   *   order: `[{ kind: 'remove', name: 'cache-3' }]`), as MOVED's edits.
   * @throws TypeError for a malformed topology or change.
   * @throws RangeError with the CLI's message for a bad algorithm, key spec, count, node or edit.
   * @throws DOMException named "AbortError" when `onProgress` returned false.
   */
  moved(algo: AlgorithmChoice, keySpec: string, from: Topology, to: Topology | NodeChange[], options?: ResizeOptions): ResizeResult;

  /**
   * The chunked form of {@link Jumphash.moved}; call `step` until it returns true.
   * @throws RangeError as {@link Jumphash.moved}.
   */
  startResize(algo: AlgorithmChoice, keySpec: string, from: Topology, to: Topology | NodeChange[], options?: ResizeJobOptions): ResizeJob;

  /**
   * The load report: keys per bucket among n, or per node of a node list.
   * @param topology - a bucket count, 1 ..= 1000000, or a {@link Topology}.
   * @throws TypeError for a malformed topology.
   * @throws RangeError with the CLI's message for a bad algorithm, key spec, n or node list.
   * @throws DOMException named "AbortError" when `onProgress` returned false.
   */
  load(algo: AlgorithmChoice, keySpec: string, topology: Topology, options?: LoadOptions): LoadResult;

  /**
   * The chunked form of {@link Jumphash.load}; call `step` until it returns true.
   * @throws RangeError as {@link Jumphash.load}.
   */
  startLoad(algo: AlgorithmChoice, keySpec: string, topology: Topology, options?: LoadJobOptions): LoadJob;

  /**
   * The bucket counts at which a key's bucket changes, for n = 1 ..= max.
   * @param max - 1 ..= 2147483647 for consistent algorithms, 1 ..= 1000000 for modulo.
   * @throws TypeError when `key` is a `number`.
   * @throws RangeError with the CLI's message for a bad algorithm, key or max,
   *   and for node-set algorithms (a key has no jump history over n there).
   */
  trace(algo: AlgorithmChoice, key: bigint | string, max: number): TraceStep[];
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
   * @param options.maxLookups - bounds the run of the script (0 or absent: no bound), so a
   *   stranger's 10^9-key script ends with an error instead of running for minutes.
   * @throws TypeError when an argument is not a string, or options not an object.
   * @throws RangeError when either side has more than 1000000 lines, the output more than
   *   64 MiB (check-output-bytes), the script passes `maxLookups`, or maxLookups is not a whole number.
   */
  check(script: string, studentOutput: string, options?: { maxLookups?: number }): CheckResult;
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

/**
 * How a claim is judged: `deterministic` (an exact value, equal or not),
 * `statistical` (measured on a fixed list of keys, judged with a stated
 * tolerance) or `timing` (ratios of loops measured in one run, here).
 */
export type ClaimKind = 'deterministic' | 'statistical' | 'timing';

/**
 * The outcome of one run: `reproduced` (within the tolerance), `differs`
 * (not; `measured` says by how much) or `measured-only` (a timing table
 * whose published values are times on another machine: shown, not judged).
 */
export type ClaimVerdict = 'reproduced' | 'differs' | 'measured-only';

/** One claim of the catalogue (see {@link Claims.list}); the same text as `jumphash reproduce`. */
export interface ClaimInfo {
  /** Stable id, lower-case words joined by `-`, e.g. `jump-key-42-history`. */
  readonly id: string;
  /** What the source says, in one sentence. */
  readonly statement: string;
  /** The paper or article, by title and authors. */
  readonly source: string;
  /** The value(s) as published, with their context (machine, sizes). */
  readonly published: string;
  /** How it is measured here: keys, sizes, variants. */
  readonly method: string;
  /** What counts as reproduced. */
  readonly tolerance: string;
  /** How the claim is judged. */
  readonly kind: ClaimKind;
}

/** One named series of a {@link ClaimChart}: points (x[i], y[i]), equal lengths. */
export interface ClaimSeries {
  /** The legend's label, e.g. `H_n (expected loops)`. */
  readonly name: string;
  /** The x coordinates. */
  readonly x: Float64Array;
  /** The y coordinates. */
  readonly y: Float64Array;
}

/** Data for a chart where a curve says more than a number. */
export interface ClaimChart {
  /** The chart's title. */
  readonly title: string;
  /** The x axis's label, with its unit where it has one. */
  readonly xLabel: string;
  /** The y axis's label, with its unit where it has one. */
  readonly yLabel: string;
  /** Draw as a step function (a key's jump history). */
  readonly step: boolean;
  /** x spans orders of magnitude: use a logarithmic axis. */
  readonly logX: boolean;
  /** One or more series. */
  readonly series: ClaimSeries[];
}

/** What one run of a claim measured (see {@link Claims.run}). */
export interface ClaimResult {
  /** The claim's id. */
  readonly id: string;
  /** The measured value(s) in words, comparable with {@link ClaimInfo.published}. */
  readonly measured: string;
  /** Reproduced, differs or measured-only. */
  readonly verdict: ClaimVerdict;
  /** How long the run took, in milliseconds (wall clock, this instance). */
  readonly milliseconds: number;
  /** Chart data, or null when the claim has none. */
  readonly chart: ClaimChart | null;
}

/**
 * The articles' claims, re-measured in this process (a module of its own:
 * see {@link loadClaims}); the same catalogue as `jumphash reproduce`.
 */
export interface Claims {
  /** The core's version, e.g. `0.1.0` (equal to {@link Jumphash.version}). */
  readonly version: string;
  /** Every claim, in the catalogue's stable order (a fresh array each call). */
  list(): ClaimInfo[];
  /**
   * Runs the claim called `id` (exact, case-sensitive) and returns what it
   * measured and the verdict. Blocks for up to a few seconds (timing claims
   * longer): call it in a Web Worker.
   * @throws TypeError when `id` is not a string.
   * @throws RangeError for an unknown id: the message names it and lists every known id.
   */
  run(id: string): ClaimResult;
}

/**
 * Instantiates the WebAssembly module of the articles' claims. It is a
 * separate download (about 95 KB gzipped), imported only when this is
 * called, so pages that never show the claims do not pay for it. Each call
 * makes a new, independent instance; in Node it reads its `.wasm` itself.
 * @throws Error when the `.wasm` cannot be fetched, read or compiled: the
 *   message names the URL or path tried, what came back (HTTP status, the
 *   first bytes) and the two fixes (the `jumphash-wasm/inline` entry, or the
 *   `wasmUrl`/`wasmBinary` options). Nothing is printed to the console.
 * @throws TypeError for options of the wrong type.
 */
export function loadClaims(options?: LoadOptions): Promise<Claims>;
