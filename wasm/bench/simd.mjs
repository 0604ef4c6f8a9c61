#!/usr/bin/env node
// ns per key of `buckets` on the SIMD128 batch path against the scalar path
// of the same module, next to scalar modulo (the baseline of issue "Reports
// at the speed of the machine"), all in one run, as ratios. Not a test:
// numbers depend on the machine.
//
//   node wasm/bench/simd.mjs        (build first: cmake --preset wasm && cmake --build --preset wasm)
import { loadJumphash } from '../src/index.js';
import { benchmarkKeys } from './measure.js';

const COUNTS = [128, 129, 1000, 1024, 1_000_000, 2 ** 30];
const ALGORITHMS = ['jumpback', 'jumpback-indep', 'jump'];
const REPS = 7;

const jh = await loadJumphash();
const keys = benchmarkKeys();
const out = new Int32Array(keys.length);
let sink = 0;

/** Best of REPS timings of one `buckets` call over all keys, in ns per key, after 0.4 s of warm-up. */
function nsPerKey(algorithm, n, path) {
  jh.setBatchPath(path);
  const once = () => { sink += jh.buckets(algorithm, keys, n, out)[7]; };
  const warmUntil = performance.now() + 400;
  do once(); while (performance.now() < warmUntil);
  let best = Infinity;
  for (let r = 0; r < REPS; r++) {
    const start = performance.now();
    once();
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1e6) / keys.length;
}

const fmt = (x) => x.toFixed(2);
const lines = [];
lines.push(`jumphash-wasm ${jh.version}, Node ${process.versions.node} (V8 ${process.versions.v8}), ${keys.length} SplitMix64 keys per call`);
lines.push('');
lines.push('| algorithm | n | scalar ns/key | SIMD128 ns/key | SIMD128 / scalar | modulo ns/key | SIMD128 / modulo |');
lines.push('|---|---:|---:|---:|---:|---:|---:|');
for (const n of COUNTS) {
  const modulo = nsPerKey('modulo', n, 'scalar');
  for (const algorithm of ALGORITHMS) {
    const scalar = nsPerKey(algorithm, n, 'scalar');
    const simd = nsPerKey(algorithm, n, 'simd128');
    lines.push(`| ${algorithm} | ${n} | ${fmt(scalar)} | ${fmt(simd)} | ${fmt(simd / scalar)}x | ${fmt(modulo)} | ${fmt(simd / modulo)}x |`);
  }
}
jh.setBatchPath('simd128');
lines.push('');
lines.push('`buckets(algo, keys, n, out)`: one call over 2^20 keys (BigUint64Array in, Int32Array out reused, copies included), best of 7.');
console.log(lines.join('\n'));
if (sink === -1) console.log('');
