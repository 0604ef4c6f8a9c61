// Argument errors: TypeError for wrong JavaScript types (above all a Number
// key), RangeError with exactly the CLI's message for bad values. The CLI's
// message is taken from the interpreter itself (run() of the same input), so
// the test fails if either side changes its wording alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliMessage, jumphash } from './helpers.mjs';

const jh = await jumphash();

/** The message the interpreter prints for `line` (after "line N: error: "). */
function cli(line, algo = 'jump') {
  const { stderr, exitCode } = jh.run(`ALGO ${algo}\n${line}\n`);
  assert.equal(exitCode, 1, `expected ${line} to fail`);
  return cliMessage(stderr);
}

function throwsRange(fn, message) {
  assert.throws(fn, (error) => {
    assert.equal(error.constructor, RangeError);
    assert.equal(error.message, message);
    return true;
  });
}

test('a Number key is a TypeError that explains doubles cannot hold 64-bit keys', () => {
  for (const key of [5, 0, 2 ** 53, 1.5, NaN]) {
    assert.throws(() => jh.bucket('jump', key, 10), (error) => {
      assert.equal(error.constructor, TypeError);
      assert.match(error.message, /JavaScript number/);
      assert.match(error.message, /2\^53/);
      assert.match(error.message, /bigint/);
      return true;
    });
  }
  assert.throws(() => jh.trace('jump', 5, 10), TypeError);
  assert.throws(() => jh.parseKey(5), TypeError);
  assert.throws(() => jh.bucket('jump', null, 10), TypeError);
  assert.throws(() => jh.bucket('jump', {}, 10), TypeError);
});

test('other wrong types are TypeErrors', () => {
  assert.throws(() => jh.bucket('jump', 1n, 10n), TypeError);
  assert.throws(() => jh.bucket('jump', 1n, '10'), TypeError);
  assert.throws(() => jh.bucket(3, 1n, 10), TypeError);
  assert.throws(() => jh.buckets('jump', [1n, 2n], 10), TypeError);
  assert.throws(() => jh.buckets('jump', new BigInt64Array(2), 10), TypeError);
  assert.throws(() => jh.buckets('jump', new Uint32Array(2), 10), TypeError);
  assert.throws(() => jh.buckets('jump', new BigUint64Array(2), 10, new Uint32Array(2)), TypeError);
  assert.throws(() => jh.buckets('jump', new BigUint64Array(2), 10, new Int32Array(1)), RangeError);
  assert.throws(() => jh.run(42), TypeError);
  assert.throws(() => jh.keyCount(42), TypeError);
  assert.throws(() => jh.moved('jump', 42, 10, 12), TypeError);
  assert.throws(() => jh.moved('jump', '0..9', '10', 12), TypeError);
  assert.throws(() => jh.load('jump', '0..9', 10, { onProgress: 'yes' }), TypeError);
  assert.throws(() => jh.trace('jump', 1n, '10'), TypeError);
});

test('bad n: RangeError with the CLI text, for bucket and buckets', () => {
  const cases = [
    [0, "bucket count must be an integer in 1..2147483647 (got '0')"],
    [-5, "bucket count must be an integer in 1..2147483647 (got '-5')"],
    [2147483648, "bucket count must be an integer in 1..2147483647 (got '2147483648')"],
  ];
  for (const [n, message] of cases) {
    assert.equal(cli(`HASH 42 ${n}`), message);
    throwsRange(() => jh.bucket('jump', 42n, n), message);
    throwsRange(() => jh.bucket('jump', '42', n), message);
    throwsRange(() => jh.buckets('jump', new BigUint64Array([42n]), n), message);
  }
  // Non-integers are reported as the CLI reports the same token.
  for (const n of [1.5, NaN, Infinity, 1e21]) {
    const message = cli(`HASH 42 ${String(n)}`);
    throwsRange(() => jh.bucket('jump', 42n, n), message);
    throwsRange(() => jh.buckets('jumpback', new BigUint64Array(1), n), message);
  }
});

test('bad keys: RangeError with the CLI text', () => {
  const tokens = ['-1', '18446744073709551616', '1.5', '1e3', 'abc', '0x', '0x10000000000000000', '"open', '"bad\\q"', ''];
  for (const token of tokens) {
    // An unterminated quote swallows the rest of a CLI line: end the line there.
    const unterminated = token.startsWith('"') && !/"$/.test(token.slice(1));
    const message = cli(unterminated ? `HASH ${token}` : `HASH ${token === '' ? "''" : token} 100`);
    if (token !== '') throwsRange(() => jh.bucket('jump', token, 100), message);
    if (token !== '') throwsRange(() => jh.parseKey(token), message);
  }
  // A bigint outside 0..2^64-1 gets the message of its decimal text.
  throwsRange(() => jh.bucket('jump', -1n, 100), cli('HASH -1 100'));
  throwsRange(() => jh.bucket('jump', 2n ** 64n, 100), cli('HASH 18446744073709551616 100'));
  throwsRange(() => jh.trace('jump', 2n ** 64n, 100), cli('TRACE 18446744073709551616 100'));
  // The key is checked before n, as HASH does.
  throwsRange(() => jh.bucket('jump', 'abc', 0), cli('HASH abc 0'));
});

