// The exercise checker through the package: check().text must equal what
// `jumphash check SCRIPT OUTPUT` prints for every golden transcript in
// tests/check/, and the structured lines must agree with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadChecker } from 'jumphash-wasm';

const dir = new URL('../../tests/check/', import.meta.url).pathname;
const jh = await loadChecker();

/** Transcripts whose .args are `check SCRIPT OUTPUT` with two readable files. */
function checkTranscripts() {
  const result = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.args')).sort()) {
    const name = file.slice(0, -'.args'.length);
    const args = readFileSync(join(dir, file), 'utf8').trim().split(/\s+/);
    if (args.length !== 3 || args[0] !== 'check') continue;
    const [, script, output] = args;
    if (!existsSync(join(dir, script)) || !existsSync(join(dir, output))) continue;
    result.push({ name, script, output });
  }
  return result;
}

const transcripts = checkTranscripts();

test('there are check transcripts to compare', () => {
  assert.ok(transcripts.length >= 8, `only ${transcripts.length} transcripts`);
});

for (const { name, script, output } of transcripts) {
  test(`check() equals jumphash check on ${name}`, () => {
    const result = jh.check(readFileSync(join(dir, script), 'utf8'), readFileSync(join(dir, output), 'utf8'));
    assert.equal(result.text, readFileSync(join(dir, `${name}.stdout`), 'utf8'));
    const exit = Number(readFileSync(join(dir, `${name}.exit`), 'utf8').trim());
    if (result.scriptErrors.length === 0) assert.equal(result.allMatch ? 0 : 1, exit);
    const matching = result.lines.filter((line) => line.verdict === 'match').length;
    assert.equal(matching, result.matching);
    assert.equal(result.lines.filter((line) => line.expectedLine > 0).length, result.expectedLines);
  });
}

test('every variant the page names is diagnosed through the package', () => {
  const script = 'HASH 9007199254740993 1000\nHASH 18446744073709551615 100\nHASH 42 100\n';
  const result = jh.check(script, '9007199254740993: 784\n18446744073709551615: 0\n42:43\n');
  const ids = result.lines.map((line) => line.diagnoses.map((d) => d.id).join(','));
  assert.deepEqual(ids, ['key-as-double', 'js-number,key-as-double', '']);
  assert.deepEqual(result.lines.map((line) => line.verdict), ['wrong-value', 'wrong-value', 'wrong-format']);
});

test('bad arguments are TypeErrors', () => {
  assert.throws(() => jh.check('HASH 42 100', 42), TypeError);
  assert.throws(() => jh.check(undefined, ''), TypeError);
});

test('check(): a work budget bounds the script run; a budget it fits in changes nothing', () => {
  const script = 'HASH 42 100\nKEYS 0..999999999\nLOAD 10\n';
  assert.throws(() => jh.check(script, '42: 43\n', { maxLookups: 1000000 }), {
    name: 'RangeError',
    message: /script line 3 \(LOAD 10\) passes the work budget.*1000000010 lookups/,
  });
  const small = 'KEYS 0..99\nBUCKETS 10\n';
  const output = Array.from({ length: 100 }, (_, key) => `${key}: 0`).join('\n');
  const bounded = jh.check(small, output, { maxLookups: 100 });
  const unbounded = jh.check(small, output);
  assert.deepEqual(bounded, unbounded);
  assert.throws(() => jh.check(small, output, { maxLookups: -1 }), { name: 'RangeError', message: /options\.maxLookups must be a whole number 0\.\./ });
  assert.throws(() => jh.check(small, output, 5), { name: 'TypeError', message: 'check: options must be an object, got number' });
});

test('check(): more than 64 MiB of output is refused before the script runs', () => {
  assert.throws(() => jh.check('KEYS 0..999999999\nBUCKETS 10\n', 'x'.repeat(64 * 1024 * 1024 + 1)), {
    name: 'RangeError',
    message: /has 67108865 bytes, more than the limit of 67108864 bytes \(check-output-bytes, 64 MiB\)/,
  });
});
