// runStream(): the same output as run(), in whole-line chunks as it is
// printed, with a budget; output larger than run() may hold streams through.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { jumphash } from './helpers.mjs';

const jh = await jumphash();

function streamed(script, budget) {
  const chunks = [];
  const { exitCode } = jh.runStream(script, (stream, text) => chunks.push([stream, text]), budget);
  const joined = (name) => chunks.filter(([stream]) => stream === name).map(([, text]) => text).join('');
  return { exitCode, chunks, stdout: joined('stdout'), stderr: joined('stderr') };
}

const SCRIPTS = [
  readFileSync(new URL('../../examples/exercise.txt', import.meta.url), 'utf8'),
  'HASH -1 100\nHASH 42 100\nKEYS 9..3\nALGO ring\nHASH 42 0\nKEYS 0..99\nMOVED 10 12\nLOAD 12\n',
  'ALGO ketama\nNODES a b c "d e"*2\nKEYS 0..999\nBUCKETS\nMOVED -b\nLOAD\n',
  'KEYS 0..199999\nBUCKETS 1000\nMOVED 1000 1001\n',
];

test('runStream prints what run() prints, byte for byte, stdout and stderr', () => {
  for (const script of SCRIPTS) {
    const whole = jh.run(script);
    const parts = streamed(script);
    assert.equal(parts.stdout, whole.stdout);
    assert.equal(parts.stderr, whole.stderr);
    assert.equal(parts.exitCode, whole.exitCode);
  }
});

test('chunks are whole lines of bounded size, in order', () => {
  const { chunks, stdout } = streamed('KEYS 0..199999\nBUCKETS 1000\n');
  assert.ok(chunks.length > 10, `${chunks.length} chunks`);
  for (const [, text] of chunks) {
    assert.ok(text.endsWith('\n'));
    assert.ok(text.length <= 128 * 1024, `a chunk of ${text.length} characters`);
  }
  assert.equal(stdout.split('\n').length - 1, 200000);
});

test('output larger than run() may hold streams through, counted not kept', () => {
  // 10^7 keys in one bucket print 108888890 bytes: run() stops at 64 MiB.
  let bytes = 0;
  let largest = 0;
  const { exitCode } = jh.runStream('KEYS 0..9999999\nBUCKETS 1\n', (stream, text) => {
    assert.equal(stream, 'stdout');
    bytes += text.length;
    largest = Math.max(largest, text.length);
  });
  assert.equal(exitCode, 0);
  assert.equal(bytes, 108888890);
  assert.ok(largest <= 128 * 1024);
  assert.equal(jh.run('KEYS 0..9999999\nBUCKETS 1\n').exitCode, 1);
});

