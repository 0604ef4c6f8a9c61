import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, test, type Page } from '@playwright/test';
import { type AfterReply, type CpuTime, cpuTimesSince, openPage, readCpuTimes, type ReportCase, reportMs, type Split, type ThreadCpu, threadCpuMs, type Times, workersCpuMs, workersText } from './pageTiming';

// Reports in the page on 1, 2 and all of navigator.hardwareConcurrency
// workers (?workers=N), against the native single-thread bare loop that
// does the same two lookups per key and counts (build/native/bench/
// jumphash_batch_bench, resize/*, which also times the CLI with -j 1 and
// -j <cores>, and short/*, the short jumpback report on 1 and 2 native
// threads), all in one run, as ratios. The page's time runs from typing
// the keys to the report on screen (the view's 300 ms input debounce, the
// split, the merge and the charts included; the workers already started, as
// the page starts them 500 ms after it loads), best of ROUNDS runs taken
// in turn with the other worker counts' (each count has a page of its own);
// and, in brackets, from the report's start (after the debounce) to the
// same frame, and from the report's start to its reply on the page's main
// thread (the User Timing mark `jumphash:reply`, before the view draws it:
// the engine's own time, the workers' throughput). After each report's
// rounds, the same loop runs on 1 and 2 Node worker_threads and on 1 and 2
// bare Web Workers in headless Chromium, with the same module
// (wasm/bench/threads.mjs): on this project's VM, what two cores give one
// loop changes from minute to minute, and the bare Web Workers show what
// the browser leaves of it before the page's parts, merge and drawing. Its
// lines give each of the two threads' own time for its half: when they are
// far apart, one vCPU ran the loop slower than the other in that round
// (alone as well: on this VM, one vCPU at times runs the jumpback loop
// 1.45x slower), which bounds what any split of the keys can gain. The
// page's own split reports say the same of each round: the keys each of
// its workers counted (the User Timing mark `jumphash:split`), as a pair
// counts toward each other until they meet. Last, a few more reports of
// each page run under a Chromium trace, for the CPU time of each of its
// threads (threadCpuMs): two workers spending more CPU on the same keys
// than one worker did means each key ran slower while both cores were
// busy, even with the keys split evenly. And over each worker count's
// timed rounds, the host's steal time from /proc/stat (readCpuTimes): time
// a vCPU was ready and the host ran something else on its core, which no
// thread's CPU time counts and every report's wall time does.

const repoDir = fileURLToPath(new URL('../../', import.meta.url));
const nativeBench = process.env['JUMPHASH_BATCH_BENCH'] ?? path.join(repoDir, 'build/native/bench/jumphash_batch_bench');
const threadsProbe = path.join(repoDir, 'wasm/bench/threads.mjs');

const CASES: ReportCase[] = [
  { name: 'jumpback 1000 -> 1001, keys 0..99999999', algo: 'jumpback', from: 1000, to: 1001, keys: '0..99999999', count: '100000000' },
  { name: 'jump 10 -> 12, keys random:10000000:1', algo: 'jump', from: 10, to: 12, keys: 'random:10000000:1', count: '10000000' },
  { name: 'jumpback 1000 -> 1001, keys random:10000000:1', algo: 'jumpback', from: 1000, to: 1001, keys: 'random:10000000:1', count: '10000000' },
];

/** Reports of each worker count, taken in turn (1, 2, ..., 1, 2, ...), so that a slow spell of the host slows every count alike. */
const ROUNDS = 5;

/** One timed report (reportMs): its times, its time from the reply to the screen, and its split (the keys each worker counted). */
type Round = Times & AfterReply & Split;

/**
 * `c` with each of `workerCounts` workers, one page each, the counts taken
 * in turn for ROUNDS rounds: per count, every round and the best of its
 * times; then, per count, its threads' CPU time in the least costly of
 * CPU_ROUNDS traced reports.
 */
