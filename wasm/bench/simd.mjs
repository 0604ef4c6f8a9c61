#!/usr/bin/env node
// ns per key of `buckets` on the SIMD128 batch path against the scalar path
// of the same module, next to scalar modulo (the baseline of issue "Reports
// at the speed of the machine"), all in one run, as ratios: in Node, then
// in headless Chromium (the engine the playground's workers run the module
// in; its V8 is years newer than Node 20's and compiles the module on its
// own). Not a test: numbers depend on the machine.
//
//   node wasm/bench/simd.mjs [--no-browser]
//   (build first: cmake --preset wasm && cmake --build --preset wasm)
import { loadJumphash } from '../src/index.js';
import { chromium, haveChromium, runInChromium } from '../test/browser/harness.mjs';
import { batchPathRows } from './measure.js';

const COUNTS = [128, 129, 1000, 1024, 1_000_000, 2 ** 30];
const ALGORITHMS = ['jumpback', 'jumpback-indep', 'jump'];

const fmt = (x) => x.toFixed(2);

/** The rows of one engine (measure.js, batchPathRows) as a Markdown table. */
function table(rows) {
  const lines = ['| algorithm | n | scalar ns/key | SIMD128 ns/key | SIMD128 / scalar | modulo ns/key | SIMD128 / modulo |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const { algorithm, n, scalar, simd, modulo } of rows) {
    lines.push(`| ${algorithm} | ${n} | ${fmt(scalar)} | ${fmt(simd)} | ${fmt(simd / scalar)}x | ${fmt(modulo)} | ${fmt(simd / modulo)}x |`);
  }
  return lines;
}

const jh = await loadJumphash();
const lines = [`jumphash-wasm ${jh.version}, 2^20 SplitMix64 keys per call`, ''];
lines.push(`Node ${process.versions.node} (V8 ${process.versions.v8}):`, '', ...table(batchPathRows(jh, COUNTS, ALGORITHMS)));
if (process.argv.includes('--no-browser')) lines.push('', 'Chromium: skipped (--no-browser)');
else if (!haveChromium) lines.push('', `Chromium: skipped, no Chromium at ${chromium} (set CHROMIUM)`);
else {
  const report = await runInChromium(`bench/page.html?counts=${COUNTS.join(',')}&algorithms=${ALGORITHMS.join(',')}`, { timeoutMs: 600000 });
  if (report.error) lines.push('', `Chromium: failed: ${report.error}`);
  else lines.push('', `${report.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? report.userAgent}, the page's main thread:`, '', ...table(report.rows));
}
lines.push('');
lines.push('`buckets(algo, keys, n, out)`: one call over 2^20 keys (BigUint64Array in, Int32Array out reused, copies included), best of 7 after 0.4 s of warm-up.');
console.log(lines.join('\n'));
