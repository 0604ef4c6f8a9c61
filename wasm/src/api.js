// jumphash-wasm internals shared by the two entries, src/index.js (the
// .wasm as a separate file) and src/inline.js (the .wasm embedded as base64).
// The types and the documentation of every export are in index.d.ts
// (hand-written; test/types.test.mjs and test/types/ keep the two in step).
// Everything a user sees is decided here; bindings.cpp only registers the
// core's functions and two small chunked-report adapters.
//
// 64-bit keys are bigint on this side and uint64_t on the C++ side. They
// cross the boundary as a BigInt argument (exact), as text parsed by the
// core, or as a BigUint64Array over linear memory; never as a Number.
//
// Loading: this file finds, reads or fetches and compiles the .wasm itself
// and hands the Emscripten glue the compiled module (instantiateWasm), so
// that every failure is one Error that says what was tried, what came back
// and how to fix it, and nothing is printed to the console. No `import` of
// Node modules (bundlers for the web would warn or fail): in Node the file is
// read through process.getBuiltinModule (Node 20.16+).

const MAX_BUCKETS = 2147483647;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const KEY_LIMIT = 1n << 64n;
const DEFAULT_CHUNK = 1 << 20;
const DEFAULT_SAMPLE_LIMIT = 100;

// ---- loading ---------------------------------------------------------------

/** A Node built-in module, or undefined outside Node (or before 20.16). */
function nodeBuiltin(name) {
  const p = globalThis.process;
  return p && typeof p.getBuiltinModule === 'function' ? p.getBuiltinModule(name) : undefined;
}

export function typeName(value) {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'object';
  return typeof value;
}

/** "1234 bytes starting with 3c 21 44 4f ("<!DO")". */
function describeBytes(bytes) {
  if (bytes.length === 0) return 'an empty body';
  const head = Array.from(bytes.subarray(0, 4));
  const hex = head.map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = head.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${bytes.length} ${bytes.length === 1 ? 'byte' : 'bytes'} starting with ${hex} (${JSON.stringify(text)})`;
}

/** The smallest module with a SIMD instruction (i8x16.splat): valid only where WebAssembly SIMD is. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);

function hasWasmSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

function hasWasmMagic(bytes) {
  return bytes.length >= 4 && bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;
}

/** The two ways out, in every loading error. */
function fixes(where) {
  return (
    `Fix it either way: import { ${where.fn} } from 'jumphash-wasm/inline' (the .wasm embedded in the ` +
    `JavaScript, nothing to serve), or serve node_modules/jumphash-wasm/dist/${where.file} yourself and ` +
    `pass its URL, ${where.fn}({ wasmUrl }), or its bytes, ${where.fn}({ wasmBinary }).`
  );
}

function loadError(where, url, got) {
  return new Error(`${where.fn}: could not load ${where.file} from ${url}: ${got}. ${fixes(where)}`);
}

/** Compiles `bytes`; `source(got)` makes the Error when they are not the module. */
async function compile(bytes, source) {
  if (!hasWasmMagic(bytes)) {
    throw source(`${describeBytes(bytes)}, not a WebAssembly module (those start with 00 61 73 6d)`);
  }
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    if (!hasWasmSimd()) {
      throw new Error(
        `jumphash-wasm needs WebAssembly SIMD, which this engine does not have (${error}); ` +
          'it runs in Chrome and Edge 91, Firefox 89, Safari 16.4, Node.js 16.4 and later.',
      );
    }
    throw source(`${describeBytes(bytes)} that do not compile (${error})`);
  }
}

async function fetchAndCompile(where, url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw loadError(where, url, `the request failed (${error})`);
  }
  let bytes;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw loadError(where, url, `reading the response failed (${error})`);
  }
  const type = response.headers.get('content-type');
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${type ? ` (${type})` : ''}`;
  if (!response.ok) throw loadError(where, url, `got ${status} with ${describeBytes(bytes)}`);
  return compile(bytes, (got) => loadError(where, url, `got ${status} with ${got}`));
}

async function readFileOrError(fs, url) {
  try {
    return { bytes: new Uint8Array(await fs.promises.readFile(url)) };
  } catch (error) {
    return { error: error.code ?? String(error) };
  }
}

/**
 * Reads a file: URL in Node. For the default location (`fallback`), when the
 * file is not there because a bundle moved this code away from the package
 * (esbuild or Rollup for Node), the package is looked up from the working
 * directory instead, as `require.resolve('jumphash-wasm/<file>')` would.
 */
async function readAndCompile(where, url, fallback) {
  const fs = nodeBuiltin('node:fs');
  if (!fs) {
    throw loadError(where, url, 'reading a file needs Node.js 20.19 or later (process.getBuiltinModule)');
  }
  const { fileURLToPath } = nodeBuiltin('node:url');
  const tried = [];
  let read = await readFileOrError(fs, url);
  tried.push(`${fileURLToPath(url)} (${read.error})`);
  if (read.error === 'ENOENT' && fallback) {
    const cwd = globalThis.process.cwd();
    let path;
    try {
      path = nodeBuiltin('node:module').createRequire(`${cwd}/package.json`).resolve(`jumphash-wasm/${where.file}`);
    } catch {
      tried.push(`no jumphash-wasm package found from the working directory ${cwd}`);
    }
    if (path !== undefined) {
      read = await readFileOrError(fs, path);
      tried.push(`${path} (${read.error})`);
    }
  }
  if (read.error) {
    throw new Error(`${where.fn}: could not read ${where.file}: tried ${tried.join(', then ')}. ${fixes(where)}`);
  }
  return compile(read.bytes, (got) => loadError(where, url, `got ${got}`));
}

function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `wasmUrl` as a URL: relative to the page, or in Node to the working directory. */
function userUrl(wasmUrl) {
  if (typeof wasmUrl !== 'string') return new URL(wasmUrl.href);
  const base = globalThis.location?.href ??
    nodeBuiltin('node:url')?.pathToFileURL(`${globalThis.process.cwd()}/`).href;
  return new URL(wasmUrl, base);
}

/**
 * The compiled module for loadJumphash/loadChecker:
 *   where = { fn, file, url: () => URL of the .wasm beside the package's
 *             JavaScript, inline: () => Promise<base64> (inline entry) }.
 */
