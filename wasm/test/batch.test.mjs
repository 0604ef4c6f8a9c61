// The SIMD128 batch path (src/batch_simd128.cpp) against the scalar one:
// bit-identical on every vector row and on 10^6 random keys per algorithm
// and n, including the edge keys and the odd last key of a batch; reports
// identical on both paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { jumphash, readVectors } from './helpers.mjs';

const jh = await jumphash();

/** The algorithms with a batch path of their own (jumpback keeps its scalar
 *  loop on the simd128 path, which is faster there: it is compared too, so
 *  that a kernel added for it is tested at once). */
const SIMD_ALGORITHMS = ['jump', 'jumpback', 'jumpback-indep'];
/** Bucket counts: the (128, 129, 1000, 1024, 10^6, 2^30) and the edges. */
const COUNTS = [1, 2, 3, 128, 129, 1000, 1024, 1_000_000, 2 ** 30, 2 ** 31 - 1];

/** `count` deterministic pseudo-random 64-bit keys (xorshift32 pairs), with the edge keys first. */
function randomKeys(count, seed) {
  const words = new Uint32Array(count * 2);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  const keys = new BigUint64Array(words.buffer);
  const edges = [0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 2n, 2n ** 64n - 1n];
  edges.forEach((key, i) => { keys[i] = key; });
  return keys;
}

/** buckets() on the given path. */
function bucketsOn(path, algorithm, keys, n) {
  jh.setBatchPath(path);
  try {
    return jh.buckets(algorithm, keys, n);
  } finally {
    jh.setBatchPath('simd128');
  }
}

test('this build looks keys up with SIMD128 unless told otherwise', () => {
  assert.equal(jh.batchPath(), 'simd128');
  jh.setBatchPath('scalar');
  assert.equal(jh.batchPath(), 'scalar');
  jh.setBatchPath('simd128');
  assert.equal(jh.batchPath(), 'simd128');
  assert.throws(() => jh.setBatchPath('avx2'), /path must be "simd128" or "scalar", got "avx2"/);
});

test('every vector row gives the same bucket on both paths', () => {
  const files = { 'vectors/jump.tsv': ['jump'], 'vectors/jumpback.tsv': ['jumpback'] };
  const rows = [];
  for (const [file, algorithms] of Object.entries(files)) {
    for (const row of readVectors(file)) for (const algorithm of algorithms) rows.push({ ...row, algorithm });
  }
  for (const row of readVectors('vectors/reference.tsv')) if (SIMD_ALGORITHMS.includes(row.algorithm)) rows.push(row);
  assert.ok(rows.length > 4000);
  const groups = new Map();
  for (const row of rows) {
    const key = `${row.algorithm}/${row.n}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row);
  }
  const wrong = [];
  for (const group of groups.values()) {
    const { algorithm, n } = group[0];
    const keys = BigUint64Array.from(group, (row) => row.key);
    for (const path of ['simd128', 'scalar']) {
      const out = bucketsOn(path, algorithm, keys, n);
      group.forEach((row, i) => {
        if (out[i] !== row.bucket) wrong.push({ path, algorithm, n, key: row.key, want: row.bucket, got: out[i] });
      });
    }
  }
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} rows differ`);
});

test('10^6 random keys per algorithm and n: SIMD128 equals scalar, bit for bit', () => {
  const keys = randomKeys(1_000_000, 20261201);
  for (const algorithm of SIMD_ALGORITHMS) {
    for (const n of COUNTS) {
      const simd = bucketsOn('simd128', algorithm, keys, n);
      const scalar = bucketsOn('scalar', algorithm, keys, n);
      const first = simd.findIndex((bucket, i) => bucket !== scalar[i]);
      assert.equal(first, -1, `${algorithm} n=${n}: key ${keys[first]} gives ${simd[first]} with SIMD128, ${scalar[first]} scalar`);
      assert.ok(scalar.every((bucket) => bucket >= 0 && bucket < n));
    }
  }
});

test('an odd number of keys: the last key, alone in its vector, is right', () => {
  const keys = randomKeys(65_537 + 3, 7);
  for (const count of [1, 3, 65_537, 65_539]) {
    const some = keys.subarray(0, count);
    for (const algorithm of SIMD_ALGORITHMS) {
      assert.deepEqual([...bucketsOn('simd128', algorithm, some, 1000)].slice(-3), [...bucketsOn('scalar', algorithm, some, 1000)].slice(-3), `${algorithm}, ${count} keys`);
    }
  }
});

test('reports are the same on both paths (moved, loads, flows, sample)', () => {
  for (const algorithm of SIMD_ALGORITHMS) {
    const simd = jh.moved(algorithm, 'random:200000:3', 1000, 1001, { sampleLimit: 1000 });
    jh.setBatchPath('scalar');
    const scalar = jh.moved(algorithm, 'random:200000:3', 1000, 1001, { sampleLimit: 1000 });
    jh.setBatchPath('simd128');
    assert.equal(simd.moved, scalar.moved, algorithm);
    assert.deepEqual([...simd.loadsAfter], [...scalar.loadsAfter], algorithm);
    assert.deepEqual(simd.sample, scalar.sample, algorithm);
  }
});

test('a resize counts what two separate lookups give, on both paths, whichever count is larger', () => {
  // moved() looks the two counts up as a pair: for the consistent
  // algorithms the larger count decides the smaller's bucket of every key
  // below it (src/batch.cpp). buckets() looks each count up alone, so this
  // compares the pair with plain lookups, across bit widths and shrinks.
  const keys = randomKeys(100_000, 99);
  const spec = [...keys].join(' ');
  const resizes = [[1000, 1001], [1001, 1000], [1000, 1030], [1024, 1025], [5, 300], [300, 5], [1, 2], [2, 1], [7, 7], [129, 128]];
  for (const path of ['simd128', 'scalar']) {
    for (const algorithm of [...SIMD_ALGORITHMS, 'jump-guava', 'modulo']) {
      for (const [from, to] of resizes) {
        const before = bucketsOn(path, algorithm, keys, from);
        const after = bucketsOn(path, algorithm, keys, to);
        jh.setBatchPath(path);
        let r;
        try {
          r = jh.moved(algorithm, spec, from, to, { sampleLimit: 100_000 });
        } finally {
          jh.setBatchPath('simd128');
        }
        const label = `${algorithm} ${from} -> ${to} on ${path}`;
        const flows = new Float64Array(from * to);
        const moved = [];
        before.forEach((old, i) => {
          flows[old * to + after[i]] += 1;
          if (old !== after[i]) moved.push([keys[i], old, after[i]]);
        });
        assert.equal(r.moved, moved.length, label);
        assert.deepEqual(r.flows, flows, label);
        assert.deepEqual(r.sample.map((s) => [s.value, s.oldBucket, s.newBucket]), moved, label);
      }
    }
  }
});
