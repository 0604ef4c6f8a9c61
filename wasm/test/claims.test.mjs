// The articles' claims through the package (loadClaims): every deterministic
// claim reproduced, an unknown id refused with the list of ids, and the
// catalogue the same as the CLI's (`jumphash reproduce`), when the native
// CLI is built (build/native/jumphash, or $JUMPHASH_CLI).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { loadClaims } from 'jumphash-wasm';

import { haveNativeCli, jumphash, nativeCli, repoDir } from './helpers.mjs';

const claims = await loadClaims();
const list = claims.list();
const deterministic = list.filter((c) => c.kind === 'deterministic');
const nativeSkip = haveNativeCli ? false : `no native CLI at ${nativeCli}`;

/** `jumphash reproduce ARGS...` natively: stdout, stderr and the exit status. */
function reproduce(...args) {
  const result = spawnSync(nativeCli, ['reproduce', ...args], { cwd: repoDir, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

test('the catalogue: unique ids, every field filled, the three kinds', async () => {
  assert.ok(list.length >= 20, `only ${list.length} claims`);
  assert.equal(new Set(list.map((c) => c.id)).size, list.length);
  for (const claim of list) {
    assert.match(claim.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const field of ['statement', 'source', 'published', 'method', 'tolerance']) {
      assert.ok(claim[field].length > 0, `${claim.id}.${field} is empty`);
    }
  }
  assert.deepEqual(new Set(list.map((c) => c.kind)), new Set(['deterministic', 'statistical', 'timing']));
  assert.equal(claims.version, (await jumphash()).version);
  // list() hands out copies: changing one does not change the catalogue.
  list[0].id = 'changed';
  assert.equal(claims.list()[0].id, 'jump-key-42-history');
  list[0].id = 'jump-key-42-history';
});

for (const { id } of deterministic) {
  test(`deterministic claim ${id} is reproduced in WebAssembly`, () => {
    const result = claims.run(id);
    assert.equal(result.id, id);
    assert.equal(result.verdict, 'reproduced', `${id}: measured ${result.measured}`);
    assert.ok(result.measured.length > 0);
    assert.ok(result.milliseconds >= 0);
  });
}

test("key 42's history: the published jumps, and chart data with the same steps", () => {
  const result = claims.run('jump-key-42-history');
  assert.equal(result.measured, 'n 1 2 3 23 34 41 44 572 -> bucket 0 1 2 22 33 40 43 571; bucket 43 at n = 100');
  assert.ok(result.chart && result.chart.step && !result.chart.logX);
  const [series] = result.chart.series;
  assert.ok(series.x instanceof Float64Array && series.y instanceof Float64Array);
  assert.deepEqual([...series.x].slice(0, 8), [1, 2, 3, 23, 34, 41, 44, 572]);
  assert.deepEqual([...series.y].slice(0, 8), [0, 1, 2, 22, 33, 40, 43, 571]);
});

test('an unknown id is a RangeError naming it and every known id; a non-string id a TypeError', () => {
  assert.throws(() => claims.run('jump-key-43-history'), (error) => {
    assert.ok(error instanceof RangeError);
    assert.match(error.message, /unknown claim 'jump-key-43-history'/);
    for (const { id } of list) assert.ok(error.message.includes(id), `${id} not listed`);
    return true;
  });
  assert.throws(() => claims.run(''), RangeError);
  assert.throws(() => claims.run(0), { name: 'TypeError', message: 'id must be a string, got number' });
  // The instance still works after an error.
  assert.equal(claims.run('jump-key-42-history').verdict, 'reproduced');
});

test('the ids are those of `jumphash reproduce`, in the same order', { skip: nativeSkip }, () => {
  const help = reproduce('--help');
  assert.equal(help.status, 0, help.stderr);
  const listed = /^Claims: ([\s\S]*?)\nExit status/m.exec(help.stdout);
  assert.ok(listed, `no claim list in:\n${help.stdout}`);
  assert.deepEqual(listed[1].split(/\s+/).filter(Boolean), list.map((c) => c.id));
});

test('`jumphash reproduce --json` of the deterministic claims: the same text and results', { skip: nativeSkip }, () => {
  const out = reproduce('--json', ...deterministic.map((c) => c.id));
  assert.equal(out.status, 0, out.stderr);
  const native = JSON.parse(out.stdout).claims;
  assert.deepEqual(native.map((c) => c.id), deterministic.map((c) => c.id));
  for (const row of native) {
    const claim = list.find((c) => c.id === row.id);
    for (const field of ['statement', 'source', 'published', 'method', 'tolerance', 'kind']) {
      assert.equal(claim[field], row[field], `${row.id}.${field}`);
    }
    const result = claims.run(row.id);
    assert.equal(result.verdict, row.verdict, row.id);
    if (row.id === 'ring-memory-1000-by-1000') {
      // The sorted vector's bytes are the same everywhere; a std::map node's
      // size depends on the platform (32-bit pointers in WebAssembly).
      assert.match(result.measured, /^sorted vector 8,000,000 B \(7\.6 MiB\)/);
      assert.match(row.measured, /^sorted vector 8,000,000 B \(7\.6 MiB\)/);
    } else {
      assert.equal(result.measured, row.measured, row.id);
    }
    assert.equal(result.chart === null, row.chart === null, `${row.id}: chart`);
  }
});

test('an unknown id: the same message as `jumphash reproduce`', { skip: nativeSkip }, () => {
  const out = reproduce('no-such-claim');
  assert.equal(out.status, 2);
  let message = '';
  try {
    claims.run('no-such-claim');
  } catch (error) {
    message = error.message;
  }
  assert.ok(out.stderr.startsWith(`jumphash: reproduce: ${message}\n`), out.stderr);
});
