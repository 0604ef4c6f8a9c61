// A wrong solution for the tests: the 64-bit state is right (BigInt, wrapped
// with BigInt.asUintN), but the jump step stays in BigInt too, so
// 2^31 / ((key >> 33) + 1) is an integer division that drops its fraction
// before it is multiplied by b + 1. The reports are right. `jumphash check`
// names it `integer-division` (jump_hash_integer_division in
// include/jumphash/mistakes.hpp).

/** Jump hash with every variable a BigInt: `/` on BigInts truncates. */
function jumpHash(key, buckets) {
  let b = -1n;
  let j = 0n;
  while (j < BigInt(buckets)) {
    b = j;
    key = BigInt.asUintN(64, key * 2862933555777941757n + 1n);
    j = (b + 1n) * ((1n << 31n) / ((key >> 33n) + 1n));
  }
  return Number(b);
}

/** BUCKETS <n>: "<key>: <bucket>" for each key. */
function reportBuckets(keys, buckets) {
  for (const key of keys) console.log(`${key.text}: ${jumpHash(key.value, buckets)}`);
}

/** MOVED <from> <to>: "<key>: <old> -> <new>" for each moved key, then "moved: <count> of <total>". */
function reportMoved(keys, fromBuckets, toBuckets) {
  let moved = 0;
  for (const key of keys) {
    const before = jumpHash(key.value, fromBuckets);
    const after = jumpHash(key.value, toBuckets);
    if (before !== after) {
      moved++;
      console.log(`${key.text}: ${before} -> ${after}`);
    }
  }
  console.log(`moved: ${moved} of ${keys.count}`);
}

/** LOAD <n>: "<bucket>: <count>" for every bucket 0..n-1. */
function reportLoad(keys, buckets) {
  const counts = new Array(buckets).fill(0);
  for (const key of keys) counts[jumpHash(key.value, buckets)]++;
  counts.forEach((count, bucket) => console.log(`${bucket}: ${count}`));
}

/**
 * TRACE <key> <max>: "<n>: <bucket>" where the bucket changes, n in 1..max.
 * The bucket changes at n = b + 1 for each bucket b the key passes through;
 * walking down from the bucket at max, the one before b is jumpHash(key, b).
 */
function reportTrace(key, max) {
  const steps = [];
  let bucket = jumpHash(key.value, max);
  steps.push(bucket);
  while (bucket > 0) {
    bucket = jumpHash(key.value, bucket);
    steps.push(bucket);
  }
  steps.reverse();
  for (const b of steps) console.log(`${b + 1}: ${b}`);
}
