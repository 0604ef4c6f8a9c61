// A thread of bench/threads.mjs's loop, in Node (a worker_thread) or in a
// browser (a module Web Worker, bench/threads.html): its own instance of the
// module; asked for a key set's count, or to run a resize job over a key
// range, it answers with the count or the keys the range moved. Not a test.
import { loadJumphash } from '../src/index.js';

/**
 * Answers one request of bench/threadsLoop.js (see there) with `jh`: a key
 * set's count, or a job's moved count with the ms the job took on this
 * thread (start to result) and, where `cpuNow` can tell, the CPU the
 * thread ended it on.
 */
export function answer(jh, request, cpuNow = () => undefined) {
  try {
    if ('count' in request) return { keyCount: jh.keyCount(request.count) };
    const started = performance.now();
    const job = jh.startResize(request.algo, request.keys, request.from, request.to, { keyRange: [request.begin, request.end] });
    try {
      while (!job.step(1 << 20));
      const { moved } = job.partResult();
      return { moved, ms: performance.now() - started, cpu: cpuNow() };
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
    const { readFileSync } = await import('node:fs');
    // Linux: field 39 of this thread's stat, the CPU it last ran on (the
    // fields after the command's closing parenthesis start at field 3).
    const cpuNow = () => {
      try {
        return Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[36]);
      } catch {
        return undefined;
      }
    };
    const jh = await loadJumphash();
    parentPort.on('message', (request) => parentPort.postMessage(answer(jh, request, cpuNow)));
    parentPort.postMessage('ready');
  }
}
