// The Jump Consistent Hash exercise: starter program in JavaScript.
//
// Lamping & Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm" (2014):
// implement the hash and three reports built on it. This starter reads the
// commands and parses the keys; you write the part between the BEGIN and END
// lines below.
//
// How it runs: the whole script is in the global string `input`. Results go
// to console.log, one line each; a line that fails prints
// `line <N>: error: <message>` with console.error and the next lines still run.
//
// Keys are 64-bit unsigned integers (0..18446744073709551615) and are BigInts
// everywhere: a JavaScript Number holds only 53 bits, so it would round them.

// ===== BEGIN YOUR CODE =====

/**
 * Jump Consistent Hash: the bucket of `key` among `buckets` buckets.
 *
 * The paper's loop: start with b = -1 and j = 0; while j < buckets:
 *   b = j
 *   key = key * 2862933555777941757 + 1, modulo 2^64
 *   j = floor((b + 1) * (2^31 / ((key >> 33) + 1))), in double precision
 * and return b.
 *
 * Hints: keep `key` a BigInt (BigInt.asUintN(64, x) is x modulo 2^64); only
 * the division needs a Number.
 *
 * @param {bigint} key      the key, 0..2^64-1
 * @param {number} buckets  the bucket count, 1..2147483647
 * @returns {number} the bucket, 0..buckets-1
 */
function jumpHash(key, buckets) {
  throw new Error(
    'TODO: write jumpHash(key, buckets) in the YOUR CODE region: the bucket (0..buckets-1) ' +
      'of the 64-bit key, computed with the paper\'s loop (see the comment above jumpHash)',
  );
}

/**
 * BUCKETS <n>: for each key of `keys`, in order, prints
 *   <key>: <bucket>
 * e.g. `42: 43` for key 42 and n = 100. Print a key as `key.text`.
 *
 * `keys` is the key list of the last KEYS command: loop over it with
 * `for (const key of keys)`; `key.value` is the BigInt to hash, `key.text` is
 * how the key prints; `keys.count` is how many keys there are.
 *
 * @param {Iterable<{value: bigint, text: string}> & {count: number}} keys
 * @param {number} buckets  n, 1..2147483647
 */
function reportBuckets(keys, buckets) {
  throw new Error(
    'TODO: write reportBuckets(keys, buckets): print "<key>: <bucket>" for each key ' +
      '(see the comment above reportBuckets)',
  );
}

/**
 * MOVED <from> <to>: for each key whose bucket at `fromBuckets` differs from
 * its bucket at `toBuckets`, in key order, prints
 *   <key>: <old bucket> -> <new bucket>
 * and then one last line with the number of keys that moved and of all keys:
 *   moved: <count> of <total>
 * e.g. `5: 4 -> 10` ... `moved: 4 of 20`.
 *
 * @param {Iterable<{value: bigint, text: string}> & {count: number}} keys
 * @param {number} fromBuckets  1..2147483647
 * @param {number} toBuckets    1..2147483647
 */
function reportMoved(keys, fromBuckets, toBuckets) {
  throw new Error(
    'TODO: write reportMoved(keys, fromBuckets, toBuckets): print "<key>: <old> -> <new>" ' +
      'for each key that moves, then "moved: <count> of <total>" ' +
      '(see the comment above reportMoved)',
  );
}

/**
 * LOAD <n>: how many keys land in each bucket. Prints, for every bucket
 * 0..n-1 in order (also the empty ones),
 *   <bucket>: <count>
 * e.g. `0: 2` `1: 3` ...
 *
 * @param {Iterable<{value: bigint, text: string}> & {count: number}} keys
 * @param {number} buckets  n, 1..1000000
 */
function reportLoad(keys, buckets) {
  throw new Error(
    'TODO: write reportLoad(keys, buckets): print "<bucket>: <count>" for every bucket ' +
      '0..buckets-1 (see the comment above reportLoad)',
  );
}

/**
 * TRACE <key> <max> (a bonus): the key's jump history. Prints
 *   <n>: <bucket>
 * for every n in 1..max at which the key's bucket changes, in increasing n
 * (the first line is always `1: 0`).
 *
 * Hint: max can be 2147483647, too many n to try one by one. Jump hash only
 * ever moves a key to the new bucket, so its bucket changes at n = b + 1 for
 * each bucket b it passes through, and the bucket it had just before b is
 * jumpHash(key, b).
 *
 * @param {{value: bigint, text: string}} key
 * @param {number} max  1..2147483647
 */
