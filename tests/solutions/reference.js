// The exercise's reference solution in JavaScript: the YOUR CODE region of
// web/src/workspace/starters/starter.js, correct. Lives only in the tests.

/**
 * Jump Consistent Hash (Lamping & Veach, fig. 1): the bucket of a 64-bit key
 * among `buckets` buckets, 1..2147483647. The state stays a BigInt wrapped to
 * 64 bits; only (key >> 33) + 1, below 2^31 + 1, becomes a Number, and the
 * division and product are in doubles as in the paper's C.
 */
function jumpHash(key, buckets) {
  let b = -1;
  let j = 0;
  while (j < buckets) {
    b = j;
    key = BigInt.asUintN(64, key * 2862933555777941757n + 1n);
    j = Math.floor((b + 1) * (2147483648 / Number((key >> 33n) + 1n)));
  }
  return b;
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
