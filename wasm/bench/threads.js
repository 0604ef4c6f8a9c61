// bench/threads.mjs's loop on 1 and 2 Web Workers in a browser (the job in
// the query string as JSON, ?job=...&rounds=5): the page's report workers
// minus the page's parts, merge and drawing. The best ms of each, and the
// two workers' own ms for their halves in the best round of two, go to
// /result.
import { timeThreads } from './threadsLoop.js';

/** A module Web Worker running bench/threadsWorker.js, once its module is loaded. */
function start() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./threadsWorker.js', import.meta.url), { type: 'module' });
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = () => resolve(worker);
  });
}

function ask(worker, request) {
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
    worker.postMessage(request);
  });
}

async function main() {
  const report = {};
  try {
    const query = new URLSearchParams(location.search);
    const workers = [await start(), await start()];
    Object.assign(report, await timeThreads(workers, ask, JSON.parse(query.get('job')), Number(query.get('rounds'))));
    for (const worker of workers) worker.terminate();
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
main();
