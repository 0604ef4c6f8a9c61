// Independent reference for the checker's mistake variants, in real JavaScript
// (run under node), written from issue 5's definitions without the C++ code:
//
//   node tests/reference/js_number.mjs > tests/check/variants.tsv
//
// Columns: algo (the variant's identifier), key, n, bucket; tab-separated,
// header line. The keys are those of tests/vectors (0, 1, 2, 42, 1000,
// 2^31-1, 2^32, 2^53, 2^53+1, 2^63-1, 2^63, 2^64-2, 2^64-1, the two keys on
// which Guava and C differ) plus 40 SplitMix64 outputs (seed 5), times 18
// bucket counts; js-number also on the small keys 0..255 and 1000003 x
// 1..255 at n = 10, 1000, 10^6, 2^31-1 (for large keys its state soon
// collapses to 0, so small keys are where its rounding shows). Every row is
// compared with the C++ variants by tests/checker_test.cpp.
//
// - js-number: the loop of issue 5, computed with Numbers exactly as written
//   there (this is the point: JavaScript's own double arithmetic, not a port).
// - integer-division: the paper's loop with BigInt state masked to 64 bits and
//   2^31 / ((key >> 33) + 1) as a BigInt (integer) division.
// - key-as-double: the paper's loop (BigInt state, double division as in the
//   paper) on BigInt.asUintN(64, BigInt(Number(key))).

const MASK = (1n << 64n) - 1n;

function jsNumber(key, n) {
  // Issue 5's definition, verbatim.
  let s = Number(key);
  let b = -1;
  let j = 0;
  while (j < n) {
    b = j;
    s = (s * 2862933555777941757 + 1) % 18446744073709551616;
    j = Math.floor((b + 1) / ((Math.floor(s / 8589934592) + 1) / 2147483648));
  }
  return b;
}

function integerDivision(key, n) {
  let k = key;
  let b = -1n;
  let j = 0n;
  const bn = BigInt(n);
  while (j < bn) {
    b = j;
    k = (k * 2862933555777941757n + 1n) & MASK;
    j = (b + 1n) * ((1n << 31n) / ((k >> 33n) + 1n));
  }
  return Number(b);
}

function jump(key, n) {
  // Lamping & Veach, fig. 1: 64-bit state, the factor in doubles.
  let k = key;
  let b = -1;
  let j = 0;
  while (j < n) {
    b = j;
    k = (k * 2862933555777941757n + 1n) & MASK;
    j = Math.trunc((b + 1) * (2147483648 / Number((k >> 33n) + 1n)));
  }
  return b;
}

function keyAsDouble(key, n) {
  return jump(BigInt.asUintN(64, BigInt(Number(key))), n);
}

function* splitmix64(seed, count) {
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    yield z ^ (z >> 31n);
  }
}

const keys = [
  0n, 1n, 2n, 42n, 1000n, (1n << 31n) - 1n, 1n << 32n, 1n << 53n, (1n << 53n) + 1n,
  (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 2n, (1n << 64n) - 1n,
  628522610165938199n, 18063469494497682072n,
  ...splitmix64(5n, 40),
];
const ns = [1, 2, 3, 7, 8, 9, 10, 12, 16, 100, 128, 129, 1000, 1024, 65537, 1000000,
  2 ** 30, 2 ** 31 - 1];
const variants = [
  ['js-number', jsNumber],
  ['integer-division', integerDivision],
  ['key-as-double', keyAsDouble],
];

const lines = ['algo\tkey\tn\tbucket'];
for (const [name, fn] of variants) {
  for (const key of keys) {
    for (const n of ns) lines.push(`${name}\t${key}\t${n}\t${fn(key, n)}`);
  }
}
for (let i = 0n; i < 256n; i++) {
  for (const key of i === 0n ? [0n] : [i, 1000003n * i]) {
    for (const n of [10, 1000, 1000000, 2 ** 31 - 1]) {
      lines.push(`js-number\t${key}\t${n}\t${jsNumber(key, n)}`);
    }
  }
}
process.stdout.write(lines.join('\n') + '\n');
