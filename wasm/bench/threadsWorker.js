// A thread of bench/threads.mjs's loop, in Node (a worker_thread) or in a
// browser (a module Web Worker, bench/threads.html): its own instance of the
// module; asked for a key set's count, or to run a resize job over a key
// range, it answers with the count or the keys the range moved. Not a test.
import { loadJumphash } from '../src/index.js';

/** Answers one request of threads.mjs (see there) with `jh`. */
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

// In a browser's Web Worker: answer the page's messages.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  const jh = await loadJumphash();
  self.onmessage = (event) => self.postMessage(answer(jh, event.data));
  self.postMessage('ready');
}
