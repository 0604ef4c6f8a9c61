// Runs the checks in the page and in a module worker, then POSTs both to /result.
import { checks } from './checks.js';

function inWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => (event.data.ok ? resolve(event.data.value) : reject(new Error(event.data.error)));
    worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
    worker.postMessage('checks');
  });
}

async function main() {
  const report = { userAgent: navigator.userAgent };
  try {
    report.page = await checks();
    report.worker = await inWorker();
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
main();