function reportTrace(key, max) {
  throw new Error(
    'TODO: write reportTrace(key, max) (a bonus): print "<n>: <bucket>" for every n in ' +
      '1..max where the bucket changes (see the comment above reportTrace)',
  );
}

// ===== END YOUR CODE =====

// ---------------------------------------------------------------------------
// Everything below reads the script. You do not need to change it.

/** The largest bucket count: 2^31 - 1, as the paper's int32_t n. */
const MAX_BUCKETS = 2147483647;
/** The largest bucket count of LOAD (one counter per bucket). */
const MAX_LOAD_BUCKETS = 1000000;
/** The most keys one KEYS command may hold. */
const MAX_KEYS = 1000000000;
const MAX_KEY = 18446744073709551615n; // 2^64 - 1

const KEY_FORMS =
  'a key is a decimal integer 0..18446744073709551615, 0x followed by 1 to 16 hex digits, ' +
  'or a "quoted string"';
const EXERCISE_COMMANDS =
  'ALGO jump, HASH <key> <n>, KEYS <spec>..., BUCKETS <n>, MOVED <from> <to>, LOAD <n>, TRACE <key> <max>';

/** A mistake in the script: its message says what is wrong and what is allowed. */
class InputError extends Error {}

// ----- Showing user input in messages -----

/**
 * `text` as an error message shows it: control characters as \u{1b},
 * at most 80 characters, then "... (<size> bytes)".
 */
function shown(text) {
  let out = '';
  let count = 0;
  for (const character of text) {
    if (count === 80) return `${out}... (${utf8Bytes(text, true).length} bytes)`;
    const code = character.codePointAt(0);
    const hidden =
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069) ||
      (code >= 0xd800 && code <= 0xdfff);
    out += hidden ? `\\u{${code.toString(16)}}` : character;
    count++;
  }
  return out;
}

const quoted = (text) => `'${shown(text)}'`;

// ----- UTF-8 -----

/**
 * The UTF-8 bytes of `text`, or null when it holds a lone surrogate (which
 * has no UTF-8 form); with `lenient`, a lone surrogate counts as 3 bytes.
 */
function utf8Bytes(text, lenient = false) {
  const bytes = [];
  for (const character of text) {
    const code = character.codePointAt(0);
    if (code >= 0xd800 && code <= 0xdfff && !lenient) return null;
    if (code < 0x80) {
      bytes.push(code);
    } else if (code < 0x800) {
      bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 0x3f),
        0x80 | ((code >> 6) & 0x3f),
        0x80 | (code & 0x3f),
      );
    }
  }
  return Uint8Array.from(bytes);
}

// ----- XXH3-64 (seed 0): the key of a "quoted string" -----
// Yann Collet's XXH3 (xxHash 0.8), 64-bit output, seed 0, default secret,
// for every length class. Arithmetic is modulo 2^64 on BigInts.

const XXH_SECRET = new DataView(
  Uint8Array.from([
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
  ]).buffer,
);
const PRIME32_1 = 0x9e3779b1n;
const PRIME32_2 = 0x85ebca77n;
const PRIME32_3 = 0xc2b2ae3dn;
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;

const u64 = (x) => BigInt.asUintN(64, x);
const read32 = (view, offset) => BigInt(view.getUint32(offset, true));
const read64 = (view, offset) => view.getBigUint64(offset, true);
const rotl64 = (x, bits) => u64((x << BigInt(bits)) | (x >> BigInt(64 - bits)));

/** The 128-bit product of a and b, its two halves XORed together. */
function mul128Fold64(a, b) {
  const product = a * b;
  return u64(product) ^ (product >> 64n);
}

function xxh64Avalanche(h) {
  h ^= h >> 33n;
  h = u64(h * PRIME64_2);
  h ^= h >> 29n;
  h = u64(h * PRIME64_3);
  return h ^ (h >> 32n);
}

function xxh3Avalanche(h) {
  h ^= h >> 37n;
  h = u64(h * 0x165667919e3779f9n);
  return h ^ (h >> 32n);
}

function rrmxmx(h, length) {
  h ^= rotl64(h, 49) ^ rotl64(h, 24);
  h = u64(h * 0x9fb21c651e98df25n);
  h ^= (h >> 35n) + BigInt(length);
  h = u64(h * 0x9fb21c651e98df25n);
  return h ^ (h >> 28n);
}