async function caseMs(
  context: BrowserContext,
  c: ReportCase,
  workerCounts: number[],
): Promise<{ best: Times[]; rounds: Round[][]; cpu: ThreadCpu[]; host: CpuTime[][] }> {
  const pages: Page[] = [];
  for (const workers of workerCounts) pages.push(await openPage(context, c, workers));
  const rounds: Round[][] = workerCounts.map(() => []);
  // Per worker count, per vCPU: its time and the host's steal over its rounds.
  const host: CpuTime[][] = workerCounts.map(() => []);
  // One reading between rounds ends one round's window and starts the next's.
  let last = readCpuTimes();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, page] of pages.entries()) {
      rounds[i]!.push(await reportMs(page, c));
      const now = readCpuTimes();
      cpuTimesSince(last, now).forEach((spent, cpu) => {
        const sum = (host[i]![cpu] ??= { total: 0, steal: 0 });
        sum.total += spent.total;
        sum.steal += spent.steal;
      });
      last = now;
    }
  }
  // CPU_ROUNDS more reports each, traced, after the timed ones (a trace
  // slows a page down): per page, the round whose workers spent least (a
  // trace that found no worker, never).
  const traced: ThreadCpu[][] = pages.map(() => []);
  for (let round = 0; round < CPU_ROUNDS; round++) {
    for (const [i, page] of pages.entries()) traced[i]!.push(await threadCpuMs(page, c));
  }
  const spent = (one: ThreadCpu) => (one.workers.length ? workersCpuMs(one) : Infinity);
  const cpu = traced.map((rounds) => rounds.reduce((least, one) => (spent(one) < spent(least) ? one : least)));
  for (const page of pages) await page.close();
  const least = (each: Times[], key: keyof Times) => Math.min(...each.map((t) => t[key]));
  const best = rounds.map((each) => ({ typed: least(each, 'typed'), report: least(each, 'report'), reply: least(each, 'reply') }));
  return { best, rounds, cpu, host };
}

/**
 * The host's steal over a worker count's timed rounds (caseMs: each
 * round whole, its reset to 0..99 as well as the typing, debounce, report
 * and drawing timed), summed over its rounds:
 * `2 workers: 30 of 2 x 1510 ms (cpu0 20, cpu1 10)`. Ticks of 10 ms, so a
 * round's few ms of steal show as 0 or 10.
 */
function stealText(workers: number, host: CpuTime[]): string {
  if (host.length === 0) return `${workersText(workers)}: no /proc/stat here`;
  const steal = host.reduce((a, b) => a + b.steal, 0);
  const perCpu = host.map((one, cpu) => `cpu${cpu} ${one.steal.toFixed(0)}`).join(', ');
  const window = Math.max(...host.map((one) => one.total));
  return `${workersText(workers)}: ${steal.toFixed(0)} of ${host.length} x ${window.toFixed(0)} ms (${perCpu})`;
}