test('the budget ends a run with an error naming the limit', () => {
  const limits = jh.limits();
  const out = streamed('KEYS 0..99\nBUCKETS 10\nHASH 1 10\n', { maxOutputBytes: 100 });
  assert.equal(out.exitCode, 1);
  assert.ok(out.stdout.length <= 100 && out.stdout.endsWith('\n'));
  assert.match(out.stderr, /^line 2: error: the output passed this run's limit of 100 bytes/);
  const work = streamed('KEYS 0..5000000\nMOVED 10 11\nHASH 1 10\n', { maxLookups: limits.maxEmbedLookups });
  assert.equal(work.exitCode, 1);
  // The run ends at line 2: line 3 is not run.
  assert.match(work.stderr, /^line 2: error: MOVED over 5000001 keys needs 10000002 lookups, more than the 10000000 left/);
  assert.equal(work.stderr.split('\n').length, 2);
  assert.equal(work.stdout, '');
  assert.equal(streamed('KEYS 0..4999999\nMOVED 10 11\n', { maxLookups: limits.maxEmbedLookups }).exitCode, 0);
});

test('bad arguments say what is wrong and what is allowed', () => {
  assert.throws(() => jh.runStream(42, () => {}), { name: 'TypeError', message: 'runStream: script must be a string, got number' });
  assert.throws(() => jh.runStream('HASH 1 2', 'f'), { name: 'TypeError', message: /onChunk must be a function \(stream, text\) => void, got string/ });
  assert.throws(() => jh.runStream('HASH 1 2', () => {}, { maxLookups: -1 }), {
    name: 'RangeError',
    message: 'runStream: budget.maxLookups must be a whole number 0..9007199254740991 (0: no bound), got -1',
  });
  assert.throws(() => jh.runStream('HASH 1 2', () => {}, { maxOutputBytes: 1.5 }), { name: 'RangeError', message: /budget\.maxOutputBytes must be a whole number/ });
  assert.throws(() => jh.runStream('HASH 1 2', () => {}, null), { name: 'TypeError', message: 'runStream: budget must be an object, got null' });
});

/** runStreamBytes's chunks, copied (each view is valid only during its call). */
function streamedBytes(script, budget) {
  const chunks = [];
  const { exitCode } = jh.runStreamBytes(script, (stream, bytes, lines, chars) => chunks.push({ stream, bytes: bytes.slice(), lines, chars, view: bytes }), budget);
  return { exitCode, chunks };
}

test('runStreamBytes hands over the same output as UTF-8 bytes, with its lines and UTF-16 length', () => {
  const utf8 = new TextDecoder();
  // Cyrillic (2 bytes a letter), the euro sign (3), an emoji (4 bytes, 2 UTF-16 units), a backslash.
  const wide = 'KEYS "ключ" "😀x" "a\\\\b" 0..20000\nBUCKETS 10\nHASH "€" 5\nHASH 1 0\n';
  for (const script of [...SCRIPTS, wide]) {
    const whole = jh.run(script);
    const { exitCode, chunks } = streamedBytes(script);
    assert.equal(exitCode, whole.exitCode);
    for (const name of ['stdout', 'stderr']) {
      const mine = chunks.filter((chunk) => chunk.stream === name);
      const text = mine.map((chunk) => utf8.decode(chunk.bytes)).join('');
      assert.equal(text, whole[name], name);
      for (const chunk of mine) {
        const decoded = utf8.decode(chunk.bytes);
        assert.ok(decoded.endsWith('\n'), 'whole lines');
        assert.equal(chunk.lines, decoded.split('\n').length - 1);
        assert.equal(chunk.chars, decoded.length);
      }
    }
  }
  const { chunks } = streamedBytes(wide);
  assert.ok(chunks.some((chunk) => chunk.chars < chunk.bytes.length), 'the wide script printed multi-byte characters');
  assert.ok(chunks.some((chunk) => utf8.decode(chunk.bytes).includes('😀')));
});

test('runStreamBytes: each chunk is a view of the module memory, bounded, and the budget applies', () => {
  const { chunks } = streamedBytes('KEYS 0..199999\nBUCKETS 1000\n');
  assert.ok(chunks.length > 10);
  for (const chunk of chunks) {
    assert.ok(chunk.view instanceof Uint8Array);
    assert.ok(chunk.bytes.length <= 128 * 1024);
  }
  assert.equal(chunks.reduce((sum, chunk) => sum + chunk.lines, 0), 200000);
  const out = streamedBytes('KEYS 0..99\nBUCKETS 10\nHASH 1 10\n', { maxOutputBytes: 100 });
  assert.equal(out.exitCode, 1);
  const stdout = out.chunks.filter((chunk) => chunk.stream === 'stdout').reduce((sum, chunk) => sum + chunk.bytes.length, 0);
  assert.ok(stdout <= 100);
  assert.match(new TextDecoder().decode(out.chunks.find((chunk) => chunk.stream === 'stderr').bytes), /^line 2: error: the output passed this run's limit of 100 bytes/);
  assert.throws(() => jh.runStreamBytes(42, () => {}), { name: 'TypeError', message: 'runStreamBytes: script must be a string, got number' });
  assert.throws(() => jh.runStreamBytes('HASH 1 2', 'f'), {
    name: 'TypeError',
    message: 'runStreamBytes: onChunk must be a function (stream, bytes, lines, chars) => void, got string',
  });
  assert.throws(() => jh.runStreamBytes('HASH 1 2', () => {}, { maxLookups: -1 }), { name: 'RangeError', message: /^runStreamBytes: budget\.maxLookups must be a whole number/ });
});