async function compiledModule(where, options) {
  const { fn, file } = where;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn} options must be an object, got ${typeName(options)}`);
  }
  const { wasmBinary, wasmUrl } = options;
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !(wasmBinary instanceof Uint8Array)) {
    throw new TypeError(`${fn}: wasmBinary must be an ArrayBuffer or a Uint8Array (the bytes of ${file}), got ${typeName(wasmBinary)}`);
  }
  if (wasmUrl !== undefined && typeof wasmUrl !== 'string' && typeof wasmUrl?.href !== 'string') {
    throw new TypeError(`${fn}: wasmUrl must be a string or a URL (where ${file} is served), got ${typeName(wasmUrl)}`);
  }
  if (wasmBinary !== undefined && wasmUrl !== undefined) {
    throw new TypeError(`${fn}: pass wasmBinary or wasmUrl, not both`);
  }
  if (wasmBinary !== undefined) {
    return compile(new Uint8Array(wasmBinary), (got) => new Error(
      `${fn}: the wasmBinary option is not ${file}: it has ${got}. ` +
        `Pass the bytes of node_modules/jumphash-wasm/dist/${file}, or leave wasmBinary out.`));
  }
  if (wasmUrl !== undefined) {
    const url = userUrl(wasmUrl);
    return url.protocol === 'file:' ? readAndCompile(where, url, false) : fetchAndCompile(where, url.href);
  }
  if (where.inline) return compile(decodeBase64(await where.inline()), (got) => new Error(`${fn}: the embedded ${file} is damaged: ${got}`));
  let url;
  try {
    url = where.url();
  } catch (error) {
    throw new Error(`${fn}: could not work out the URL of ${file}: this bundle has no import.meta.url (${error}). ${fixes(where)}`);
  }
  return url.protocol === 'file:' ? readAndCompile(where, url, true) : fetchAndCompile(where, url.href);
}

/** Runs the Emscripten factory on an already compiled module. */
export async function instantiate(where, factory, options) {
  const compiled = await compiledModule(where, options);
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const ready = factory({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(compiled, imports).then(
        (instance) => receive(instance, compiled),
        (error) => fail(new Error(`${where.fn}: ${where.file} compiled but does not fit its JavaScript (${error}); ` +
          'the .wasm and dist/*.mjs come from different builds: reinstall jumphash-wasm')),
      );
      return {};
    },
  });
  return Promise.race([ready, failed]);
}

// ---- messages --------------------------------------------------------------

/** The TypeError for a Number key; `fn` is the function that got it. */
function numberKeyError(key, fn) {
  const text = String(key);
  const textOnly = fn === 'parseKey'; // parseKey takes key text only
  const allowed = textOnly
    ? "keys are integers 0..2^64-1, passed as key text (e.g. '42', '0x1F' or '\"alice\"')"
    : "keys are integers 0..2^64-1, passed as a bigint (e.g. 42n) or as key text (e.g. '42', '0x1F' or '\"alice\"')";
  if (!Number.isInteger(key)) return new TypeError(`${fn}: key ${text} is a JavaScript number that is not an integer; ${allowed}`);
  if (key < 0) return new TypeError(`${fn}: key ${text} is a negative JavaScript number; ${allowed}`);
  if (!Number.isSafeInteger(key)) {
    return new TypeError(
      `${fn}: key ${text} is a JavaScript number above 2^53-1, so it was already rounded to a double ` +
        'before this call and may not be the key you wrote; write the key ' +
        (textOnly ? 'as a string of its exact digits' : 'as a BigInt literal (its exact digits followed by n) or as a string of its exact digits'),
    );
  }
  return new TypeError(
    `${fn}: key ${text} is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are ` +
      `64-bit: pass ${textOnly ? `'${text}'` : `${text}n or '${text}'`} instead`,
  );
}

function abortError() {
  return new DOMException('jumphash: cancelled (onProgress returned false)', 'AbortError');
}

export function createApi(m) {
  // ---- registry and argument checks -------------------------------------

  const registry = [];
  for (let i = 0; i < m.algorithmCount(); ++i) {
    const { maxBuckets, maxTrace, ...info } = m.algorithmInfo(i);
    const options = [];
    for (let j = 0; j < m.optionCount(i); ++j) {
      const o = m.optionInfo(i, j);
      options.push({ ...o, choices: o.choices ? o.choices.split(',') : [] });
    }
    registry.push({ ...info, options, limits: { maxBuckets, maxTrace } });
  }
  const copyInfo = (info) => ({
    ...info,
    options: info.options.map((o) => ({ ...o, choices: [...o.choices] })),
    limits: { ...info.limits },
  });
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

  /**
   * The last CHOICES_KEPT string arguments that choose() accepted, with
   * what it returned (frozen): bucket() in a loop passes the same string
   * every call. Splitting it into words every time, jumpback's bucket()
   * took 161-164 ns a call in Node 20 and 107-113 in Chromium 156;
   * remembering it, 50-52 and 49-53 (wasm/bench/bench.mjs, 2026-12-07).
   */
  const choiceByText = new Map();
  const CHOICES_KEPT = 64;

  /**
   * An algorithm argument: a name, a name with ALGO's options
   * ('maglev table=251'), or { name, options: { table: 251 } }.
   * Returns { index, info, options } (frozen) with options as ALGO's
   * assignments.
   */
  function choose(algo, fn) {
    if (typeof algo === 'string') {
      const known = choiceByText.get(algo);
      if (known !== undefined) return known;
    }
    let name;
    let options = '';
    if (typeof algo === 'string') {
      const words = algo.split(' ').filter((word) => word !== '');
      name = words.length ? words[0] : algo;
      options = words.slice(1).join(' ');
    } else if (algo !== null && typeof algo === 'object' && typeof algo.name === 'string') {
      name = algo.name;
      if (algo.options !== undefined) {
        if (algo.options === null || typeof algo.options !== 'object') {
          throw new TypeError(`${fn}: algo.options must be an object such as { table: 251 }, got ${typeName(algo.options)}`);
        }
        options = Object.entries(algo.options).map(([key, value]) => `${key}=${value}`).join(' ');
      }
    } else {
      throw new TypeError(`${fn}: algo must be a string (an algorithm name) or { name, options }, got ${typeName(algo)}`);
    }
    const index = algorithmIndex(name);
    if (options) {
      // The core checks the options with ALGO's messages.
      const probe = new m.ClusterHandle(index, options, '#1\n');
      const error = probe.error();
      probe.delete();
      if (error && !error.startsWith('bucket count')) throw new RangeError(error);
    }
    const choice = Object.freeze({ index, info: registry[index], options });
    if (typeof algo === 'string') {
      if (choiceByText.size >= CHOICES_KEPT) choiceByText.clear();
      choiceByText.set(algo, choice);
    }
    return choice;
  }

  const utf8 = new TextEncoder();
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  /** One line of the topology text that cluster_bindings.cpp reads. */
  function nodeLine(op, node, fn) {
    if (node === null || typeof node !== 'object') {
      throw new TypeError(`${fn}: a node is an object { name, weight? }, got ${typeName(node)}`);
    }
    const { name, weight } = node;
    if (typeof name !== 'string') throw new TypeError(`${fn}: a node's name must be a string, got ${typeName(name)}`);
    if (LONE_SURROGATE.test(name)) {
      throw new RangeError(`${fn}: node name ${JSON.stringify(name)} is not valid Unicode (it holds a lone surrogate); names are UTF-8 text`);
    }
    let suffix = '';
    if (weight !== undefined) {
      if (typeof weight !== 'number') throw new TypeError(`${fn}: the weight of node ${JSON.stringify(name)} must be a number, got ${typeName(weight)}`);
      suffix = `*${weight}`;
    }
    return `${op}${utf8.encode(name).length}:${name}${suffix}\n`;
  }

  const EDIT_OPS = { remove: '-', add: '+', reweight: '=' };

  function changeLine(change, fn) {
    const op = change !== null && typeof change === 'object' ? EDIT_OPS[change.kind] : undefined;
    if (op === undefined) {
      throw new TypeError(`${fn}: a change is { kind: 'remove', name }, { kind: 'add', name, weight? } or { kind: 'reweight', name, weight }, got ${typeName(change)}${change?.kind !== undefined ? ` of kind ${JSON.stringify(change.kind)}` : ''}`);
    }
    if (change.kind === 'reweight' && change.weight === undefined) {
      throw new TypeError(`${fn}: a reweight change needs a weight: { kind: 'reweight', name, weight }`);
    }
    return nodeLine(op, change, fn);
  }

  /**
   * The topology text for `topology` followed by `changes`; see Topology in
   * index.d.ts. A number n is { kind: 'count', n }.
   */
  function topologyWire(topology, changes, fn) {
    let wire;
    let edits = [];
    if (typeof topology === 'number') {
      wire = `#${topology}\n`;
    } else if (topology !== null && typeof topology === 'object' && topology.kind === 'count') {
      if (typeof topology.n !== 'number') throw new TypeError(`${fn}: topology.n must be a number, got ${typeName(topology.n)}`);
      wire = `#${topology.n}\n`;
      edits = topology.edits ?? [];
    } else if (topology !== null && typeof topology === 'object' && topology.kind === 'nodes') {
      if (!Array.isArray(topology.nodes)) {
        throw new TypeError(`${fn}: topology.nodes must be an array of { name, weight? }, got ${typeName(topology.nodes)}`);
      }
      wire = '';
      for (const node of topology.nodes) wire += nodeLine(' ', node, fn);
      if (wire === '') throw new RangeError(`${fn}: a node list needs at least one node`);
      edits = topology.edits ?? [];
    } else {
      throw new TypeError(`${fn}: a topology is a bucket count (a number), { kind: 'count', n } or { kind: 'nodes', nodes: [{ name, weight? }, ...] }, got ${typeName(topology)}`);
    }
    if (!Array.isArray(edits)) throw new TypeError(`${fn}: topology.edits must be an array of changes, got ${typeName(edits)}`);
    for (const change of edits) wire += changeLine(change, fn);
    for (const change of changes) wire += changeLine(change, fn);
    return wire;
  }

  /** The plain bucket count of `topology` when the fast paths can take it, else null. */
  function plainCount(choice, topology) {
    if (choice.info.kind !== 'bucket-count' || choice.options) return null;
    if (typeof topology === 'number') return topology;
    if (topology !== null && typeof topology === 'object' && topology.kind === 'count' &&
        typeof topology.n === 'number' && (topology.edits === undefined || topology.edits.length === 0)) {
      return topology.n;
    }
    return null;
  }

  /** Names joined by newlines and `count` weights at `pointer`, as NodeSpec[]. */
  function nodeRows(names, count, pointer) {
    const weights = new Float64Array(m.HEAPU8.buffer, pointer, count);
    const list = count === 0 ? [] : names.split('\n');
    return list.map((name, i) => ({ name, weight: weights[i] }));
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
  function keyToken(key, fn) {
    if (typeof key === 'bigint') return key.toString();
    if (typeof key === 'string') return key;
    if (typeof key === 'number') throw numberKeyError(key, fn);
    throw new TypeError(`${fn}: key must be a bigint or a string, got ${key === null ? 'null' : typeof key}`);
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

  /**
   * How a resize job's `count` sampled keys print, from its packed buffer
   * (PrintedKeys in bindings_shared.hpp): one decode when it is all ASCII
   * (200,000 keys in a few ms, where a call per key took a second), else a
   * decode per key. The job must have collected; nothing here allocates in
   * the module, so the views stay valid.
   */
  const utf8Decoder = new TextDecoder();
  function printedKeys(native, count) {
    if (count === 0) return [];
    const heap = m.HEAPU8.buffer;
    const ends = new Uint32Array(heap, native.sampleKeyEnds(), count);
    const bytes = new Uint8Array(heap, native.sampleKeyText(), native.sampleKeyBytes());
    const keys = new Array(count);
    let start = 0;
    if (native.sampleKeysAscii()) {
      const text = utf8Decoder.decode(bytes);
      for (let i = 0; i < count; ++i) {
        keys[i] = text.slice(start, ends[i]);
        start = ends[i];
      }
    } else {
      for (let i = 0; i < count; ++i) {
        keys[i] = utf8Decoder.decode(bytes.subarray(start, ends[i]));
        start = ends[i];
      }
    }
    return keys;
  }

  /**
   * A MovedKeyColumns of `count` sampled keys: key i's value, buckets
   * before and after, and its text where it does not print as its value in
   * decimal (`label(i)`, null otherwise).
   */
  function sampleColumns(count, value, oldBucket, newBucket, label) {
    const columns = { values: new BigUint64Array(count), oldBuckets: new Int32Array(count), newBuckets: new Int32Array(count), labels: [] };
    for (let i = 0; i < count; ++i) {
      columns.values[i] = value(i);
      columns.oldBuckets[i] = oldBucket(i);
      columns.newBuckets[i] = newBucket(i);
      const text = label(i);
      if (text !== null) columns.labels.push([i, text]);
    }
    return columns;
  }

  /** Whether a key's text starting with character code `code` is its value in decimal. */
  const isDigit = (code) => code >= 48 && code <= 57;

  /** Whether `sample` is a MovedKeyColumns. */
  const isColumns = (sample) =>
    sample !== null && typeof sample === 'object' && sample.values instanceof BigUint64Array &&
    sample.oldBuckets instanceof Int32Array && sample.newBuckets instanceof Int32Array && Array.isArray(sample.labels);

  /** The first `count` keys of a MovedKeyColumns as MovedKeySample objects. */
  function columnObjects(columns, count) {
    const labels = new Map(columns.labels);
    const sample = new Array(count);
    for (let i = 0; i < count; ++i) {
      const value = columns.values[i];
      sample[i] = { key: labels.get(i) ?? value.toString(), value, oldBucket: columns.oldBuckets[i], newBucket: columns.newBuckets[i] };
    }
    return sample;
  }

  /** A MovedKeySample[] as a MovedKeyColumns. */
  const objectColumns = (sample) =>
    sampleColumns(sample.length, (i) => sample[i].value, (i) => sample[i].oldBucket, (i) => sample[i].newBucket,
      (i) => (isDigit(sample[i].key.charCodeAt(0)) ? null : sample[i].key));

  /**
   * A collected resize job's moved-key sample: one MovedKeySample per key,
   * or (`columns`) a MovedKeyColumns, which builds no object per key and
   * decodes only the text of keys that do not print in decimal (string
   * keys: collected without every key's text, a decimal key's text is
   * empty). `columnsAt` points at its bucket or node indices: every
   * key's old one, then every key's new one (two columns, each copied
   * whole).
   */
  function movedSample(native, columnsAt, columns) {
    const count = native.sampled();
    const heap = m.HEAPU8.buffer;
    const values = new BigUint64Array(heap, native.sampleValues(), count);
    const olds = new Int32Array(heap, columnsAt, count);
    const news = new Int32Array(heap, columnsAt + Int32Array.BYTES_PER_ELEMENT * count, count);
    if (columns) {
      // Each column copied whole, with no bigint made per key (sampleColumns
      // reads and writes one), and no loop over the keys unless some have
      // text (string keys). With 200,000 sampled keys (jump 10 -> 12 over
      // 1.3 * 10^6 of random:10000000:1, Node, 2026-12-06) a job's first
      // partResult() took 14.4-14.7 ms against 17.3-20.1 de-interleaving
      // (old, new) pairs here, and later ones 2.5 at best against 4.5;
      // most of a first one is the fresh arrays' first writes.
      const labels = [];
      const textBytes = native.sampleKeyBytes();
      if (textBytes > 0) {
        const ends = new Uint32Array(heap, native.sampleKeyEnds(), count);
        const bytes = new Uint8Array(heap, native.sampleKeyText(), textBytes);
        for (let i = 0, start = 0; i < count; start = ends[i], ++i) {
          if (ends[i] !== start) labels.push([i, utf8Decoder.decode(bytes.subarray(start, ends[i]))]);
        }
      }
      return { values: values.slice(), oldBuckets: olds.slice(), newBuckets: news.slice(), labels };
    }
    const keys = printedKeys(native, count);
    const sample = new Array(count);
    for (let i = 0; i < count; ++i) {
      sample[i] = { key: keys[i], value: values[i], oldBucket: olds[i], newBucket: news[i] };
    }
    return sample;
  }

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

  /**
   * Wraps a native ResizeJob/LoadJob (or their node forms) as a Job<R>
   * (index.d.ts), over the keys `range` (placeJob: its begin and end, and
   * whether it counts them from the end). `absorbCounts(native, part)` adds another job's counts
   * (an error message or ''); `sampleLimit` is the resize jobs' (null for
   * loads), for joining the parts' samples in key order.
   */
  function wrapJob(nativeJob, range, algorithm, buildResult, absorbCounts, sampleLimit) {
    let live = nativeJob;
    let total = nativeJob.total();
    let done = 0;
    /** The keys done so far: after the range's begin, or before its end when counted from there. */
    const doneKeys = () => (range.fromEnd ? [range.end - done, range.end] : [range.begin, range.begin + done]);
    /** Keys of the parts absorbed. */
    let absorbedKeys = 0;
    /** The keys covered once parts were absorbed before or after this job's own (null: its own keys only). */
    let coveredBegin = null;
    let coveredEnd = null;
    /** The moved keys of the parts absorbed before this job's keys, and after them, each in key order (at most sampleLimit). */
    let sampleBefore = [];
    let sampleAfter = [];
    const alive = () => {
      if (live === null) throw new Error('this job was disposed');
      return live;
    };
    /**
     * result() (`form` 'objects'), a resize job's resultInColumns()
     * ('columns'; 'cells' with { flows: 'cells' }) or partResult() ('part';
     * 'part-counts' with { sample: false }, whose sample is null).
     * The parts' samples absorbed are objects: with them, the sample is
     * joined as objects.
     */
    const report = (form) => {
      const native = alive();
      if (sampleLimit === null) native.collect();
      else native.collect(isPart(form) || form === 'cells', !isPart(form), form === 'objects', form !== 'part-counts');
      const result = buildResult(native, form);
      if (sampleLimit !== null) result.total += absorbedKeys; // a load counts its keys in stats
      const [first, last] = doneKeys();
      result.keyRange = [coveredBegin ?? first, coveredEnd ?? last];
      if (sampleLimit !== null && result.sample !== null && sampleBefore.length + sampleAfter.length > 0) {
        const columns = form !== 'objects';
        const own = columns ? columnObjects(result.sample, result.sample.values.length) : result.sample;
        const joined = sampleBefore.concat(own, sampleAfter).slice(0, sampleLimit);
        result.sample = columns ? objectColumns(joined) : joined;
      }
      return result;
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
        // Up to `total`, which endHere may have made less than the native job's.
        if (done < total) native.step(Math.min(maxKeys, total - done));
        done = native.done();
        return done === total;
      },
      result() {
        return report('objects');
      },
      absorb(part) {
        const native = alive();
        if (part === null || typeof part !== 'object' || !Array.isArray(part.keyRange) || (sampleLimit !== null && !Array.isArray(part.sample) && !isColumns(part.sample))) {
          // A partResult({ sample: false }) is whole once its sample, taken before, is put back.
          const unsampled = sampleLimit !== null && part?.sample === null ? ', with its sample (partResult({ sample: false }) leaves it out: put back the one taken before)' : '';
          throw new TypeError(`absorb: part must be the result()${sampleLimit === null ? '' : ' or partResult()'} of another job over the same report${unsampled}`);
        }
        if (done !== total) {
          throw new Error(`absorb: this job has done ${done} of its ${total} keys; step it to the end first (a part's keys lie beside its own)`);
        }
        if (part.algorithm !== algorithm) {
          throw new RangeError(`absorb: the part is a report of ${part.algorithm}, this job one of ${algorithm}`);
        }
        const [ownBegin, ownEnd] = doneKeys();
        const [begin, end] = [coveredBegin ?? ownBegin, coveredEnd ?? ownEnd];
        const [partBegin, partEnd] = part.keyRange;
        // A part of no keys lies on either side; it goes after.
        const after = partBegin === end;
        if (!after && partEnd !== begin) {
          throw new RangeError(
            `absorb: the part covers keys [${partBegin}, ${partEnd}) but this job's keys, with the parts it absorbed, are [${begin}, ${end}): ` +
              `a part must begin at ${end} or end at ${begin}`,
          );
        }
        const error = absorbCounts(native, part);
        if (error) throw new RangeError(error);
        if (after) coveredEnd = partEnd;
        else coveredBegin = partBegin;
        absorbedKeys += Number(part.total ?? 0);
        if (sampleLimit !== null) {
          const sample = part.sample;
          // Before: only what may be listed ahead of the keys already held.
          const take = Math.min(sample.length ?? sample.values.length, after ? sampleLimit - sampleAfter.length : sampleLimit);
          const keys = Array.isArray(sample) ? sample.slice(0, take) : columnObjects(sample, take);
          // concat, not push(...keys): a spread of 200,000 keys overflows the call stack.
          if (after) sampleAfter = sampleAfter.concat(keys);
          else sampleBefore = keys.concat(sampleBefore).slice(0, sampleLimit);
        }
      },
      endHere() {
        alive();
        total = done;
      },
      dispose() {
        if (live === null) return;
        if (finalizer) finalizer.unregister(job);
        live.delete();
        live = null;
      },
    };
    if (sampleLimit !== null) {
      job.resultInColumns = (options = {}) =>
        report(option('resultInColumns', options, 'flows', ['matrix', 'cells']) === 'cells' ? 'cells' : 'columns');
      job.partResult = (options = {}) => report(option('partResult', options, 'sample', [true, false]) ? 'part' : 'part-counts');
      // Counted up, a full list takes no later key (the core samples the
      // first moved keys); counted from the end, later keys go in front.
      Object.defineProperty(job, 'sampleFinal', {
        get: () => done === total || (!range.fromEnd && alive().sampled() >= sampleLimit),
        enumerable: true,
      });
    }
    if (finalizer) finalizer.register(job, nativeJob, job);
    return job;
  }

  /**
   * Option `name` of a job method `fn`'s `options`: one of `allowed`, the
   * first when it is not given; else a TypeError with what `fn` takes and
   * what it got.
   */
  function option(fn, options, name, allowed) {
    const object = options !== null && typeof options === 'object';
    const value = object ? (options[name] ?? allowed[0]) : undefined;
    if (allowed.includes(value)) return value;
    const shown = (v) => (typeof v === 'string' ? `'${v}'` : String(v));
    const got = !object ? typeName(options) : typeof options[name] === 'string' ? `${name} ${shown(options[name])}` : `${name} ${typeName(options[name])}`;
    throw new TypeError(`${fn}: options must be ${allowed.map((v, i) => `{ ${name}: ${shown(v)} }${i ? '' : ' (the default)'}`).join(' or ')}, got ${got}`);
  }

  /** Copies arrays of numbers into a job's staging buffer (native.stage), one after the other; false if one is not an array. */
  function stageArrays(native, arrays) {
    if (!arrays.every((array) => array === null || ArrayBuffer.isView(array) || Array.isArray(array))) return false;
    const lengths = arrays.map((array) => (array === null ? 0 : array.length));
    const pointer = native.stage(lengths.reduce((sum, length) => sum + length, 0));
    let offset = 0;
    for (const array of arrays) {
      if (array === null) continue;
      // The view after stage(), which may have grown the memory.
      new Float64Array(m.HEAPU8.buffer, pointer + offset * 8, array.length).set(array);
      offset += array.length;
    }
    return lengths;
  }
  const NOT_COUNTS = "absorb: a part's total, moved, loads and flows must be counts (integers >= 0)";
  function absorbResize(native, part) {
    const cells = part.flowCells;
    if (cells !== undefined && cells !== null) {
      // A partResult(): the matrix's non-zero cells, indices then counts.
      const isArray = (array) => Array.isArray(array) || ArrayBuffer.isView(array);
      if (typeof cells !== 'object' || !isArray(cells.count) || (cells.index !== null && (!isArray(cells.index) || cells.index.length !== cells.count.length))) {
        return "absorb: a part's flowCells must be { index, count }: two arrays of one length, or index null and count the whole matrix";
      }
      if (cells.index === null) return absorbResize(native, { ...part, flowCells: undefined, flows: cells.count });
      const lengths = stageArrays(native, [part.loadsBefore, part.loadsAfter, cells.index, cells.count]);
      if (!lengths) return NOT_COUNTS;
      return native.absorbCells(Number(part.total), Number(part.moved), lengths[0], lengths[1], lengths[2]);
    }
    const lengths = stageArrays(native, [part.loadsBefore, part.loadsAfter, part.flows ?? null]);
    if (!lengths) return NOT_COUNTS;
    return native.absorb(Number(part.total), Number(part.moved), ...lengths);
  }
  function absorbLoad(native, part) {
    if (!stageArrays(native, [part.loads])) return "absorb: a part's loads must be counts (integers >= 0)";
    return native.absorb();
  }

  /**
   * Narrows a new native job to options.keyRange and, with options.fromEnd,
   * has it count that range from its end; or throws (deleting it). Returns
   * the range ({ begin, end }) and whether it counts from its end.
   */
  function placeJob(native, { keyRange, fromEnd = false }, fn) {
    const fail = (Type, message) => {
      native.delete();
      throw new Type(`${fn}: ${message}`);
    };
    if (typeof fromEnd !== 'boolean') fail(TypeError, `fromEnd must be true or false, got ${typeName(fromEnd)}`);
    const range = keyRange === undefined ? [0, native.total()] : keyRange;
    if (!(Array.isArray(range) && range.length === 2 && range.every((end) => Number.isSafeInteger(end) && end >= 0))) {
      fail(TypeError, 'keyRange must be [begin, end], two integers 0 <= begin <= end <= the key count');
    }
    const error = keyRange || fromEnd ? native.setKeyRange(range[0], range[1], fromEnd) : '';
    if (error) fail(RangeError, error);
    return { begin: range[0], end: range[0] + native.total(), fromEnd };
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

  /** runStream and runStreamBytes: checks, then runs with `deliver(stream, bytes, lines, chars)`. */
  function streamScript(fn, script, onChunk, args, budget, deliver) {
    if (typeof script !== 'string') throw new TypeError(`${fn}: script must be a string, got ${typeName(script)}`);
    if (typeof onChunk !== 'function') throw new TypeError(`${fn}: onChunk must be a function ${args} => void, got ${typeName(onChunk)}`);
    if (budget === null || typeof budget !== 'object') throw new TypeError(`${fn}: budget must be an object, got ${typeName(budget)}`);
    const bound = (name) => {
      const value = budget[name] ?? 0;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw new RangeError(`${fn}: budget.${name} must be a whole number 0..${Number.MAX_SAFE_INTEGER} (0: no bound), got ${String(value)}`);
      }
      return value;
    };
    return { exitCode: m.runStream(script, bound('maxLookups'), bound('maxOutputBytes'), deliver) };
  }

  function checkKeySpec(keySpec) {
    if (typeof keySpec !== 'string') {
      throw new TypeError('keySpec must be a string (KEYS arguments, e.g. "0..9999 random:100:7")');
    }
  }

  /** A job collected with its flows as cells: the FlowCells (null when the report keeps no matrix). */
  function flowCellsOf(native) {
    if (!native.hasFlows()) return null;
    const cells = native.cellCount();
    return {
      index: native.cellsWhole() ? null : new Uint32Array(m.HEAPU8.buffer, native.cellIndices(), cells).slice(),
      count: copyDoubles(native.cellCounts(), cells),
    };
  }

  /** Whether a job's report `form` (wrapJob's report) is a partResult(), with its sample ('part') or without ('part-counts'). */
  const isPart = (form) => form === 'part' || form === 'part-counts';

  /**
   * A collected resize job (flows as cells) as a ResizePart: the counts
   * absorb() adds, the flows as their non-zero cells, the sample in columns
   * (null without `withSample`: partResult({ sample: false })).
   */
  function resizePart(algorithm, native, from, to, columnsAt, withSample) {
    return {
      algorithm,
      from,
      to,
      total: native.done(),
      moved: native.moved(),
      loadsBefore: copyDoubles(native.loadsBefore(), from),
      loadsAfter: copyDoubles(native.loadsAfter(), to),
      flowCells: flowCellsOf(native),
      sample: withSample ? movedSample(native, columnsAt, true) : null,
    };
  }

  /**
   * A result's flows in `form`: { flows } (the whole matrix, or null) for
   * 'objects' and 'columns', { flowCells } for 'cells'.
   */
  function flowsIn(native, form, cellCount) {
    if (form === 'cells') return { flowCells: flowCellsOf(native) };
    return { flows: native.hasFlows() ? copyDoubles(native.flows(), cellCount) : null };
  }

  /**
   * A FlowBalanceColumns of `sources` sources from the native balance at
   * `pointer` (each source's keys moved out, then chi-squares, then degrees
   * of freedom): the three columns share one buffer, which a Worker
   * transfers at once.
   */
  function balanceColumns(pointer, sources) {
    const all = copyDoubles(pointer, sources * 3);
    return { movedOut: all.subarray(0, sources), chiSquare: all.subarray(sources, 2 * sources), degreesOfFreedom: all.subarray(2 * sources) };
  }

  function resizeResult(native, form) {
    if (isPart(form)) return resizePart(native.algorithmName(), native, native.from(), native.to(), native.sampleBuckets(), form === 'part');
    const columns = form !== 'objects';
    const from = native.from();
    const to = native.to();
    // In columns, no object per source: 10^6 -> 4 buckets made 10^6 of them
    // (about 0.5 s in Node, and 2.5 s more to copy them to another thread).
    const balance = balanceColumns(native.flowBalance(), native.hasFlows() ? from : 0);
    const flowBalance = columns ? balance : Array.from(balance.movedOut, (movedOut, source) =>
      ({ source, movedOut, chiSquare: balance.chiSquare[source], degreesOfFreedom: balance.degreesOfFreedom[source] }));
    const sample = movedSample(native, native.sampleBuckets(), columns);
    const result = {
      algorithm: native.algorithmName(),
      from,
      to,
      total: native.done(),
      moved: native.moved(),
      minimumMovedExpected: native.minimumMovedExpected(),
      loadsBefore: copyDoubles(native.loadsBefore(), from),
      loadsAfter: copyDoubles(native.loadsAfter(), to),
      ...flowsIn(native, form, from * to),
      flowBalance,
      sample,
      nodesBefore: null,
      nodesAfter: null,
    };
    return result;
  }

  function nodeResizeResult(algorithm, native, form) {
    const from = native.beforeCount();
    const to = native.afterCount();
    if (isPart(form)) return resizePart(algorithm, native, from, to, native.sampleNodes(), form === 'part');
    const columns = form !== 'objects';
    const nodesBefore = nodeRows(native.beforeNames(), from, native.beforeWeights());
    const nodesAfter = nodeRows(native.afterNames(), to, native.afterWeights());
    const sample = movedSample(native, native.sampleNodes(), columns);
    return {
      algorithm,
      from,
      to,
      nodesBefore,
      nodesAfter,
      total: native.done(),
      moved: native.moved(),
      minimumMovedExpected: native.minimumMovedExpected(),
      loadsBefore: copyDoubles(native.loadsBefore(), from),
      loadsAfter: copyDoubles(native.loadsAfter(), to),
      ...flowsIn(native, form, from * to),
      flowBalance: columns ? balanceColumns(0, 0) : [],
      sample,
    };
  }

  function nodeLoadResult(algorithm, native) {
    const n = native.nodeCount();
    const nodes = nodeRows(native.nodeNames(), n, native.nodeWeights());
    const loads = copyDoubles(native.loads(), n);
    return {
      algorithm,
      n,
      nodes,
      idealShares: copyDoubles(native.idealShares(), n),
      loads,
      stats: loadStats(native),
    };
  }

  /** A job's 7 stats doubles (load_stats_doubles in bindings_shared.hpp) as LoadStats. */
  function loadStats(native) {
    const s = copyDoubles(native.stats(), 7);
    return { total: s[0], min: s[1], max: s[2], mean: s[3], maxOverMean: s[4], chiSquare: s[5], degreesOfFreedom: s[6] };
  }

  function loadResult(native) {
    const n = native.n();
    const loads = copyDoubles(native.loads(), n);
    return {
      algorithm: native.algorithmName(),
      n,
      nodes: null,
      idealShares: null,
      loads,
      stats: loadStats(native),
    };
  }

  // ---- the API ----------------------------------------------------------------

  function startResizeAs(fn, algo, keySpec, from, to, options) {
    const choice = choose(algo, fn);
    checkKeySpec(keySpec);
    const opts = checkOptions(options);
    const sampleLimit = opts.sampleLimit ?? DEFAULT_SAMPLE_LIMIT;
    const sampleToken = countToken(sampleLimit, 'sampleLimit');
    const fromCount = plainCount(choice, from);
    const toCount = Array.isArray(to) ? null : plainCount(choice, to);
    if (fromCount === null || toCount === null) {
      const before = topologyWire(from, [], fn);
      const after = Array.isArray(to) ? topologyWire(from, to, fn) : topologyWire(to, [], fn);
      const native = new m.NodeResizeJob(choice.index, choice.options, keySpec, before, after, sampleToken);
      const error = native.error();
      if (error) {
        native.delete();
        throw new RangeError(error);
      }
      return wrapJob(native, placeJob(native, opts, fn), choice.info.name, (job, form) => nodeResizeResult(choice.info.name, job, form), absorbResize, sampleLimit);
    }
    const native = new m.ResizeJob(choice.index, keySpec, countToken(fromCount, 'from'), countToken(toCount, 'to'), sampleToken);
    const error = native.error();
    if (error) {
      native.delete();
      throw new RangeError(error);
    }
    return wrapJob(native, placeJob(native, opts, fn), choice.info.name, resizeResult, absorbResize, sampleLimit);
  }

  function startLoadAs(fn, algo, keySpec, n, options) {
    const choice = choose(algo, fn);
    checkKeySpec(keySpec);
    const opts = checkOptions(options);
    const count = plainCount(choice, n);
    if (count === null) {
      const native = new m.NodeLoadJob(choice.index, choice.options, keySpec, topologyWire(n, [], fn));
      const error = native.error();
      if (error) {
        native.delete();
        // A count's message names the function where the CLI names LOAD.
        throw new RangeError(error.startsWith('bucket count') ? `${fn}: ${error}` : error);
      }
      return wrapJob(native, placeJob(native, opts, fn), choice.info.name, (job) => nodeLoadResult(choice.info.name, job), absorbLoad, null);
    }
    const native = new m.LoadJob(choice.index, keySpec, countToken(count, 'n'));
    const error = native.error();
    if (error) {
      native.delete();
      // The core's message for n names the function `load`; startLoad says its own name.
      throw new RangeError(error.startsWith('load: ') ? `${fn}: ${error.slice('load: '.length)}` : error);
    }
    return wrapJob(native, placeJob(native, opts, fn), choice.info.name, loadResult, absorbLoad, null);
  }

  // ---- clusters ----------------------------------------------------------------

  const coreLimits = {
    ...m.limits(),
    table: Object.freeze(
      m
        .limitTable()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [name, value, unit, bounds, enforcedBy] = line.split('\t');
          return Object.freeze({ name, value: Number(value), unit, bounds, enforcedBy });
        }),
    ),
  };

  /** The TypeError/RangeError for a bad keys/out pair of buckets(). */
  function checkBatch(keys, out) {
    if (!(keys instanceof BigUint64Array)) {
      throw new TypeError('keys must be a BigUint64Array (64-bit keys cannot travel in doubles)');
    }
    if (out !== undefined && !(out instanceof Int32Array)) throw new TypeError('out must be an Int32Array');
    if (out !== undefined && out.length < keys.length) {
      throw new RangeError(`out holds ${out.length} buckets, fewer than the ${keys.length} keys`);
    }
  }

  /** Runs `batch(count)` over keys in chunks of the batch buffers; fills out. */
  function inBatches(keys, out, batch) {
    checkBatch(keys, out);
    if (out === undefined) out = new Int32Array(keys.length);
    for (let start = 0; start < keys.length; start += batchCapacity) {
      const count = Math.min(batchCapacity, keys.length - start);
      batchViews();
      batchKeyView.set(count === keys.length ? keys : keys.subarray(start, start + count));
      batch(count);
      batchViews();
      out.set(count === batchCapacity ? batchOutView : batchOutView.subarray(0, count), start);
    }
    return out;
  }

  /** A Cluster (index.d.ts) over a native ClusterHandle. */
  function openCluster(choice, wire) {
    let native = new m.ClusterHandle(choice.index, choice.options, wire);
    const error = native.error();
    if (error) {
      native.delete();
      throw new RangeError(error);
    }
    const count = native.nodeCount();
    const nodes = nodeRows(native.nodeNames(), count, native.nodeWeights());
    const alive = () => {
      if (native === null) throw new Error('this cluster was disposed');
      return native;
    };
    const cluster = {
      algorithm: choice.info.name,
      options: choice.options,
      nodes,
      stateBytes: native.stateBytes(),
      bucket(key, fn = 'bucket') {
        const handle = alive();
        if (typeof key === 'bigint') {
          if (key < 0n || key >= KEY_LIMIT) throw new RangeError(m.keyError(key.toString()));
          batchViews();
          batchKeyView[0] = key;
          handle.locateBatch(1);
          batchViews();
          return batchOutView[0];
        }
        const token = keyToken(key, fn);
        const node = handle.locateText(token);
        if (node < 0) throw new RangeError(m.keyError(token));
        return node;
      },
      buckets(keys, out) {
        const handle = alive();
        return inBatches(keys, out, (n) => handle.locateBatch(n));
      },
      dispose() {
        if (native === null) return;
        if (finalizer) finalizer.unregister(cluster);
        native.delete();
        native = null;
      },
    };
    if (finalizer) finalizer.register(cluster, native, cluster);
    return cluster;
  }

  // bucket() and buckets() on node lists keep the last cluster they built,
  // keyed by its text, so a loop over keys does not rebuild a ring per key.
  let lastCluster = null;
  function cachedCluster(choice, wire) {
    const key = `${choice.index}\u0000${choice.options}\u0000${wire}`;
    if (lastCluster?.key !== key) {
      const cluster = openCluster(choice, wire);
      lastCluster?.cluster.dispose();
      lastCluster = { key, cluster };
    }
    return lastCluster.cluster;
  }

  const api = {
    version: m.version(),

    algorithms() {
      return registry.map(copyInfo);
    },

    limits() {
      return { ...coreLimits };
    },

    batchPath() {
      return m.batchPath();
    },

    setBatchPath(path) {
      if (path !== 'simd128' && path !== 'scalar') {
        throw new RangeError(`setBatchPath: path must be "simd128" or "scalar", got ${JSON.stringify(path)}`);
      }
      if (!m.setBatchPath(path)) throw new RangeError(`setBatchPath: this build has no ${path} path`);
    },

    parseNodes(text) {
      if (typeof text !== 'string') throw new TypeError(`parseNodes: text must be a string, got ${typeName(text)}`);
      const parsed = m.parseNodesText(text);
      if (parsed.error) throw new RangeError(parsed.error);
      const weights = parsed.weights.split(',');
      return parsed.names.split('\n').map((name, i) => ({ name, weight: Number(weights[i]) }));
    },

    parseChanges(text) {
      if (typeof text !== 'string') throw new TypeError(`parseChanges: text must be a string, got ${typeName(text)}`);
      const parsed = m.parseChangesText(text);
      if (parsed.error) throw new RangeError(parsed.error);
      if (parsed.kinds === '') return [];
      const weights = parsed.weights.split(',');
      const names = parsed.names.split('\n');
      return [...parsed.kinds].map((op, i) => {
        const name = names[i];
        if (op === '-') return { kind: 'remove', name };
        return { kind: op === '+' ? 'add' : 'reweight', name, weight: Number(weights[i]) };
      });
    },

    cluster(algo, topology) {
      const choice = choose(algo, 'cluster');
      return openCluster(choice, topologyWire(topology, [], 'cluster'));
    },

    language() {
      const words = m.languageWords();
      return { commands: words.commands.split(','), algorithms: words.algorithms.split(',') };
    },

    bucket(algo, key, topology) {
      const choice = choose(algo, 'bucket');
      const n = plainCount(choice, topology);
      if (n === null) {
        const cluster = cachedCluster(choice, topologyWire(topology, [], 'bucket'));
        return cluster.bucket(key, 'bucket');
      }
      const index = choice.index;
      if (typeof key === 'bigint') {
        if (key < 0n || key >= KEY_LIMIT) throw new RangeError(m.keyError(key.toString()));
        if (!isCount(n, MAX_BUCKETS)) throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
        return rawBucket(index, key, n);
      }
      const token = keyToken(key, 'bucket');
      if (!isCount(n, MAX_BUCKETS)) {
        const error = m.keyError(token);
        if (error) throw new RangeError(error);
        throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
      }
      const bucket = m.bucketOfText(index, token, n);
      if (bucket < 0) throw new RangeError(m.keyError(token));
      return bucket;
    },

    buckets(algo, keys, topology, out) {
      const choice = choose(algo, 'buckets');
      const n = plainCount(choice, topology);
      if (n === null) {
        checkBatch(keys, out);
        return cachedCluster(choice, topologyWire(topology, [], 'buckets')).buckets(keys, out);
      }
      if (!isCount(n, MAX_BUCKETS)) {
        checkBatch(keys, out);
        throw countError(countToken(n, 'n'), 'bucket count', 1, MAX_BUCKETS);
      }
      return inBatches(keys, out, (count) => m.bucketsBatch(choice.index, count, n));
    },

    run(script) {
      if (typeof script !== 'string') throw new TypeError('script must be a string');
      const { stdout, stderr, exitCode } = m.run(script);
      return { stdout, stderr, exitCode };
    },

    runStream(script, onChunk, budget = {}) {
      return streamScript('runStream', script, onChunk, '(stream, text)', budget, (name, bytes) => onChunk(name, utf8Decoder.decode(bytes)));
    },

    runStreamBytes(script, onChunk, budget = {}) {
      return streamScript('runStreamBytes', script, onChunk, '(stream, bytes, lines, chars)', budget, onChunk);
    },

    keyCount(keySpec) {
      checkKeySpec(keySpec);
      const { error, count } = m.keyCount(keySpec);
      if (error) throw new RangeError(error);
      return count;
    },

    parseKey(key) {
      if (typeof key === 'number') throw numberKeyError(key, 'parseKey');
      if (typeof key !== 'string') throw new TypeError(`parseKey: key must be a string (key text), got ${key === null ? 'null' : typeof key}`);
      const { error, decimal, label } = m.parseKey(key);
      if (error) throw new RangeError(error);
      return { value: BigInt(decimal), label };
    },

    moved(algo, keySpec, from, to, options) {
      const opts = checkOptions(options);
      const job = startResizeAs('moved', algo, keySpec, from, to, opts);
      try {
        runToEnd(job, opts);
        return job.result();
      } finally {
        job.dispose();
      }
    },

    startResize(algo, keySpec, from, to, options) {
      return startResizeAs('startResize', algo, keySpec, from, to, options);
    },

    load(algo, keySpec, n, options) {
      const opts = checkOptions(options);
      const job = startLoadAs('load', algo, keySpec, n, opts);
      try {
        runToEnd(job, opts);
        return job.result();
      } finally {
        job.dispose();
      }
    },

    startLoad(algo, keySpec, n, options) {
      return startLoadAs('startLoad', algo, keySpec, n, options);
    },

    trace(algo, key, max) {
      const index = choose(algo, 'trace').index;
      const token = keyToken(key, 'trace');
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
