// A wrong solution for the tests: the classic mistake of computing jump hash
// with JavaScript Numbers (doubles) instead of 64-bit integers. The reports
// are right. `jumphash check` names it `js-number` (jump_hash_js_number in
// include/jumphash/mistakes.hpp models this loop operation for operation).
//
// What goes wrong: Number(key) rounds keys above 2^53, the literal
// 2862933555777941757 is itself rounded to 2862933555777941504, and the
// product is rounded before the % and the + 1, so the state is no longer
// the generator's state. The loop still ends; most buckets are wrong.

/** Jump hash as a student writes it with Numbers: `>> 33` becomes a division by 2^33. */
function jumpHash(key, buckets) {
  let state = Number(key);
  let b = -1;
  let j = 0;
  while (j < buckets) {
    b = j;
    state = (state * 2862933555777941757 + 1) % 18446744073709551616;
    j = Math.floor((b + 1) / ((Math.floor(state / 8589934592) + 1) / 2147483648));
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
