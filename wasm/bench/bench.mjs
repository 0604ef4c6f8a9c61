#!/usr/bin/env node
// ns per key of `buckets` (one batch of 2^20 keys, copies in and out
// included) in Node and in headless Chromium, next to the native benchmark's
// ns per lookup (build/native/bench/jumphash_bench, the same 2^20 SplitMix64
// keys) for the same algorithm and n, plus the per-call cost of `bucket`;
// all from one run, as ratios. Not a test: numbers depend on the machine.
//
//   node wasm/bench/bench.mjs [--no-browser] [--no-native]
//   (build first: cmake --preset wasm && cmake --build --preset wasm, and
//    cmake --preset native && cmake --build --preset native for the native column)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadJumphash } from '../src/index.js';
import { haveChromium, runInChromium } from '../test/browser/harness.mjs';
import { measure } from './measure.js';

const repoDir = fileURLToPath(new URL('../..', import.meta.url));
const nativeBench = process.env.JUMPHASH_NATIVE_BENCH ?? path.join(repoDir, 'build/native/bench/jumphash_bench');
const args = new Set(process.argv.slice(2));
const CASES = [
  { algorithm: 'jump', n: 1000 },
  { algorithm: 'jump', n: 1000000 },
  { algorithm: 'jumpback', n: 1000 },
  { algorithm: 'jumpback', n: 1000000 },
];
const caseKey = (c) => `${c.algorithm}/${c.n}`;

function native() {
  if (args.has('--no-native')) return { note: 'skipped (--no-native)' };
  if (!existsSync(nativeBench)) return { note: `not built (${nativeBench})` };
  const dir = mkdtempSync(path.join(tmpdir(), 'jumphash-bench-'));
  try {
    const out = path.join(dir, 'native.json');
    const filter = `^lookup/(${[...new Set(CASES.map((c) => c.algorithm))].join('|')})/(${[...new Set(CASES.map((c) => c.n))].join('|')})$`;
    const run = spawnSync(nativeBench, [`--benchmark_filter=${filter}`, `--benchmark_out=${out}`, '--benchmark_out_format=json'], { encoding: 'utf8' });
    if (run.status !== 0) return { note: `failed: ${run.stderr.slice(-500)}` };
    const json = JSON.parse(readFileSync(out, 'utf8'));
    const ns = new Map();
    for (const b of json.benchmarks) {
      const scale = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[b.time_unit ?? 'ns'];
      ns.set(b.name.replace(/^lookup\//, ''), b.cpu_time * scale);
    }
    return { ns, context: `${json.context.num_cpus} CPU @ ${json.context.mhz_per_cpu} MHz, library ${json.context.library_build_type}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (x, digits = 1) => (x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));
const ratio = (a, b) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}x`);

const nativeResult = native();
const jh = await loadJumphash();
const nodeRows = new Map(measure(jh, CASES).map((r) => [caseKey(r), r]));
let browser = { note: 'skipped (--no-browser)' };
if (!args.has('--no-browser')) {
  if (!haveChromium) browser = { note: 'no Chromium' };
  else {
    const report = await runInChromium(`bench/page.html?cases=${CASES.map((c) => `${c.algorithm}:${c.n}`).join(',')}`, { timeoutMs: 300000 });
    browser = report.error ? { note: report.error } : { rows: new Map(report.rows.map((r) => [caseKey(r), r])), userAgent: report.userAgent };
  }
}

const lines = [];
lines.push(`jumphash-wasm ${jh.version}, Node ${process.versions.node}, ${browser.userAgent ? browser.userAgent.match(/(Headless)?Chrome\/[\d.]+/)[0] : `Chromium: ${browser.note}`}`);
lines.push(`native: ${nativeResult.ns ? nativeResult.context : nativeResult.note}`);
lines.push('');
lines.push('| algorithm | n | native ns/lookup | Node `buckets` ns/key | Node / native | Chromium `buckets` ns/key | Chromium / native | Node, new output array | Chromium, new output array | Node `bucket` ns/call | Chromium `bucket` ns/call | Node `bucket` / native |');
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const c of CASES) {
  const key = caseKey(c);
  const nativeNs = nativeResult.ns?.get(key);
  const node = nodeRows.get(key);
  const chrome = browser.rows?.get(key);
  lines.push(`| ${c.algorithm} | ${c.n} | ${fmt(nativeNs)} | ${fmt(node.batchNsPerKey)} | ${ratio(node.batchNsPerKey, nativeNs)} | ${fmt(chrome?.batchNsPerKey)} | ${ratio(chrome?.batchNsPerKey, nativeNs)} | ${fmt(node.freshBatchNsPerKey)} | ${fmt(chrome?.freshBatchNsPerKey)} | ${fmt(node.callNs)} | ${fmt(chrome?.callNs)} | ${ratio(node.callNs, nativeNs)} |`);
}
lines.push('');
lines.push('`buckets`: one call over the native benchmark\'s 2^20 SplitMix64 keys, BigUint64Array in, Int32Array out (reused across calls; "new output array": a fresh one per call, as `buckets(algo, keys, n)` without `out`), copies included, best of 7 after 0.4 s of warm-up.');
lines.push('`bucket`: one call per bigint key (2x10^5 calls), best of 7. Native: Google Benchmark cpu_time of lookup/<algorithm>/<n> (independent lookups over the same keys).');
console.log(lines.join('\n'));