/** The middle of `ms` (the mean of the two middle values for an even count). */
function median(ms: number[]): number {
  const sorted = [...ms].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * `c`'s medians over its ROUNDS rounds per worker count, from the report's
 * start to the screen (to the reply), and the speedups 1 -> 2 between
 * them: beside the table's bests, whether most rounds went that way or one
 * lucky (or unlucky) round made the best.
 */
function mediansText(name: string, workerCounts: number[], rounds: Times[][]): string {
  const at = (i: number, key: keyof Times) => median(rounds[i]!.map((t) => t[key]));
  const counts = workerCounts.map((w, i) => `${workersText(w)} ${at(i, 'report')} (${at(i, 'reply')})`).join(', ');
  const speedup = (key: keyof Times) => `${(at(0, key) / at(1, key)).toFixed(2)}x`;
  return `${name}: ${counts}; 1 -> 2 ${speedup('report')} (${speedup('reply')})`;
}

/** Traced reports of each worker count after the timed rounds, for the threads' CPU time (threadCpuMs): the least is kept. */
const CPU_ROUNDS = 3;

/** One round's report: the keys each worker counted (pageTiming.ts, Split) and its ms to the reply. */
type SplitRound = Split & Pick<Times, 'reply'>;

/**
 * A round's split report: its keys per worker in millions, the most against
 * the fewest, and its reply, `5.10M / 4.90M (1.04x) 38 ms`; `whole` when
 * it did not split.
 */
function splitText({ keysCounted: keys, reply }: SplitRound): string {
  if (!keys) return `whole ${reply} ms`;
  return `${keys.map((k) => `${(k / 1e6).toFixed(2)}M`).join(' / ')} (${(Math.max(...keys) / Math.min(...keys)).toFixed(2)}x) ${reply} ms`;
}

/**
 * `c`'s loop on 1 and 2 Node worker_threads, then on 1 and 2 Web Workers in
 * headless Chromium, with the same module (wasm/bench/threads.mjs: the
 * page's workers minus the parts, merge, moved-key list and drawing, and in
 * Node minus the browser too), run just after the page's rounds of `c`:
 * what the machine gave this loop on two cores at that moment, a line each.
 */
function threadsBare(c: ReportCase): string {
  const run = spawnSync(process.execPath, [threadsProbe, '--algo', c.algo, '--keys', c.keys, '--from', String(c.from), '--to', String(c.to), '--rounds', String(ROUNDS)], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : `${c.name}: threads.mjs failed: ${run.stderr.trim()}`;
}

/**
 * A page's threads' CPU time in its traced report: each worker's and their
 * sum against `one`'s (the page of one worker), the main thread's and the
 * rest of the browser's. The same keys costing two workers more CPU than
 * one is each key running slower on a core while the other core is busy
 * too (caches, memory, the host), which no split of the keys can make up
 * for. The main thread and the rest of the browser run on the core one
 * worker leaves free; two workers share both cores with them.
 */
function cpuText(workers: number, cpu: ThreadCpu, one: ThreadCpu): string {
  const sum = workersCpuMs(cpu);
  const against = workers === 1 || one.workers.length === 0 ? '' : `, ${(sum / workersCpuMs(one)).toFixed(2)}x one worker's`;
  const each = (ms: number[]) => ms.map((x) => x.toFixed(1)).join(' + ');
  const spent = cpu.workers.length > 1 ? `${each(cpu.workers)} = ${sum.toFixed(1)}` : each(cpu.workers);
  const rest = `waited for a core ${each(cpu.waited)}, idle ${each(cpu.idle)} of ${cpu.window.toFixed(1)}`;
  return `${workersText(workers)}: ${spent}${against} (${rest}), main thread ${cpu.main.toFixed(1)}, the rest of the browser ${cpu.others.toFixed(1)}`;
}

/** The native bench's resize rows: name -> ms. */
function nativeResize(): Map<string, number> {
  const rows = new Map<string, number>();
  if (!existsSync(nativeBench)) return rows;
  const run = spawnSync(nativeBench, ['--benchmark_filter=^(resize|short)/'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  for (const match of run.stdout.matchAll(/^\| ((?:resize|short)\/\S+) \| ([\d.]+) \|/gm)) rows.set(match[1]!, Number(match[2]));
  return rows;
}

test('page reports on 1, 2 and all workers against the bare loop', async ({ page, context }) => {
  const native = nativeResize();
  await page.goto('./');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const workerCounts = [...new Set([1, 2, Math.min(8, cores)])];
  const lines = [`navigator.hardwareConcurrency = ${cores}`, ''];
  lines.push('Each cell: typing to report on screen (report start to report on screen; report start to its reply on the main thread), ms.', '');
  lines.push(`| report | ${workerCounts.map(workersText).join(' | ')} | speedup 1 -> 2 |`);
  lines.push(`|---|${workerCounts.map(() => '---|').join('')}---|`);
  const bare = [...native].find(([name]) => name.startsWith('resize/bare_loop'))?.[1];
  const threadLines: string[] = [];
  const afterReplyLines: string[] = [];
  const medianLines: string[] = [];
  const splitLines: string[] = [];
  const cpuLines: string[] = [];
  const stealLines: string[] = [];
  for (const c of CASES) {
    const { best: times, rounds, cpu, host } = await caseMs(context, c, workerCounts);
    stealLines.push(`${c.name}: ${workerCounts.map((w, i) => stealText(w, host[i]!)).join('; ')}`);
    medianLines.push(mediansText(c.name, workerCounts, rounds));
    cpuLines.push(`${c.name}: ${workerCounts.map((w, i) => cpuText(w, cpu[i]!, cpu[0]!)).join('; ')}`);
    splitLines.push(
      `${c.name}: ${workerCounts
        .slice(1)
        .map((w) => `${w} workers: ${rounds[workerCounts.indexOf(w)]!.map(splitText).join('; ')}`)
        .join(' | ')}`,
    );
    const runs = (all: AfterReply[], key: keyof AfterReply) => all.map((one) => one[key].toFixed(1)).join(' / ');
    afterReplyLines.push(
      `${c.name}: ${workerCounts.map((w, i) => `${workersText(w)}: render ${runs(rounds[i]!, 'render')}, frame ${runs(rounds[i]!, 'frame')}`).join('; ')}`,
    );
    threadLines.push(threadsBare(c));
    const ratio = (ms: number) => (bare && c.keys === '0..99999999' ? `, ${(ms / bare).toFixed(2)}x bare` : '');
    const cell = (t: Times) => `${t.typed}${ratio(t.typed)} (${t.report}${ratio(t.report)}; ${t.reply})`;
    const speedup = (key: keyof Times) => `${(times[0]![key] / times[1]![key]).toFixed(2)}x`;
    const speedups = `${speedup('typed')} (${speedup('report')}; ${speedup('reply')})`;
    lines.push(`| ${c.name} | ${times.map(cell).join(' | ')} | ${speedups} |`);
  }
  lines.push('', 'Native, same run (jumphash_batch_bench, jumpback MOVED 1000 1001 over 0..99999999):', '| run | ms | ratio to the bare loop |', '|---|---|---|');
  for (const [name, ms] of native) {
    if (name.startsWith('resize/')) lines.push(`| ${name} | ${ms} | ${bare ? (ms / bare).toFixed(2) : '-'}x |`);
  }
  // The machine's own 1 -> 2 speedup in this run, to read the page's against:
  // native threads share the cores with nothing else of the page's.
  const threads = (prefix: string) => {
    const one = [...native].find(([name]) => name.startsWith(`${prefix}/1/`))?.[1];
    const two = [...native].find(([name]) => name.startsWith(`${prefix}/2/`))?.[1];
    return one && two ? `${(one / two).toFixed(2)}x (${one} -> ${two} ms)` : '-';
  };
  // short/report: the page's shortest split report (jumpback 1000 -> 1001
  // over random:10000000:1) counted by 1 thread or by 2 threads, half each.
  lines.push('', `Native threads, 1 -> 2, same run: the report ${threads('resize/report')}, the CLI ${threads('resize/cli')}, the short jumpback report over random:10000000:1 ${threads('short/report')}.`);
  lines.push('', `The median of the ${ROUNDS} rounds of each, report start to screen (to the reply), ms, and the speedup 1 -> 2 between the medians:`, ...medianLines);
  lines.push('', 'From the reply to the screen, every run (ms): the view drawing the report (reply to the count in the document), then the wait for the next animation frame:', ...afterReplyLines);
  // A pair of workers counts toward each other until they meet: the keys
  // each counted are as their speeds were in that round.
  lines.push('', 'The keys each worker counted, every run (the most against the fewest), and its ms to the reply:', ...splitLines);
  lines.push(
    '',
    `CPU time of the page's threads and of the rest of the browser in a report (ms, each thread's own clock, in its tasks that ran between the report's start and its reply, each task counted whole: the main thread's include the task that starts the report and the one that takes the reply and draws it), the least of ${CPU_ROUNDS} more reports each, traced after the timed ones; in brackets, what else made up each worker's time to the reply: its tasks waiting for a core, and no task at all (the report's start, grants, the merge):`,
    ...cpuLines,
  );
  lines.push('', 'The same loops on Node worker_threads and bare Chromium Web Workers (wasm/bench/threads.mjs), each just after its page rounds:', ...threadLines);
  lines.push(
    '',
    "The host's steal time over each worker count's timed rounds (/proc/stat: ms a vCPU was ready while the host ran something else on its core; 10 ms ticks), of each vCPU's time over those rounds:",
    ...stealLines,
  );
  console.log(lines.join('\n'));
});