/** 16 input bytes at `at` mixed with 16 secret bytes at `secretAt`. */
function mix16(data, at, secretAt) {
  return mul128Fold64(
    read64(data, at) ^ read64(XXH_SECRET, secretAt),
    read64(data, at + 8) ^ read64(XXH_SECRET, secretAt + 8),
  );
}

/** One 64-byte stripe at `at` into the 8 accumulators. */
function accumulateStripe(acc, data, at, secretAt) {
  for (let i = 0; i < 8; i++) {
    const value = read64(data, at + 8 * i);
    const keyed = value ^ read64(XXH_SECRET, secretAt + 8 * i);
    acc[i ^ 1] = u64(acc[i ^ 1] + value);
    acc[i] = u64(acc[i] + (keyed & 0xffffffffn) * (keyed >> 32n));
  }
}

function scramble(acc) {
  for (let i = 0; i < 8; i++) {
    let a = acc[i];
    a ^= a >> 47n;
    a ^= read64(XXH_SECRET, 128 + 8 * i);
    acc[i] = u64(a * PRIME32_1);
  }
}

/** Inputs of more than 240 bytes: stripes of 64 bytes, blocks of 16 stripes. */
function xxh3Long(data, length) {
  const acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1];
  const blockLength = 1024;
  const blocks = Math.floor((length - 1) / blockLength);
  for (let block = 0; block < blocks; block++) {
    for (let stripe = 0; stripe < 16; stripe++) {
      accumulateStripe(acc, data, block * blockLength + 64 * stripe, 8 * stripe);
    }
    scramble(acc);
  }
  const stripes = Math.floor((length - 1 - blocks * blockLength) / 64);
  for (let stripe = 0; stripe < stripes; stripe++) {
    accumulateStripe(acc, data, blocks * blockLength + 64 * stripe, 8 * stripe);
  }
  accumulateStripe(acc, data, length - 64, 192 - 64 - 7); // the last stripe
  let result = u64(BigInt(length) * PRIME64_1);
  for (let i = 0; i < 4; i++) {
    result = u64(
      result +
        mul128Fold64(acc[2 * i] ^ read64(XXH_SECRET, 11 + 16 * i), acc[2 * i + 1] ^ read64(XXH_SECRET, 19 + 16 * i)),
    );
  }
  return xxh3Avalanche(result);
}

/** XXH3-64 with seed 0 of `bytes` (a Uint8Array). */
function xxh3(bytes) {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = bytes.length;
  if (length === 0) return xxh64Avalanche(read64(XXH_SECRET, 56) ^ read64(XXH_SECRET, 64));
  if (length <= 3) {
    const combined =
      (BigInt(bytes[0]) << 16n) | (BigInt(bytes[length >> 1]) << 24n) | BigInt(bytes[length - 1]) | (BigInt(length) << 8n);
    return xxh64Avalanche(combined ^ (read32(XXH_SECRET, 0) ^ read32(XXH_SECRET, 4)));
  }
  if (length <= 8) {
    const combined = read32(data, length - 4) + (read32(data, 0) << 32n);
    return rrmxmx(combined ^ (read64(XXH_SECRET, 8) ^ read64(XXH_SECRET, 16)), length);
  }
  if (length <= 16) {
    const low = read64(data, 0) ^ (read64(XXH_SECRET, 24) ^ read64(XXH_SECRET, 32));
    const high = read64(data, length - 8) ^ (read64(XXH_SECRET, 40) ^ read64(XXH_SECRET, 48));
    const lowSwapped = new DataView(new ArrayBuffer(8));
    lowSwapped.setBigUint64(0, low, true);
    const acc = BigInt(length) + lowSwapped.getBigUint64(0, false) + high + mul128Fold64(low, high);
    return xxh3Avalanche(u64(acc));
  }
  if (length <= 128) {
    let acc = u64(BigInt(length) * PRIME64_1);
    if (length > 32) {
      if (length > 64) {
        if (length > 96) {
          acc += mix16(data, 48, 96) + mix16(data, length - 64, 112);
        }
        acc += mix16(data, 32, 64) + mix16(data, length - 48, 80);
      }
      acc += mix16(data, 16, 32) + mix16(data, length - 32, 48);
    }
    acc += mix16(data, 0, 0) + mix16(data, length - 16, 16);
    return xxh3Avalanche(u64(acc));
  }
  if (length <= 240) {
    let acc = u64(BigInt(length) * PRIME64_1);
    for (let i = 0; i < 8; i++) acc += mix16(data, 16 * i, 16 * i);
    acc = xxh3Avalanche(u64(acc));
    const rounds = Math.floor(length / 16);
    for (let i = 8; i < rounds; i++) acc += mix16(data, 16 * i, 16 * (i - 8) + 3);
    acc += mix16(data, length - 16, 136 - 17);
    return xxh3Avalanche(u64(acc));
  }
  return xxh3Long(data, length);
}

