// The timing of bench/threads.mjs, shared by its Node worker_threads and
// its browser Web Workers (bench/threads.html): one job over every key on
// one thread, then two jobs over half the keys each at once, the two taken
// in turn for `rounds` rounds after WARMUP_ROUNDS untimed; the best of
// each. Not a test.

/**
 * Rounds run before the timed ones. A Web Worker runs the module's code
 * as V8 first compiled it until V8 has compiled its hot functions again,
 * optimized: in headless Chromium on this project's 2-core VM, 5 rounds
 * with none before them once had 2 workers' best at 56.2 ms against 63.5
 * for one (1.13x), and 15 rounds 28.5-28.9 against 55.4-56.2 (1.94x-1.96x).
 */
export const WARMUP_ROUNDS = 3;

/**
 * `workers`: two started threads; `ask(worker, request)` resolves with the
 * worker's answer (bench/threadsWorker.js, answer) or rejects with its
 * error. Resolves with the best ms of one thread and of two.
 */
export async function timeThreads(workers, ask, job, rounds) {
  /** Runs keys [begin, end) of the job on `worker`; resolves with its moved count. */
  const run = async (worker, begin, end) => (await ask(worker, { ...job, begin, end })).moved;
  const { keyCount } = await ask(workers[0], { count: job.keys });
  const half = Math.floor(keyCount / 2);
  const best = [Infinity, Infinity];
  for (let round = -WARMUP_ROUNDS; round < rounds; round++) {
    let started = performance.now();
    const whole = await run(workers[0], 0, keyCount);
    best[0] = Math.min(best[0], performance.now() - started);
    started = performance.now();
    const halves = await Promise.all([run(workers[0], 0, half), run(workers[1], half, keyCount)]);
    best[1] = Math.min(best[1], performance.now() - started);
    if (halves[0] + halves[1] !== whole) throw new Error(`the halves moved ${halves[0]} + ${halves[1]} keys, the whole ${whole}`);
    if (round < 0) best.fill(Infinity);
  }
  return best;
}