test('unknown algorithm: RangeError with the CLI text; names are case-insensitive', () => {
  const message = cli('ALGO ring');
  throwsRange(() => jh.bucket('ring', 1n, 10), message);
  throwsRange(() => jh.buckets('ring', new BigUint64Array(1), 10), message);
  throwsRange(() => jh.moved('ring', '0..9', 10, 12), message);
  throwsRange(() => jh.load('ring', '0..9', 10), message);
  throwsRange(() => jh.trace('ring', 1n, 10), message);
  assert.equal(jh.bucket('JumpBack', 2n ** 64n - 1n, 100), 73);
});

test('bad key specs, counts and maxima: RangeError with the CLI text', () => {
  for (const spec of ['9..3', '0..18446744073709551615', '0..999999999 1', 'random:10', 'random:1000000001:1', 'random:10:-1', '1..x', 'nope', '"unterminated']) {
    const message = cli(`KEYS ${spec}`);
    throwsRange(() => jh.keyCount(spec), message);
    throwsRange(() => jh.moved('jump', spec, 10, 12), message);
    throwsRange(() => jh.startResize('jump', spec, 10, 12), message);
    throwsRange(() => jh.load('jump', spec, 10), message);
    throwsRange(() => jh.startLoad('jump', spec, 10), message);
  }
  throwsRange(() => jh.moved('jump', '0..9', 0, 12), cli('MOVED 0 12'));
  throwsRange(() => jh.moved('jump', '0..9', 10, -1), cli('MOVED 10 -1'));
  throwsRange(() => jh.load('jump', '0..9', 1000001), cli('LOAD 1000001'));
  throwsRange(() => jh.load('jump', '0..9', 0), cli('LOAD 0'));
  throwsRange(() => jh.trace('jump', 42n, 0), cli('TRACE 42 0'));
  throwsRange(() => jh.trace('jump', 42n, 2147483648), cli('TRACE 42 2147483648'));
  throwsRange(() => jh.trace('modulo', 42n, 1000001), cli('TRACE 42 1000001', 'modulo'));
  throwsRange(() => jh.trace('jump', '"x', 10), cli('TRACE "x'));
  throwsRange(() => jh.trace('jump', '"a"b', 10), cli('TRACE "a"b 10'));
  throwsRange(() => jh.bucket('jump', '"a"b', 10), cli('HASH "a"b 10'));
});

test('limits of the structured resize report beyond the CLI (loads kept per bucket)', () => {
  // MOVED accepts up to 2^31-1; the report keeps per-bucket loads, so 10^6.
  assert.equal(jh.run('KEYS 0..9\nMOVED 10 1000001\n').exitCode, 0);
  throwsRange(() => jh.moved('jump', '0..9', 10, 1000001), 'to bucket count must be an integer in 1..1000000 (got \'1000001\')');
  throwsRange(() => jh.moved('jump', '0..9', 10, 12, { sampleLimit: -1 }), "sampleLimit must be an integer in 0..1000000 (got '-1')");
  throwsRange(() => jh.moved('jump', '0..9', 10, 12, { chunkSize: 0 }), "chunkSize must be an integer in 1..9007199254740991 (got '0')");
  const job = jh.startLoad('jump', '0..9', 10);
  try {
    throwsRange(() => job.step(0), "maxKeys must be an integer in 1..9007199254740991 (got '0')");
    throwsRange(() => job.step(1.5), "maxKeys must be an integer in 1..9007199254740991 (got '1.5')");
  } finally {
    job.dispose();
  }
  assert.throws(() => job.step(1), /disposed/);
  assert.throws(() => job.result(), /disposed/);
  job.dispose(); // idempotent
});

test('loadJumphash: wasmBinary as Uint8Array or ArrayBuffer; independent instances; bad options', async () => {
  const { readFileSync } = await import('node:fs');
  const { loadJumphash } = await import('jumphash-wasm');
  const bytes = readFileSync(new URL('../dist/jumphash_wasm.wasm', import.meta.url));
  const fromBytes = await loadJumphash({ wasmBinary: new Uint8Array(bytes) });
  const fromBuffer = await loadJumphash({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  assert.notEqual(fromBytes, jh);
  for (const instance of [fromBytes, fromBuffer]) {
    assert.equal(instance.bucket('jumpback', 2n ** 64n - 1n, 100), 73);
    assert.equal(instance.version, jh.version);
  }
  // A job in one instance does not disturb another.
  const job = fromBytes.startLoad('jump', '0..99', 10);
  job.step(50);
  assert.equal(jh.load('jump', '0..99', 10).stats.total, 100);
  assert.equal(job.done, 50);
  job.dispose();
  await assert.rejects(loadJumphash({ wasmBinary: 'x.wasm' }), TypeError);
  await assert.rejects(loadJumphash(null), TypeError);
  await assert.rejects(loadJumphash({ wasmBinary: new Uint8Array([0, 1, 2]) }));
});
