#!/usr/bin/env node
// The page's resize report loop on 1 and on 2 threads, each thread with its
// own instance of the module, as the page's Web Workers have: one job over
// every key, then two jobs over half the keys each at once (no parts, no
// merge, no drawing). Run on Node worker_threads, then on Web Workers in
// headless Chromium (bench/threads.html): what the machine gives this very
// loop on two cores at the moment of the run, with and without the browser,
// to read the page's own 1 -> 2 speedup against (e2e/bench/reports.bench.ts
// runs it beside the page); each thread runs bench/threadsWorker.js. Best
// of --rounds rounds, the two counts taken in turn (bench/threadsLoop.js).
// Not a test.
//
//   node wasm/bench/threads.mjs [--algo jumpback] [--keys random:10000000:1]
//                               [--from 1000] [--to 1001] [--rounds 5] [--no-browser]
//   (build first: cmake --preset wasm && cmake --build --preset wasm)
import { Worker } from 'node:worker_threads';

import { chromium, haveChromium, runInChromium } from '../test/browser/harness.mjs';
import { timeThreads } from './threadsLoop.js';

const options = { algo: 'jumpback', keys: 'random:10000000:1', from: '1000', to: '1001', rounds: '5' };
const argv = process.argv.slice(2);
const browser = !argv.includes('--no-browser');
const valued = argv.filter((arg) => arg !== '--no-browser');
for (let i = 0; i < valued.length; i += 2) {
  const name = valued[i]?.replace(/^--/, '');
  if (!(name in options) || valued[i + 1] === undefined) {
    console.error(`threads.mjs: unknown option '${valued[i]}'; options: ${Object.keys(options).map((o) => `--${o} VALUE`).join(', ')}, --no-browser`);
    process.exit(2);
  }
  options[name] = valued[i + 1];
}
for (const name of ['from', 'to', 'rounds']) {
  if (!/^[0-9]+$/.test(options[name]) || (name === 'rounds' && Number(options[name]) < 1)) {
    console.error(`threads.mjs: --${name} must be a whole number${name === 'rounds' ? ' of at least 1' : ''}, got '${options[name]}'`);
    process.exit(2);
  }
}
const job = { algo: options.algo, keys: options.keys, from: Number(options.from), to: Number(options.to) };
const rounds = Number(options.rounds);
/**
 * A line of the result: the best of one thread and of two, and what each of
 * the two took for its half on its own clock in that round (with its CPU
 * where known), the slower against the faster.
 */
const summary = (where, unit, { best: [one, two], halves, cpus }) => {
  const own = halves.map((ms, i) => `${ms.toFixed(1)} ms${cpus[i] == null ? '' : ` on cpu ${cpus[i]}`}`).join(' / ');
  const apart = (Math.max(...halves) / Math.min(...halves)).toFixed(2);
  return `${job.algo} ${job.from} -> ${job.to} over ${job.keys} on ${where}, best of ${rounds}: 1 ${unit} ${one.toFixed(1)} ms, 2 ${unit}s ${two.toFixed(1)} ms, ${(one / two).toFixed(2)}x (their halves ${own}, ${apart}x apart)`;
};

const start = () =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./threadsWorker.js', import.meta.url));
    worker.once('error', reject);
    worker.once('message', () => resolve(worker));
  });
const ask = (worker, request) =>
  new Promise((resolve, reject) => {
    worker.once('message', (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    worker.postMessage(request);
  });
const workers = [await start(), await start()];
let timed;
try {
  timed = await timeThreads(workers, ask, job, rounds);
} catch (error) {
  console.error(`threads.mjs: ${error.message}`);
  process.exit(1);
} finally {
  for (const worker of workers) await worker.terminate();
}
console.log(summary('Node worker_threads', 'thread', timed));

if (browser && !haveChromium) console.log(`Chromium Web Workers: skipped, no Chromium at ${chromium} (set CHROMIUM)`);
if (browser && haveChromium) {
  const query = new URLSearchParams({ job: JSON.stringify(job), rounds: String(rounds) });
  const report = await runInChromium(`bench/threads.html?${query}`, { timeoutMs: 300000 });
  if (report.error) {
    console.error(`threads.mjs: in Chromium: ${report.error}`);
    process.exit(1);
  }
  console.log(summary('Chromium Web Workers', 'worker', report));
}
