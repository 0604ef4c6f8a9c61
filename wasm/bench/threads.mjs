#!/usr/bin/env node
// The page's resize report loop on 1 and on 2 Node worker_threads, each
// thread with its own instance of the module, as the page's Web Workers
// have: one job over every key, then two jobs over half the keys each at
// once (no parts, no merge, no browser). What the machine gives this very
// loop on two cores at the moment of the run, to read the page's own 1 -> 2
// speedup against (e2e/bench/reports.bench.ts runs it beside the page).
// Best of --rounds rounds, the two counts taken in turn. Not a test.
//
//   node wasm/bench/threads.mjs [--algo jumpback] [--keys random:10000000:1]
//                               [--from 1000] [--to 1001] [--rounds 5]
//   (build first: cmake --preset wasm && cmake --build --preset wasm)
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

import { loadJumphash } from '../src/index.js';

if (isMainThread) {
  const options = { algo: 'jumpback', keys: 'random:10000000:1', from: '1000', to: '1001', rounds: '5' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, '');
    if (!(name in options) || argv[i + 1] === undefined) {
      console.error(`threads.mjs: unknown option '${argv[i]}'; options: ${Object.keys(options).map((o) => `--${o} VALUE`).join(', ')}`);
      process.exit(2);
    }
    options[name] = argv[i + 1];
  }
  const job = { algo: options.algo, keys: options.keys, from: Number(options.from), to: Number(options.to) };
  const start = () =>
    new Promise((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url));
      worker.once('error', reject);
      worker.once('message', () => resolve(worker));
    });
  const workers = [await start(), await start()];
  /** Posts `request` to `worker`; resolves with its reply, rejects with its error. */
  const ask = (worker, request) =>
    new Promise((resolve, reject) => {
      worker.once('message', (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      worker.postMessage(request);
    });
  /** Runs keys [begin, end) of the job on `worker`; resolves with its moved count. */
  const run = async (worker, begin, end) => (await ask(worker, { ...job, begin, end })).moved;
  const { keyCount } = await ask(workers[0], { count: job.keys });
  const half = Math.floor(keyCount / 2);
  const best = [Infinity, Infinity];
  for (let round = 0; round < Number(options.rounds); round++) {
    let started = performance.now();
    const whole = await run(workers[0], 0, keyCount);
    best[0] = Math.min(best[0], performance.now() - started);
    started = performance.now();
    const halves = await Promise.all([run(workers[0], 0, half), run(workers[1], half, keyCount)]);
    best[1] = Math.min(best[1], performance.now() - started);
    if (halves[0] + halves[1] !== whole) throw new Error(`the halves moved ${halves[0]} + ${halves[1]} keys, the whole ${whole}`);
  }
  for (const worker of workers) await worker.terminate();
  const [one, two] = best.map((ms) => ms.toFixed(1));
  console.log(`${job.algo} ${job.from} -> ${job.to} over ${job.keys} on Node worker_threads, best of ${options.rounds}: 1 thread ${one} ms, 2 threads ${two} ms, ${(best[0] / best[1]).toFixed(2)}x`);
} else {
  const jh = await loadJumphash();
  parentPort.on('message', (request) => {
    try {
      if ('count' in request) {
        parentPort.postMessage({ keyCount: jh.keyCount(request.count) });
        return;
      }
      const job = jh.startResize(request.algo, request.keys, request.from, request.to, { keyRange: [request.begin, request.end] });
      try {
        while (!job.step(1 << 20));
        parentPort.postMessage({ moved: job.partResult().moved });
      } finally {
        job.dispose();
      }
    } catch (error) {
      parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage('ready');
}
