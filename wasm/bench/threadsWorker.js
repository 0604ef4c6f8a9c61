// A thread of bench/threads.mjs's loop, in Node (a worker_thread) or in a
// browser (a module Web Worker, bench/threads.html): its own instance of the
// module; asked for a key set's count, or to run a resize job over a key
// range, it answers with the count or the keys the range moved. Not a test.
import { loadJumphash } from '../src/index.js';

/** Answers one request of bench/threadsLoop.js (see there) with `jh`. */
export function answer(jh, request) {
  try {
    if ('count' in request) return { keyCount: jh.keyCount(request.count) };
    const job = jh.startResize(request.algo, request.keys, request.from, request.to, { keyRange: [request.begin, request.end] });
    try {
      while (!job.step(1 << 20));
      return { moved: job.partResult().moved };
    } finally {
      job.dispose();
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

// Run as a thread, answer the messages of the thread that started it: in
// a browser's Web Worker (bench/threads.js) or a Node worker_thread
// (bench/threads.mjs). Imported on a main thread, it only exports answer.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const jh = await loadJumphash();
  self.onmessage = (event) => self.postMessage(answer(jh, event.data));
  self.postMessage('ready');
} else if (typeof process !== 'undefined') {
  const { parentPort } = await import('node:worker_threads');
  if (parentPort) {
    const jh = await loadJumphash();
    parentPort.on('message', (request) => parentPort.postMessage(answer(jh, request)));
    parentPort.postMessage('ready');
  }
}
