// The checks run in the page and in a module Web Worker: the same API as in
// Node, with no options to loadJumphash (the module fetches its .wasm).
import { loadJumphash } from '../../src/index.js';

export async function checks() {
  const jh = await loadJumphash();
  const max = 18446744073709551615n;
  let numberKey = '';
  try { jh.bucket('jump', 5, 10); } catch (error) { numberKey = error.constructor.name; }
  let badN = '';
  try { jh.bucket('jump', 5n, 0); } catch (error) { badN = `${error.constructor.name}: ${error.message}`; }
  const moved = jh.moved('jumpback', '0..9999', 10, 12, { sampleLimit: 2 });
  return {
    version: jh.version,
    jumpback: jh.bucket('jumpback', max, 100),
    jump: Array.from(jh.buckets('jump', new BigUint64Array([max, 0n]), 100)),
    alice: jh.bucket('jump', '"alice"', 1000),
    run: jh.run('HASH 42 100\nHASH 1 0\n'),
    numberKey,
    badN,
    moved: { moved: moved.moved, total: moved.total, sample: moved.sample.map((s) => `${s.key}: ${s.oldBucket} -> ${s.newBucket}`) },
    trace: jh.trace('jump', 42n, 800).map((s) => `${s.n}:${s.bucket}`).join(' '),
  };
}