// ----- SplitMix64: the keys of random:COUNT:SEED -----
// Steele, Lea & Flood, "Fast splittable pseudorandom number generators" (2014).

const SPLITMIX64_GAMMA = 0x9e3779b97f4a7c15n;

function splitMix64Mix(z) {
  z = u64((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = u64((z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

// ----- Keys and key lists -----

/** A decimal (0..2^64-1) or 0x hex (1 to 16 digits) key, as a BigInt. */
function parseNumber(token) {
  if (/^0[xX]/.test(token)) {
    const digits = token.slice(2);
    if (!/^[0-9a-fA-F]+$/.test(digits)) throw new InputError(`${quoted(token)} is not a key (${KEY_FORMS})`);
    if (digits.length > 16) {
      throw new InputError(
        `${quoted(token)} has more than 16 hex digits (keys are 64-bit: at most 0xFFFFFFFFFFFFFFFF)`,
      );
    }
    return BigInt(token.toLowerCase());
  }
  if (!/^[0-9]+$/.test(token)) throw new InputError(`${quoted(token)} is not a key (${KEY_FORMS})`);
  const value = BigInt(token);
  if (value > MAX_KEY) {
    throw new InputError(`${quoted(token)} is out of range (keys are 0..18446744073709551615)`);
  }
  return value;
}

/**
 * A "quoted string" key: its value is XXH3-64 of its UTF-8 bytes; it prints
 * as written. `token` comes from splitWords, which found its closing quote.
 */
function parseStringKey(token) {
  let text = '';
  for (let i = 1; i < token.length - 1; i++) {
    if (token[i] === '\\') {
      const next = token[i + 1];
      if (next !== '"' && next !== '\\') {
        throw new InputError(
          `unknown escape '\\${shown(next)}' in string key ${shown(token)} (allowed: \\" and \\\\)`,
        );
      }
      text += next;
      i++;
    } else {
      text += token[i];
    }
  }
  const bytes = utf8Bytes(text);
  if (bytes === null) throw new InputError(`string key ${shown(token)} is not valid UTF-8`);
  return { value: xxh3(bytes), text: token };
}

/**
 * One key token: decimal, 0x hex or a "quoted string".
 * @returns {{value: bigint, text: string}} the key and how it prints
 */
function parseKey(token) {
  if (token.startsWith('"')) {
    const end = closingQuote(token);
    if (end !== token.length - 1) {
      throw new InputError(
        `unexpected text after the closing quote of ${shown(token.slice(0, end + 1))} (separate arguments with a space)`,
      );
    }
    return parseStringKey(token);
  }
  const value = parseNumber(token);
  return { value, text: value.toString() };
}

/** Index of the quote that closes the string starting `token`. */
function closingQuote(token) {
  for (let i = 1; i < token.length; i++) {
    if (token[i] === '\\') i++;
    else if (token[i] === '"') return i;
  }
  return token.length - 1;
}

/**
 * A plain decimal integer in min..max, such as a bucket count.
 * The error reads "<what> must be an integer in <min>..<max> (got '<token>')".
 */
function parseCount(token, what, min, max) {
  if (!/^[0-9]+$/.test(token) || BigInt(token) < BigInt(min) || BigInt(token) > BigInt(max)) {
    throw new InputError(`${what} must be an integer in ${min}..${max} (got ${quoted(token)})`);
  }
  return Number(token);
}

function* rangeKeys(first, last) {
  for (let value = first; value <= last; value++) yield { value, text: value.toString() };
}

function* randomKeys(seed, count) {
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = u64(state + SPLITMIX64_GAMMA);
    const value = splitMix64Mix(state);
    yield { value, text: value.toString() };
  }
}

/**
 * The keys of a KEYS command, made one at a time as a report asks for them
 * (KEYS 0..999999999 takes no memory). Loop with `for (const key of keys)`.
 */
class KeyList {
  constructor(parts, count) {
    this.parts = parts; // functions that each return an iterator of keys
    this.count = count; // how many keys in all
  }

  *[Symbol.iterator]() {
    for (const part of this.parts) yield* part();
  }
}

/** The arguments of KEYS: keys, ranges A..B and random:COUNT:SEED. */
function parseKeyList(specs) {
  const parts = [];
  let count = 0;
  for (const spec of specs) {
    let size;
    const dots = spec.indexOf('..');
    if (spec.startsWith('"')) {
      const key = parseKey(spec);
      parts.push(() => [key][Symbol.iterator]());
      size = 1;
    } else if (spec.length > 7 && spec.startsWith('random:')) {
      const rest = spec.slice(7);
      const colon = rest.indexOf(':');
      if (colon < 0) {
        throw new InputError(`${quoted(spec)} is not a random key set (write random:COUNT:SEED, e.g. random:1000:42)`);
      }
      size = parseCount(rest.slice(0, colon), 'random key count', 0, MAX_KEYS);
      let seed;
      try {
        seed = parseNumber(rest.slice(colon + 1));
      } catch (error) {
        throw new InputError(`random key seed: ${error.message}`);
      }
      const randomCount = size;
      parts.push(() => randomKeys(seed, randomCount));
    } else if (dots >= 0) {
      let first;
      let last;
      try {
        first = parseNumber(spec.slice(0, dots));
        last = parseNumber(spec.slice(dots + 2));
      } catch (error) {
        throw new InputError(`range ${quoted(spec)}: ${error.message}`);
      }
      if (first > last) throw new InputError(`range ${quoted(spec)} is empty: its first key must be at most its last`);
      if (last - first >= BigInt(MAX_KEYS)) throw tooManyKeys(spec);
      size = Number(last - first + 1n);
      parts.push(() => rangeKeys(first, last));
    } else {
      let key;
      try {
        key = parseKey(spec);
      } catch (error) {
        throw new InputError(`${error.message}; KEYS also takes ranges A..B and random:COUNT:SEED`);
      }
      parts.push(() => [key][Symbol.iterator]());
      size = 1;
    }
    if (count + size > MAX_KEYS) throw tooManyKeys(spec);
    count += size;
  }
  return new KeyList(parts, count);
}

function tooManyKeys(spec) {
  return new InputError(
    `too many keys: ${quoted(spec)} brings the set above ${MAX_KEYS} keys (the most one key set may hold)`,
  );
}

// ----- Splitting a line into words -----

/**
 * The words of one line, split at spaces and tabs. A "quoted string" is one
 * word even with spaces or # inside; # outside quotes starts a comment.
 */
function splitWords(line) {
  const words = [];
  const isSpace = (c) => c === ' ' || c === '\t' || c === '\r';
  let i = 0;
  while (i < line.length) {
    if (isSpace(line[i])) {
      i++;
      continue;
    }
    if (line[i] === '#') break;
    const start = i;
    // A node edit may put + or - before a quoted name: -"cache 3".
    const signedQuote = (line[i] === '+' || line[i] === '-') && line[i + 1] === '"';
    if (line[i] === '"' || signedQuote) {
      i += signedQuote ? 2 : 1;
      let closed = false;
      while (i < line.length) {
        if (line[i] === '\\' && i + 1 < line.length) {
          i += 2;
        } else if (line[i] === '"') {
          i++;
          closed = true;
          break;
        } else {
          i++;
        }
      }
      if (!closed) throw new InputError(`string ${shown(line.slice(start))} has no closing quote`);
      // A quoted node name may carry a weight: "cache 3"*2.
      if (line[i] === '*') {
        while (i < line.length && !isSpace(line[i]) && line[i] !== '#' && line[i] !== '"') i++;
      }
      if (i < line.length && !isSpace(line[i]) && line[i] !== '#') {
        throw new InputError(
          `unexpected text after the closing quote of ${shown(line.slice(start, i))} (separate arguments with a space)`,
        );
      }
    } else {
      while (i < line.length && !isSpace(line[i]) && line[i] !== '#') {
        if (line[i] === '"') {
          throw new InputError(
            `'"' inside ${quoted(line.slice(start, i + 1))} (a string key starts with '"' and stands alone)`,
          );
        }
        i++;
      }
    }
    words.push(line.slice(start, i));
  }
  return words;
}

// ----- The commands -----

/** The key list of the last KEYS command (empty before the first). */
let currentKeys = new KeyList([], 0);

/** An error for a command of the full language that this exercise leaves out. */
function notInExercise(what, instead) {
  return new InputError(`${what}, which is not part of this exercise (${instead})`);
}

function arityError(command, usage, got) {
  return new InputError(`${command} takes ${usage}, got ${got}`);
}

function runCommand(words) {
  const command = words[0].toUpperCase();
  const args = words.slice(1);
  switch (command) {
    case 'ALGO': {
      if (args.length === 0) throw new InputError('ALGO takes a name (ALGO jump), got nothing');
      if (args[0].toLowerCase() !== 'jump') {
        throw new InputError(
          `algorithm ${quoted(args[0])} is not part of this exercise, which computes jump only ` +
            '(write ALGO jump, or leave ALGO out)',
        );
      }
      if (args.length > 1) throw new InputError(`unknown option ${quoted(args[1])} for jump (jump takes no options)`);
      return;
    }
    case 'HASH': {
      if (args.length === 1) {
        throw notInExercise('HASH <key> without n places the key on a node list', 'write HASH <key> <n>');
      }
      if (args.length !== 2) throw arityError('HASH', '2 arguments (HASH <key> <n>)', args.length);
      const key = parseKey(args[0]);
      const buckets = parseCount(args[1], 'bucket count', 1, MAX_BUCKETS);
      const bucket = jumpHash(key.value, buckets);
      if (!Number.isInteger(bucket) || bucket < 0 || bucket >= buckets) {
        throw new InputError(
          `jumpHash(${key.value}n, ${buckets}) returned ${shown(String(bucket))} (${typeof bucket}); ` +
            `it must return a Number, an integer in 0..${buckets - 1}`,
        );
      }
      console.log(`${key.text}: ${bucket}`);
      return;
    }
    case 'KEYS':
      currentKeys = parseKeyList(args); // a failing KEYS leaves the keys as they were
      return;
    case 'BUCKETS': {
      if (args.length === 0) throw notInExercise('BUCKETS without n places keys on a node list', 'write BUCKETS <n>');
      if (args.length !== 1) throw arityError('BUCKETS', '1 argument (BUCKETS <n>)', args.length);
      reportBuckets(currentKeys, parseCount(args[0], 'bucket count', 1, MAX_BUCKETS));
      return;
    }
    case 'MOVED': {
      if (args.length > 0 && /^[-+=]/.test(args[0])) {
        throw notInExercise(
          `MOVED ${shown(args[0])} edits a node list (-name, +name, =name*weight)`,
          'write MOVED <from> <to>',
        );
      }
      if (args.length !== 2) throw arityError('MOVED', '2 arguments (MOVED <from> <to>)', args.length);
      const fromBuckets = parseCount(args[0], 'from bucket count', 1, MAX_BUCKETS);
      const toBuckets = parseCount(args[1], 'to bucket count', 1, MAX_BUCKETS);
      reportMoved(currentKeys, fromBuckets, toBuckets);
      return;
    }
    case 'LOAD': {
      if (args.length === 0) throw notInExercise('LOAD without n counts keys on a node list', 'write LOAD <n>');
      if (args.length !== 1) throw arityError('LOAD', '1 argument (LOAD <n>)', args.length);
      reportLoad(currentKeys, parseCount(args[0], 'LOAD bucket count', 1, MAX_LOAD_BUCKETS));
      return;
    }
    case 'TRACE': {
      if (args.length !== 2) throw arityError('TRACE', '2 arguments (TRACE <key> <max>)', args.length);
      const key = parseKey(args[0]);
      reportTrace(key, parseCount(args[1], 'TRACE max', 1, MAX_BUCKETS));
      return;
    }
    case 'NODES':
    case 'REMOVE':
    case 'ADD':
      throw notInExercise(`${command} works on a node list`, `the commands here: ${EXERCISE_COMMANDS}`);
    default:
      throw new InputError(
        `unknown command ${quoted(words[0])} (known: ALGO, HASH, KEYS, BUCKETS, MOVED, LOAD, TRACE)`,
      );
  }
}

/** The message of an error: a script mistake or a TODO as it is, any other error with its kind. */
function describeError(error) {
  if (!(error instanceof Error)) return `your code threw ${shown(String(error))}`;
  if (error instanceof InputError || error.name === 'Error') return error.message;
  return `${error.name}: ${error.message}`;
}

/** Runs one line; an error prints as `line <N>: error: <message>` and the run goes on. */
function runLine(line, lineNumber) {
  try {
    const words = splitWords(line);
    if (words.length > 0) runCommand(words);
  } catch (error) {
    console.error(`line ${lineNumber}: error: ${describeError(error)}`);
  }
}

function runScript(script) {
  const lines = script.split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // a final newline ends the last line
  lines.forEach((line, index) => runLine(line, index + 1));
}

runScript(input);
