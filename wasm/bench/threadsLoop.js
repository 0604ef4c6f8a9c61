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
 * error. Resolves with the best ms of one thread and of two (`best`), and
 * from the best round of two, what each thread took for its half on its
 * own clock (`halves`, ms) and the CPU it ran on where the thread can tell
 * (`cpus`, else undefined). Two halves far apart mean the two cores ran
 * this loop at different speeds in that round: on this project's VM, one
 * vCPU at times runs it 1.45x slower than the other, alone or not.
 */
export async function timeThreads(workers, ask, job, rounds) {
  /** Runs keys [begin, end) of the job on `worker`; resolves with its answer (moved, ms, cpu). */
  const run = (worker, begin, end) => ask(worker, { ...job, begin, end });
  const { keyCount } = await ask(workers[0], { count: job.keys });
  const half = Math.floor(keyCount / 2);
  const best = [Infinity, Infinity];
  let halves = [NaN, NaN];
  let cpus = [undefined, undefined];
  for (let round = -WARMUP_ROUNDS; round < rounds; round++) {
    let started = performance.now();
    const whole = (await run(workers[0], 0, keyCount)).moved;
    best[0] = Math.min(best[0], performance.now() - started);
    started = performance.now();
    const parts = await Promise.all([run(workers[0], 0, half), run(workers[1], half, keyCount)]);
    const two = performance.now() - started;
    if (two < best[1]) {
      best[1] = two;
      halves = parts.map((part) => part.ms);
      cpus = parts.map((part) => part.cpu);
    }
    if (parts[0].moved + parts[1].moved !== whole) throw new Error(`the halves moved ${parts[0].moved} + ${parts[1].moved} keys, the whole ${whole}`);
    if (round < 0) best.fill(Infinity);
  }
  return { best, halves, cpus };
}
