// The wasm measurements, shared by Node (bench.mjs, simd.mjs) and Chromium
// (page.js): ns per key of one `buckets` batch and ns per `bucket` call
// (measure), and a module's batch paths against each other (batchPathRows).
// Plain ES module, no Node APIs.

/** The native benchmark's keys: 2^20 outputs of SplitMix64 from state 12345. */
export function benchmarkKeys(count = 1 << 20, seed = 12345n) {
  const mask = (1n << 64n) - 1n;
  const keys = new BigUint64Array(count);
  let state = seed;
  for (let i = 0; i < count; ++i) {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    keys[i] = z ^ (z >> 31n);
  }
  return keys;
}

/** Best of `reps` timings of fn(), in ms. */
function best(fn, reps) {
  let min = Infinity;
  for (let r = 0; r < reps; ++r) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

/** Calls fn until at least `ms` milliseconds passed (lets the engine tier up). */
function warm(fn, ms = 400) {
  const start = performance.now();
  do fn(); while (performance.now() - start < ms);
}

/**
 * @param jh a loaded Jumphash
 * @param cases [{ algorithm, n }]
 * @returns rows { algorithm, n, batchNsPerKey (reused output array),
 *   freshBatchNsPerKey (new output array each call), callNs }
 */
export function measure(jh, cases, { keys = benchmarkKeys(), reps = 7, calls = 200000 } = {}) {
  const rows = [];
  const callKeys = keys.subarray(0, calls);
  const out = new Int32Array(keys.length);
  let sink = 0;
  for (const { algorithm, n } of cases) {
    const reused = () => { sink += jh.buckets(algorithm, keys, n, out)[7]; };
    const fresh = () => { sink += jh.buckets(algorithm, keys, n)[7]; };
    const perCall = () => {
      for (let i = 0; i < callKeys.length; ++i) sink += jh.bucket(algorithm, callKeys[i], n);
    };
    warm(reused);
    const batchMs = best(reused, reps);
    const freshMs = best(fresh, reps);
    warm(perCall);
    const callMs = best(perCall, reps);
    rows.push({
      algorithm,
      n,
      batchNsPerKey: (batchMs * 1e6) / keys.length,
      freshBatchNsPerKey: (freshMs * 1e6) / keys.length,
      callNs: (callMs * 1e6) / callKeys.length,
    });
  }
  if (sink === -1) rows.push(null); // keep `sink` alive
  return rows;
}

/**
 * ns per key of `buckets` on the module's SIMD128 batch path against its
 * scalar path, next to scalar modulo (the baseline of issue "Reports at the
 * speed of the machine"), per algorithm and n: one call over `keys`
 * (BigUint64Array in, Int32Array out reused, copies included), best of
 * `reps` after 0.4 s of warm-up. Leaves the module on the SIMD128 path.
 *
 * @param jh a loaded Jumphash
 * @param counts bucket counts n
 * @param algorithms algorithm names, each timed on both paths
 * @returns rows { algorithm, n, scalar, simd, modulo }, ns per key
 */
export function batchPathRows(jh, counts, algorithms, { keys = benchmarkKeys(), reps = 7 } = {}) {
  const out = new Int32Array(keys.length);
  let sink = 0;
  const nsPerKey = (algorithm, n, path) => {
    jh.setBatchPath(path);
    const once = () => { sink += jh.buckets(algorithm, keys, n, out)[7]; };
    warm(once);
    return (best(once, reps) * 1e6) / keys.length;
  };
  const rows = [];
  for (const n of counts) {
    const modulo = nsPerKey('modulo', n, 'scalar');
    for (const algorithm of algorithms) {
      rows.push({ algorithm, n, scalar: nsPerKey(algorithm, n, 'scalar'), simd: nsPerKey(algorithm, n, 'simd128'), modulo });
    }
  }
  jh.setBatchPath('simd128');
  if (sink === -1) rows.push(null); // keep `sink` alive
  return rows;
}
