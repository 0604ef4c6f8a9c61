// Every row of the shared vector files (tests/vectors/) through `bucket`
// (bigint and key text) and `buckets` (one batch per algorithm and n).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { jumphash, readVectors } from './helpers.mjs';

const jh = await jumphash();

/** Checks rows through bucket(bigint), bucket(decimal text), bucket(hex text) and buckets. */
function checkRows(algorithm, rows) {
  assert.ok(rows.length > 0);
  let mismatches = [];
  for (const row of rows) {
    const got = [
      jh.bucket(algorithm, row.key, row.n),
      jh.bucket(algorithm, row.key.toString(), row.n),
      jh.bucket(algorithm, `0x${row.key.toString(16)}`, row.n),
    ];
    if (got.some((b) => b !== row.bucket)) mismatches.push({ key: row.key, n: row.n, want: row.bucket, got });
  }
  assert.deepEqual(mismatches.slice(0, 10), [], `${algorithm}: bucket() differs on ${mismatches.length} rows`);

  // Batched: group by n so each batch is one call, keys in file order.
  const byN = new Map();
  for (const row of rows) {
    if (!byN.has(row.n)) byN.set(row.n, []);
    byN.get(row.n).push(row);
  }
  mismatches = [];
  for (const [n, group] of byN) {
    const out = jh.buckets(algorithm, BigUint64Array.from(group, (r) => r.key), n);
    assert.equal(out.length, group.length);
    group.forEach((row, i) => {
      if (out[i] !== row.bucket) mismatches.push({ key: row.key, n, want: row.bucket, got: out[i] });
    });
  }
  assert.deepEqual(mismatches.slice(0, 10), [], `${algorithm}: buckets() differs on ${mismatches.length} rows`);
}

test('jump.tsv (Guava and the paper): every row with jump', () => {
  const rows = readVectors('vectors/jump.tsv');
  assert.equal(rows.length, 900);
  checkRows('jump', rows);
});

test('jump.tsv: every row with jump-guava', () => {
  checkRows('jump-guava', readVectors('vectors/jump.tsv'));
});

test('jumpback.tsv (hash4j): every row with jumpback', () => {
  const rows = readVectors('vectors/jumpback.tsv');
  assert.equal(rows.length, 900);
  checkRows('jumpback', rows);
});

test('reference.tsv (independent Python reference): every row of every algorithm', () => {
  const rows = readVectors('vectors/reference.tsv');
  assert.ok(rows.length > 1000);
  const byAlgorithm = new Map();
  for (const row of rows) {
    if (!byAlgorithm.has(row.algorithm)) byAlgorithm.set(row.algorithm, []);
    byAlgorithm.get(row.algorithm).push(row);
  }
  const registry = jh.algorithms().map((a) => a.name);
  for (const name of byAlgorithm.keys()) assert.ok(registry.includes(name), `unknown algorithm ${name} in reference.tsv`);
  for (const [algorithm, group] of byAlgorithm) checkRows(algorithm, group);
});

test('uint64 edge keys: 2^64-1 at n=100 is 73 with jumpback and 92 with jump', () => {
  const max = 2n ** 64n - 1n;
  assert.equal(jh.bucket('jumpback', max, 100), 73);
  assert.equal(jh.bucket('jump', max, 100), 92);
  assert.equal(jh.bucket('jumpback', '18446744073709551615', 100), 73);
  assert.equal(jh.bucket('jumpback', '0xFFFFFFFFFFFFFFFF', 100), 73);
  assert.deepEqual([...jh.buckets('jumpback', new BigUint64Array([max, 0n, max]), 100)], [73, 25, 73]); // key 0 -> 25: jumpback.tsv
  assert.deepEqual([...jh.buckets('jump', new BigUint64Array([max]), 100)], [92]);
});

test('the documented keys where Guava and the paper differ', () => {
  assert.equal(jh.bucket('jump-guava', 628522610165938199n, 1000000), 851968);
  assert.equal(jh.bucket('jump', 628522610165938199n, 1000000), 851967);
  assert.equal(jh.bucket('jump', 18063469494497682072n, 100), 17);
  assert.equal(jh.bucket('jump-guava', 18063469494497682072n, 100), 0);
});

test('keys above 2^53 are not rounded: neighbours of 2^63 differ where doubles would collide', () => {
  // 2^63 + 1 as a double is 2^63; a Number path would give equal answers.
  const a = 2n ** 63n;
  const keys = new BigUint64Array([a, a + 1n, a + 2n, a + 3n]);
  const batch = [...jh.buckets('jumpback', keys, 1000000)];
  const single = [...keys].map((k) => jh.bucket('jumpback', k, 1000000));
  assert.deepEqual(batch, single);
  assert.ok(new Set(batch).size > 1, `expected different buckets, got ${batch}`);
  // And each equals the interpreter's answer on the decimal key.
  const script = [...keys].map((k) => `HASH ${k} 1000000`).join('\n');
  const { stdout } = jh.run(`ALGO jumpback\n${script}\n`);
  assert.equal(stdout, [...keys].map((k, i) => `${k}: ${batch[i]}\n`).join(''));
});

test('buckets: batches longer than the internal chunk equal per-key answers', () => {
  const count = 200003; // several 65536-key chunks and a ragged tail
  const keys = new BigUint64Array(count);
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < count; ++i) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & (2n ** 64n - 1n);
    keys[i] = x;
  }
  for (const algorithm of ['jump', 'jumpback', 'modulo']) {
    const out = jh.buckets(algorithm, keys, 12345);
    assert.equal(out.length, count);
    for (let i = 0; i < count; i += 997) assert.equal(out[i], jh.bucket(algorithm, keys[i], 12345), `${algorithm} #${i}`);
    assert.equal(out[count - 1], jh.bucket(algorithm, keys[count - 1], 12345));
  }
  // A subarray view (non-zero byteOffset) is read at its offset.
  const view = keys.subarray(5, 10);
  assert.deepEqual([...jh.buckets('jump', view, 77)], [...view].map((k) => jh.bucket('jump', k, 77)));
  assert.deepEqual([...jh.buckets('jump', new BigUint64Array(0), 77)], []);
  // Into a caller's array (longer is fine; the tail is left alone).
  const out = new Int32Array(count + 2).fill(-7);
  assert.equal(jh.buckets('jumpback', keys, 999, out), out);
  assert.deepEqual(out.subarray(0, count), jh.buckets('jumpback', keys, 999));
  assert.deepEqual([...out.subarray(count)], [-7, -7]);
});
