// Module worker: runs the checks (or a benchmark) and posts the result back.
import { checks } from './checks.js';

self.onmessage = async (event) => {
  try {
    if (event.data === 'checks') self.postMessage({ ok: true, value: await checks() });
    else {
      const { bench } = await import('../../bench/browser_bench.js');
      self.postMessage({ ok: true, value: await bench(event.data.bench) });
    }
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack ? error.stack : error) });
  }
};
