// jumphash-wasm: the typed JavaScript face of the jumphash core compiled to
// WebAssembly. The types and the documentation of every export are in
// index.d.ts (hand-written; test/api.test.mjs and test/types/ keep the two
// in step). Everything a user sees is decided here; bindings.cpp only
// registers the core's functions and two small chunked-report adapters.
//
// 64-bit keys are bigint on this side and uint64_t on the C++ side. They
// cross the boundary as a BigInt argument (exact), as text parsed by the
// core, or as a BigUint64Array over linear memory; never as a Number.

import createJumphashModule from '../dist/jumphash_wasm.mjs';

/** Path of the .wasm relative to this file (kept in a variable so that
 * bundlers do not treat it as a second asset: the Emscripten glue already
 * references it with `new URL("jumphash_wasm.wasm", import.meta.url)`). */
const WASM_PATH = '../dist/jumphash_wasm.wasm';
const NODE_FS = 'node:fs/promises';

const MAX_BUCKETS = 2147483647;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const KEY_LIMIT = 1n << 64n;
const DEFAULT_CHUNK = 1 << 20;
const DEFAULT_SAMPLE_LIMIT = 100;

function isNode() {
  return (
    typeof process === 'object' &&
    process !== null &&
    typeof process.versions === 'object' &&
    process.versions !== null &&
    typeof process.versions.node === 'string' &&
    typeof window === 'undefined'
  );
}

async function readWasmInNode(path = WASM_PATH) {
  const fs = await import(/* @vite-ignore */ NODE_FS);
  return fs.readFile(new URL(path, import.meta.url));
}

function numberKeyError(key) {
  return new TypeError(
    `key ${String(key)} is a JavaScript number: a double holds integers exactly only up to ` +
      `2^53, so it cannot carry a 64-bit key; pass a bigint (e.g. ${Number.isInteger(key) ? `${key}n` : '123n'}) ` +
      `or the key as text (e.g. '0x1F' or '"alice"')`,
  );
}

function abortError() {
  return new DOMException('jumphash: cancelled (onProgress returned false)', 'AbortError');
}

