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
