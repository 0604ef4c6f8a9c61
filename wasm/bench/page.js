// The benchmark in the browser's main thread; the cases come in the query
// string (?cases=jump:1000,jumpback:1000000) and the rows go to /result.
import { loadJumphash } from '../src/index.js';
import { measure } from './measure.js';

async function main() {
  const report = { userAgent: navigator.userAgent };
  try {
    const cases = new URLSearchParams(location.search).get('cases').split(',').map((c) => {
      const [algorithm, n] = c.split(':');
      return { algorithm, n: Number(n) };
    });
    report.rows = measure(await loadJumphash(), cases);
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
main();
