// The package's benchmarks in a browser page's main thread (headless
// Chromium, the engine the playground runs on): bench.mjs's cases
// (?cases=jump:1000,jumpback:1000000: batch and per-call ns, measure.js's
// measure) or simd.mjs's batch paths (?counts=128,129&algorithms=jumpback,jump:
// measure.js's batchPathRows). The rows go to /result.
import { loadJumphash } from '../src/index.js';
import { batchPathRows, measure } from './measure.js';

async function main() {
  const report = { userAgent: navigator.userAgent };
  try {
    const query = new URLSearchParams(location.search);
    const jh = await loadJumphash();
    if (query.has('counts')) {
      report.rows = batchPathRows(jh, query.get('counts').split(',').map(Number), query.get('algorithms').split(','));
    } else {
      const cases = query.get('cases').split(',').map((c) => {
        const [algorithm, n] = c.split(':');
        return { algorithm, n: Number(n) };
      });
      report.rows = measure(jh, cases);
    }
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
main();