/** The Emscripten factory's options from loadJumphash/loadChecker's. */
async function moduleOptions(options, loader, wasmPath) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${loader} options must be an object`);
  }
  let { wasmBinary } = options;
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError('wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
  if (wasmBinary === undefined && isNode()) wasmBinary = await readWasmInNode(wasmPath);
  return wasmBinary === undefined ? {} : { wasmBinary };
}

/**
 * Instantiates the WebAssembly module; see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 */
export async function loadJumphash(options = {}) {
  const native = await createJumphashModule(await moduleOptions(options, 'loadJumphash', WASM_PATH));
  return createApi(native);
}

/** The checker's module, next to the core's (see WASM_PATH). */
const CHECKER_WASM_PATH = '../dist/jumphash_checker_wasm.wasm';

/**
 * Instantiates the exercise checker's module (a separate download, imported
 * only when called, so pages that never check output do not fetch it); see
 * index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array }} [options]
 */
export async function loadChecker(options = {}) {
  const factoryOptions = await moduleOptions(options, 'loadChecker', CHECKER_WASM_PATH);
  const { default: createCheckerModule } = await import('../dist/jumphash_checker_wasm.mjs');
  const m = await createCheckerModule(factoryOptions);
  const checker = {
    version: m.version(),

    check(script, studentOutput) {
      if (typeof script !== 'string') throw new TypeError('script must be a string');
      if (typeof studentOutput !== 'string') throw new TypeError('studentOutput must be a string');
      const native = m.check(script, studentOutput);
      if (native.error) throw new RangeError(native.error);
      const lines = [];
      for (let i = 0; i < native.lines.size(); ++i) {
        const line = native.lines.get(i);
        const diagnoses = [];
        for (let d = 0; d < line.diagnoses.size(); ++d) diagnoses.push(line.diagnoses.get(d));
        line.diagnoses.delete();
        lines.push({ ...line, diagnoses });
      }
      const scriptErrors = [];
      for (let i = 0; i < native.scriptErrors.size(); ++i) scriptErrors.push(native.scriptErrors.get(i));
      native.lines.delete();
      native.scriptErrors.delete();
      const { matching, expectedLines, actualLines, alignedByPosition, allMatch, text } = native;
      return { lines, matching, expectedLines, actualLines, scriptErrors, alignedByPosition, allMatch, text };
    },
  };
  return Object.freeze(checker);
}

function createApi(m) {
  // ---- registry and argument checks -------------------------------------

  const registry = [];
  for (let i = 0; i < m.algorithmCount(); ++i) registry.push(m.algorithmInfo(i));
  const indexByName = new Map(registry.map((info, i) => [info.name, i]));

  /** Registry index of `algo` (case-insensitive, as the CLI's ALGO). */
  function algorithmIndex(algo) {
    if (typeof algo !== 'string') throw new TypeError('algo must be a string (an algorithm name)');
    const cached = indexByName.get(algo);
    if (cached !== undefined) return cached;
    const found = m.findAlgorithm(algo);
    if (found.index < 0) throw new RangeError(found.error);
    indexByName.set(algo, found.index);
    return found.index;
  }

  /** The token a count argument stands for, as the CLI would read it. */
  function countToken(value, name) {
    if (typeof value !== 'number') {
      throw new TypeError(`${name} must be a number, got ${typeof value}`);
    }
    return String(value);
  }

  function isCount(n, max) {
    return Number.isInteger(n) && n >= 1 && n <= max;
  }

  function countError(n, what, min, max) {
    return new RangeError(m.checkInteger(String(n), what, min, max));
  }

  /** The key as text for the core (bigint -> decimal), or a TypeError. */
  function keyToken(key) {
    if (typeof key === 'bigint') return key.toString();
    if (typeof key === 'string') return key;
    if (typeof key === 'number') throw numberKeyError(key);
    throw new TypeError(`key must be a bigint or a string, got ${key === null ? 'null' : typeof key}`);
  }

  function checkPositive(value, name) {
    if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
    if (!isCount(value, MAX_SAFE)) throw countError(value, name, 1, MAX_SAFE);
  }

  // The plain wasm export behind bucket(); its JS stub replaces itself with
  // the export on first call, so call it once and keep the export itself.
  m._jumphash_bucket(0, 0n, 1);
  const rawBucket = m._jumphash_bucket;

  // ---- linear memory ------------------------------------------------------

  const copyDoubles = (pointer, length) =>
    new Float64Array(m.HEAPU8.buffer, pointer, length).slice();

  const batchCapacity = m.batchCapacity();
  const batchKeys = m.batchKeys();
  const batchOut = m.batchOut();
  let batchBuffer = null;
  let batchKeyView = null;
  let batchOutView = null;
  function batchViews() {
    if (m.HEAPU8.buffer !== batchBuffer) {
      batchBuffer = m.HEAPU8.buffer;
      batchKeyView = new BigUint64Array(batchBuffer, batchKeys, batchCapacity);
      batchOutView = new Int32Array(batchBuffer, batchOut, batchCapacity);
    }
  }

  // ---- jobs -----------------------------------------------------------------

  const finalizer =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry((nativeJob) => nativeJob.delete())
      : null;

  /** Wraps a native ResizeJob/LoadJob as a Job<R> (index.d.ts). */
  function wrapJob(nativeJob, buildResult) {
    let live = nativeJob;
    const total = nativeJob.total();
    let done = 0;
    const alive = () => {
      if (live === null) throw new Error('this job was disposed');
      return live;
    };
    const job = {
      get total() {
        return total;
      },
      get done() {
        return done;
      },
      step(maxKeys) {
        checkPositive(maxKeys, 'maxKeys');
        const native = alive();
        const finished = native.step(maxKeys);
        done = native.done();
        return finished;
      },
      result() {
        const native = alive();
        native.collect();
        return buildResult(native);
      },
      dispose() {
        if (live === null) return;
        if (finalizer) finalizer.unregister(job);
        live.delete();
        live = null;
      },
    };
    if (finalizer) finalizer.register(job, nativeJob, job);
    return job;
  }

  /** Steps a job to the end with progress callbacks; see ProgressOptions. */
  function runToEnd(job, options) {
    const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
    checkPositive(chunkSize, 'chunkSize');
    const { onProgress } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new TypeError('onProgress must be a function');
    }
    for (;;) {
      const finished = job.step(chunkSize);
      const verdict = onProgress ? onProgress(job.done, job.total) : undefined;
      if (finished) return;
      if (verdict === false) throw abortError();
    }
  }

  function checkOptions(options) {
    if (options === undefined) return {};
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    return options;
  }

  function checkKeySpec(keySpec) {
    if (typeof keySpec !== 'string') {
      throw new TypeError('keySpec must be a string (KEYS arguments, e.g. "0..9999 random:100:7")');
    }
  }

  function resizeResult(native) {
    const from = native.from();
    const to = native.to();
    const heap = m.HEAPU8.buffer;
    const hasFlows = native.hasFlows();
    const flowBalance = [];
    if (hasFlows) {
      const balance = new Float64Array(heap, native.flowBalance(), from * 3);
      for (let source = 0; source < from; ++source) {
        flowBalance.push({
          source,
          movedOut: balance[source * 3],
          chiSquare: balance[source * 3 + 1],
          degreesOfFreedom: balance[source * 3 + 2],
        });
      }
    }
    const sampleSize = native.sampleSize();
    const values = new BigUint64Array(heap, native.sampleValues(), sampleSize);
    const buckets = new Int32Array(heap, native.sampleBuckets(), sampleSize * 2);
    const sample = [];
    for (let i = 0; i < sampleSize; ++i) {
      sample.push({ key: '', value: values[i], oldBucket: buckets[2 * i], newBucket: buckets[2 * i + 1] });
    }
    const result = {
      algorithm: native.algorithmName(),
      from,
      to,
      total: native.done(),
      moved: native.moved(),
      minimumMovedExpected: native.minimumMovedExpected(),
      loadsBefore: copyDoubles(native.loadsBefore(), from),
      loadsAfter: copyDoubles(native.loadsAfter(), to),
      flows: hasFlows ? copyDoubles(native.flows(), from * to) : null,
      flowBalance,
      sample,
    };
    // sampleKey returns a new string (may grow memory), so after the views.
    for (let i = 0; i < sampleSize; ++i) sample[i].key = native.sampleKey(i);
    return result;
  }

  function loadResult(native) {
    const n = native.n();
    const loads = copyDoubles(native.loads(), n);
    const s = copyDoubles(native.stats(), 7);
    return {
      algorithm: native.algorithmName(),
      n,
      loads,
      stats: {
        total: s[0],
        min: s[1],
        max: s[2],
        mean: s[3],
        maxOverMean: s[4],
        chiSquare: s[5],
        degreesOfFreedom: s[6],
      },
    };
  }

  // ---- the API ----------------------------------------------------------------

  function startResize(algo, keySpec, from, to, options) {
    const index = algorithmIndex(algo);
    checkKeySpec(keySpec);
    const opts = checkOptions(options);
    const fromToken = countToken(from, 'from');
    const toToken = countToken(to, 'to');
    const sampleLimit = opts.sampleLimit ?? DEFAULT_SAMPLE_LIMIT;
    const sampleToken = countToken(sampleLimit, 'sampleLimit');
    const native = new m.ResizeJob(index, keySpec, fromToken, toToken, sampleToken);
    const error = native.error();
    if (error) {
      native.delete();
      throw new RangeError(error);
    }
    return wrapJob(native, resizeResult);
  }

  function startLoad(algo, keySpec, n) {
    const index = algorithmIndex(algo);
    checkKeySpec(keySpec);
    const native = new m.LoadJob(index, keySpec, countToken(n, 'n'));
    const error = native.error();
    if (error) {
      native.delete();
      throw new RangeError(error);
    }
    return wrapJob(native, loadResult);
  }

  const api = {
    version: m.version(),

    algorithms() {
      return registry.map((info) => ({ ...info }));
    },

    bucket(algo, key, n) {
      const index = algorithmIndex(algo);
      if (typeof key === 'bigint') {
        if (key < 0n || key >= KEY_LIMIT) throw new RangeError(m.keyError(key.toString()));
        if (!isCount(n, MAX_BUCKETS)) throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
        return rawBucket(index, key, n);
      }
      const token = keyToken(key);
      if (!isCount(n, MAX_BUCKETS)) {
        const error = m.keyError(token);
        if (error) throw new RangeError(error);
        throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
      }
      const bucket = m.bucketOfText(index, token, n);
      if (bucket < 0) throw new RangeError(m.keyError(token));
      return bucket;
    },

    buckets(algo, keys, n, out) {
      const index = algorithmIndex(algo);
      if (!(keys instanceof BigUint64Array)) {
        throw new TypeError('keys must be a BigUint64Array (64-bit keys cannot travel in doubles)');
      }
      if (!isCount(n, MAX_BUCKETS)) throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
      if (out === undefined) out = new Int32Array(keys.length);
      else if (!(out instanceof Int32Array)) throw new TypeError('out must be an Int32Array');
      else if (out.length < keys.length) {
        throw new RangeError(`out holds ${out.length} buckets, fewer than the ${keys.length} keys`);
      }
      for (let start = 0; start < keys.length; start += batchCapacity) {
        const count = Math.min(batchCapacity, keys.length - start);
        batchViews();
        batchKeyView.set(count === keys.length ? keys : keys.subarray(start, start + count));
        m.bucketsBatch(index, count, n);
        batchViews();
        out.set(count === batchCapacity ? batchOutView : batchOutView.subarray(0, count), start);
      }
      return out;
    },

    run(script) {
      if (typeof script !== 'string') throw new TypeError('script must be a string');
      const { stdout, stderr, exitCode } = m.run(script);
      return { stdout, stderr, exitCode };
    },

    keyCount(keySpec) {
      checkKeySpec(keySpec);
      const { error, count } = m.keyCount(keySpec);
      if (error) throw new RangeError(error);
      return count;
    },

    parseKey(key) {
      if (typeof key === 'number') throw numberKeyError(key);
      if (typeof key !== 'string') throw new TypeError('key must be a string');
      const { error, decimal, label } = m.parseKey(key);
      if (error) throw new RangeError(error);
      return { value: BigInt(decimal), label };
    },

    moved(algo, keySpec, from, to, options) {
      const opts = checkOptions(options);
      const job = startResize(algo, keySpec, from, to, opts);
      try {
        runToEnd(job, opts);
        return job.result();
      } finally {
        job.dispose();
      }
    },

    startResize,

    load(algo, keySpec, n, options) {
      const opts = checkOptions(options);
      const job = startLoad(algo, keySpec, n);
      try {
        runToEnd(job, opts);
        return job.result();
      } finally {
        job.dispose();
      }
    },

    startLoad,

    trace(algo, key, max) {
      const index = algorithmIndex(algo);
      const token = keyToken(key);
      const native = new m.Trace(index, token, countToken(max, 'max'));
      try {
        const error = native.error();
        if (error) throw new RangeError(error);
        const steps = native.steps();
        const rows = new Float64Array(m.HEAPU8.buffer, native.rows(), steps * 2);
        const result = [];
        for (let i = 0; i < steps; ++i) result.push({ n: rows[2 * i], bucket: rows[2 * i + 1] });
        return result;
      } finally {
        native.delete();
      }
    },
  };
  return Object.freeze(api);
}
