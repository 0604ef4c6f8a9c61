// Argument errors: TypeError for wrong JavaScript types (above all a Number
// key), RangeError with exactly the CLI's message for bad values. The CLI's
// message is taken from the interpreter itself (run() of the same input), so
// the test fails if either side changes its wording alone.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

test('a Number key is a TypeError that says what is wrong and what to pass, never a rounded value', () => {
  const allowed = "keys are integers 0..2^64-1, passed as a bigint (e.g. 42n) or as key text (e.g. '42', '0x1F' or '\"alice\"')";
  const rounded = (fn, text) => `${fn}: key ${text} is a JavaScript number above 2^53-1, so it was already rounded to a double ` +
    'before this call and may not be the key you wrote; write the key as a BigInt literal (its exact digits followed by n) ' +
    'or as a string of its exact digits';
  const cases = [
    [42, "bucket: key 42 is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are 64-bit: pass 42n or '42' instead"],
    [0, "bucket: key 0 is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are 64-bit: pass 0n or '0' instead"],
    [2 ** 53 - 1, "bucket: key 9007199254740991 is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are 64-bit: pass 9007199254740991n or '9007199254740991' instead"],
    // 2^53 may be 2^53+1 rounded; 2^60 prints as 1152921504606847000, another key.
    [2 ** 53, rounded('bucket', '9007199254740992')],
    [2 ** 60, rounded('bucket', '1152921504606847000')],
    [2 ** 64, rounded('bucket', '18446744073709552000')],
    [1.5, `bucket: key 1.5 is a JavaScript number that is not an integer; ${allowed}`],
    [NaN, `bucket: key NaN is a JavaScript number that is not an integer; ${allowed}`],
    [Infinity, `bucket: key Infinity is a JavaScript number that is not an integer; ${allowed}`],
    [-5, `bucket: key -5 is a negative JavaScript number; ${allowed}`],
  ];
  for (const [key, message] of cases) {
    assert.throws(() => jh.bucket('jump', key, 10), (error) => {
      assert.equal(error.constructor, TypeError);
      assert.equal(error.message, message);
      assert.equal(error.message.includes('1152921504606847000n'), false);
      return true;
    });
  }
  assert.throws(() => jh.trace('jump', 2 ** 60, 10), { name: 'TypeError', message: rounded('trace', '1152921504606847000') });
  assert.throws(() => jh.trace('jump', 5, 10), {
    name: 'TypeError',
    message: "trace: key 5 is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are 64-bit: pass 5n or '5' instead",
  });
  // parseKey takes key text only, so it suggests text only.
  assert.throws(() => jh.parseKey(5), {
    name: 'TypeError',
    message: "parseKey: key 5 is a JavaScript number, which holds integers exactly only up to 2^53-1, and keys are 64-bit: pass '5' instead",
  });
  assert.throws(() => jh.parseKey(2 ** 60), {
    name: 'TypeError',
    message: 'parseKey: key 1152921504606847000 is a JavaScript number above 2^53-1, so it was already rounded to a double ' +
      'before this call and may not be the key you wrote; write the key as a string of its exact digits',
  });
  assert.throws(() => jh.parseKey(1.5), {
    name: 'TypeError',
    message: "parseKey: key 1.5 is a JavaScript number that is not an integer; keys are integers 0..2^64-1, passed as key text (e.g. '42', '0x1F' or '\"alice\"')",
  });
  assert.throws(() => jh.bucket('jump', null, 10), { name: 'TypeError', message: 'bucket: key must be a bigint or a string, got null' });
  assert.throws(() => jh.bucket('jump', {}, 10), { name: 'TypeError', message: 'bucket: key must be a bigint or a string, got object' });
  assert.throws(() => jh.parseKey(5n), { name: 'TypeError', message: 'parseKey: key must be a string (key text), got bigint' });
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

test('an algorithm argument answers alike on every call: a bad one throws each time, and past the strings remembered each still picks its own algorithm', () => {
  // bucket() remembers the last strings it accepted (api.js, choose).
  const message = cli('ALGO ring');
  const badOption = cli('ALGO maglev table=abc', 'jump');
  for (let round = 0; round < 3; round++) {
    throwsRange(() => jh.bucket('ring', 1n, 10), message);
    throwsRange(() => jh.bucket('maglev table=abc', 1n, 10), badOption);
  }
  const keys = [0n, 1n, 42n, 2n ** 63n, 2n ** 64n - 1n];
  const expected = (name) => keys.map((key) => jh.bucket({ name }, key, 1000));
  const want = { jump: expected('jump'), jumpback: expected('jumpback') };
  assert.notDeepEqual(want.jump, want.jumpback);
  // 200 spellings (names are case-insensitive), three times the strings remembered.
  const spellings = [];
  for (let i = 0; i < 100; i++) {
    for (const name of ['jump', 'jumpback']) {
      spellings.push([name, [...name].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('') + ' '.repeat(i >> 4)]);
    }
  }
  for (let round = 0; round < 2; round++) {
    for (const [name, spelling] of spellings) {
      assert.deepEqual(keys.map((key) => jh.bucket(spelling, key, 1000)), want[name], `${JSON.stringify(spelling)}, round ${round}`);
    }
  }
  const nodes = { kind: 'nodes', nodes: Array.from({ length: 10 }, (_, i) => ({ name: `cache-${i}` })) };
  const small = keys.map((key) => jh.bucket('maglev table=251', key, nodes));
  const large = keys.map((key) => jh.bucket('maglev', key, nodes));
  assert.notDeepEqual(small, large);
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(keys.map((key) => jh.bucket('maglev table=251', key, nodes)), small);
    assert.deepEqual(keys.map((key) => jh.bucket('maglev', key, nodes)), large);
  }
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
  // The CLI's words for the same token, with the range the call accepts and
  // the function's name where the CLI names its command (LOAD, TRACE).
  assert.equal(cli('LOAD 0'), "LOAD bucket count must be an integer in 1..1000000 (got '0')");
  assert.equal(cli('TRACE 42 0'), "TRACE max must be an integer in 1..2147483647 (got '0')");
  throwsRange(() => jh.moved('jump', '0..9', 0, 12), "from bucket count must be an integer in 1..1000000 (got '0')");
  throwsRange(() => jh.startResize('jump', '0..9', 2147483647, 12), "from bucket count must be an integer in 1..1000000 (got '2147483647')");
  throwsRange(() => jh.moved('jump', '0..9', 10, -1), "to bucket count must be an integer in 1..1000000 (got '-1')");
  throwsRange(() => jh.moved('jump', '0..9', 1.5, 12), "from bucket count must be an integer in 1..1000000 (got '1.5')");
  throwsRange(() => jh.load('jump', '0..9', 1000001), "load: bucket count must be an integer in 1..1000000 (got '1000001')");
  throwsRange(() => jh.load('jump', '0..9', 0), "load: bucket count must be an integer in 1..1000000 (got '0')");
  throwsRange(() => jh.startLoad('jump', '0..9', 0), "startLoad: bucket count must be an integer in 1..1000000 (got '0')");
  throwsRange(() => jh.trace('jump', 42n, 0), "trace: max must be an integer in 1..2147483647 (got '0')");
  throwsRange(() => jh.trace('jump', 42n, 2147483648), "trace: max must be an integer in 1..2147483647 (got '2147483648')");
  throwsRange(() => jh.trace('modulo', 42n, 1000001), "trace: max for modulo must be an integer in 1..1000000 (got '1000001')");
  // A node-set algorithm reads a bucket count as nodes "0".."n-1", up to the node limit.
  throwsRange(() => jh.bucket('ketama', 42n, 100001), cli('HASH 42 100001', 'ketama'));
  assert.equal(cli('HASH 42 100001', 'ketama'), "bucket count for ketama (one node per bucket) must be an integer in 1..100000 (got '100001')");
  throwsRange(() => jh.trace('ketama', 42n, 10), cli('TRACE 42 10', 'ketama').replace(/^TRACE /, 'trace '));
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
  assert.equal(job.resultInColumns, undefined, 'a load job has no sample to give in columns');
  const resize = jh.startResize('jump', '0..9', 10, 12);
  resize.dispose();
  assert.throws(() => resize.resultInColumns(), /disposed/);
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
  await assert.rejects(loadJumphash({ wasmBinary: 'x.wasm' }), {
    name: 'TypeError', message: 'loadJumphash: wasmBinary must be an ArrayBuffer or a Uint8Array (the bytes of jumphash_wasm.wasm), got string',
  });
  await assert.rejects(loadJumphash(null), { name: 'TypeError', message: 'loadJumphash options must be an object, got null' });
  await assert.rejects(loadJumphash({ wasmUrl: 42 }), {
    name: 'TypeError', message: 'loadJumphash: wasmUrl must be a string or a URL (where jumphash_wasm.wasm is served), got number',
  });
  await assert.rejects(loadJumphash({ wasmUrl: 'a.wasm', wasmBinary: bytes }), { name: 'TypeError', message: 'loadJumphash: pass wasmBinary or wasmUrl, not both' });
  await assert.rejects(loadJumphash({ wasmBinary: new Uint8Array([0, 1, 2]) }), {
    name: 'Error',
    message: 'loadJumphash: the wasmBinary option is not jumphash_wasm.wasm: it has 3 bytes starting with 00 01 02 ("..."), ' +
      'not a WebAssembly module (those start with 00 61 73 6d). Pass the bytes of node_modules/jumphash-wasm/dist/jumphash_wasm.wasm, or leave wasmBinary out.',
  });
  // wasmUrl: a URL object, and a relative path (to the working directory in Node).
  const fromUrl = await loadJumphash({ wasmUrl: new URL('../dist/jumphash_wasm.wasm', import.meta.url) });
  assert.equal(fromUrl.bucket('jump', 2n ** 64n - 1n, 100), 92);
  const { loadChecker } = await import('jumphash-wasm');
  const checker = await loadChecker({ wasmUrl: path.relative(process.cwd(), fileURLToPath(new URL('../dist/jumphash_checker_wasm.wasm', import.meta.url))) });
  assert.equal(checker.version, jh.version);
});

test('a .wasm that cannot be loaded: one Error with the URL, what came back and the two fixes; nothing on the console', async () => {
  const { loadChecker, loadJumphash } = await import('jumphash-wasm');
  const html = '<!DOCTYPE html>\n';
  const server = createServer((request, response) => {
    if (request.url === '/missing.wasm') response.writeHead(404, { 'Content-Type': 'text/html' }).end(html);
    else if (request.url === '/fallback.wasm') response.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
    else if (request.url === '/empty.wasm') response.writeHead(404).end();
    else response.writeHead(200, { 'Content-Type': 'application/wasm' }).end(Buffer.from([0, 0x61, 0x73, 0x6d, 9, 9, 9, 9]));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const printed = [];
  const saved = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    saved[level] = console[level];
    console[level] = (...args) => printed.push(args.join(' '));
  }
  const fixes = (fn, file) => `Fix it either way: import { ${fn} } from 'jumphash-wasm/inline' (the .wasm embedded in the JavaScript, ` +
    `nothing to serve), or serve node_modules/jumphash-wasm/dist/${file} yourself and pass its URL, ${fn}({ wasmUrl }), ` +
    `or its bytes, ${fn}({ wasmBinary }).`;
  const fix = fixes('loadJumphash', 'jumphash_wasm.wasm');
  try {
    await assert.rejects(loadJumphash({ wasmUrl: `${base}/missing.wasm` }), {
      name: 'Error',
      message: `loadJumphash: could not load jumphash_wasm.wasm from ${base}/missing.wasm: got HTTP 404 Not Found (text/html) ` +
        `with 16 bytes starting with 3c 21 44 4f ("<!DO"). ${fix}`,
    });
    await assert.rejects(loadJumphash({ wasmUrl: `${base}/empty.wasm` }), {
      message: `loadJumphash: could not load jumphash_wasm.wasm from ${base}/empty.wasm: got HTTP 404 Not Found with an empty body. ${fix}`,
    });
    // A dev server's fallback page instead of the .wasm.
    await assert.rejects(loadJumphash({ wasmUrl: `${base}/fallback.wasm` }), {
      message: `loadJumphash: could not load jumphash_wasm.wasm from ${base}/fallback.wasm: got HTTP 200 OK (text/html) ` +
        `with 16 bytes starting with 3c 21 44 4f ("<!DO"), not a WebAssembly module (those start with 00 61 73 6d). ${fix}`,
    });
    await assert.rejects(loadChecker({ wasmUrl: `${base}/broken.wasm` }), (error) => {
      const prefix = `loadChecker: could not load jumphash_checker_wasm.wasm from ${base}/broken.wasm: got HTTP 200 OK (application/wasm) ` +
        'with 8 bytes starting with 00 61 73 6d (".asm") that do not compile (CompileError: ';
      assert.ok(error.message.startsWith(prefix), error.message);
      assert.ok(error.message.endsWith(`). ${fixes('loadChecker', 'jumphash_checker_wasm.wasm')}`), error.message);
      return true;
    });
    server.close();
    await assert.rejects(loadJumphash({ wasmUrl: `${base}/gone.wasm` }), {
      message: `loadJumphash: could not load jumphash_wasm.wasm from ${base}/gone.wasm: the request failed (TypeError: fetch failed). ${fix}`,
    });
    const missing = path.join(tmpdir(), 'no-such-dir', 'jumphash_wasm.wasm');
    await assert.rejects(loadJumphash({ wasmUrl: pathToFileURL(missing) }), {
      message: `loadJumphash: could not read jumphash_wasm.wasm: tried ${missing} (ENOENT). ${fix}`,
    });
  } finally {
    Object.assign(console, saved);
    server.close();
  }
  assert.deepEqual(printed, []);
});
