import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, expect, test, type Page } from '@playwright/test';

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
// the browser leaves of it before the page's parts, merge and drawing.

const repoDir = fileURLToPath(new URL('../../', import.meta.url));
const nativeBench = process.env['JUMPHASH_BATCH_BENCH'] ?? path.join(repoDir, 'build/native/bench/jumphash_batch_bench');
const threadsProbe = path.join(repoDir, 'wasm/bench/threads.mjs');

const CASES = [
  { name: 'jumpback 1000 -> 1001, keys 0..99999999', algo: 'jumpback', from: 1000, to: 1001, keys: '0..99999999', count: '100000000' },
  { name: 'jump 10 -> 12, keys random:10000000:1', algo: 'jump', from: 10, to: 12, keys: 'random:10000000:1', count: '10000000' },
  { name: 'jumpback 1000 -> 1001, keys random:10000000:1', algo: 'jumpback', from: 1000, to: 1001, keys: 'random:10000000:1', count: '10000000' },
];

/** Reports of each worker count, taken in turn (1, 2, ..., 1, 2, ...), so that a slow spell of the host slows every count alike. */
const ROUNDS = 5;

type Case = (typeof CASES)[number];
interface Times {
  typed: number;
  report: number;
  reply: number;
}

/**
 * One report's time from its reply to the screen, in two parts (ms): the
 * view's drawing script, from the reply to the count in the document, and
 * the wait from there to the next animation frame.
 */
interface AfterReply {
  render: number;
  frame: number;
}

/** A page of the Resize view with `workers` workers (?workers=N), showing `c` over keys 0..99, its workers started. */
async function openPage(context: BrowserContext, c: Case, workers: number): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`./?workers=${workers}#view=resize&algo=${c.algo}&from=${c.from}&to=${c.to}&keys=0..99`);
  await expect(page.getByTestId('total-keys')).toHaveText('100');
  await page.waitForTimeout(2000); // the workers start
  return page;
}

/**
 * ms from typing the keys of `c` into `page` to its report on screen, and
 * from the report's start (the User Timing mark `jumphash:report` that
 * engine.reports sets after the view's input debounce) to the same frame.
 */
async function reportMs(page: Page, c: Case): Promise<Times & AfterReply> {
  await page.bringToFront();
  await page.locator('textarea[name="keys"]').fill('0..99');
  await expect(page.getByTestId('total-keys')).toHaveText('100', { timeout: 300_000 });
  // Timed in the page, to the frame that shows the count (expect's polling
  // would add up to a second). A MutationObserver, not polling on every
  // animation frame: that polling made Chromium draw 60 frames a second
  // while the report ran, and those frames took CPU time from the workers
  // (in a trace of the 2-worker 10^8-key report, 22 polls and their frames
  // against 3 frames of the page's own).
  const shown = page.evaluate(
    (count) =>
      new Promise<[number, number]>((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelector('[data-testid="total-keys"]')?.textContent !== count) return;
          observer.disconnect();
          const inDocumentAt = performance.now();
          requestAnimationFrame(() => resolve([inDocumentAt, performance.now()]));
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    c.count,
  );
  const started = await page.evaluate(() => {
    performance.clearMarks('jumphash:report');
    performance.clearMarks('jumphash:reply');
    return performance.now();
  });
  await page.locator('textarea[name="keys"]').fill(c.keys);
  const [inDocumentAt, shownAt] = await shown;
  const [reportAt, replyAt] = await page.evaluate(() =>
    ['jumphash:report', 'jumphash:reply'].map((name) => performance.getEntriesByName(name).at(-1)?.startTime ?? NaN),
  );
  return {
    typed: Math.round(shownAt - started),
    report: Math.round(shownAt - reportAt!),
    reply: Math.round(replyAt! - reportAt!),
    render: inDocumentAt - replyAt!,
    frame: shownAt - inDocumentAt,
  };
}

/**
 * `c` with each of `workerCounts` workers, one page each, the counts taken
 * in turn for ROUNDS rounds: per count, the best of its runs, and every
 * run's time from the reply to the screen.
 */
async function caseMs(context: BrowserContext, c: Case, workerCounts: number[]): Promise<{ best: Times[]; afterReply: AfterReply[][] }> {
  const pages: Page[] = [];
  for (const workers of workerCounts) pages.push(await openPage(context, c, workers));
  const best = workerCounts.map(() => ({ typed: Infinity, report: Infinity, reply: Infinity }));
  const afterReply: AfterReply[][] = workerCounts.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, page] of pages.entries()) {
      const times = await reportMs(page, c);
      best[i]!.typed = Math.min(best[i]!.typed, times.typed);
      best[i]!.report = Math.min(best[i]!.report, times.report);
      best[i]!.reply = Math.min(best[i]!.reply, times.reply);
      afterReply[i]!.push({ render: times.render, frame: times.frame });
    }
  }
  for (const page of pages) await page.close();
  return { best, afterReply };
}

/**
 * `c`'s loop on 1 and 2 Node worker_threads, then on 1 and 2 Web Workers in
 * headless Chromium, with the same module (wasm/bench/threads.mjs: the
 * page's workers minus the parts, merge, moved-key list and drawing, and in
 * Node minus the browser too), run just after the page's rounds of `c`:
 * what the machine gave this loop on two cores at that moment, a line each.
 */
function threadsBare(c: Case): string {
  const run = spawnSync(process.execPath, [threadsProbe, '--algo', c.algo, '--keys', c.keys, '--from', String(c.from), '--to', String(c.to), '--rounds', String(ROUNDS)], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : `${c.name}: threads.mjs failed: ${run.stderr.trim()}`;
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
  lines.push(`| report | ${workerCounts.map((w) => `${w} worker${w === 1 ? '' : 's'}`).join(' | ')} | speedup 1 -> 2 |`);
  lines.push(`|---|${workerCounts.map(() => '---|').join('')}---|`);
  const bare = [...native].find(([name]) => name.startsWith('resize/bare_loop'))?.[1];
  const threadLines: string[] = [];
  const afterReplyLines: string[] = [];
  for (const c of CASES) {
    const { best: times, afterReply } = await caseMs(context, c, workerCounts);
    const runs = (all: AfterReply[], key: keyof AfterReply) => all.map((one) => one[key].toFixed(1)).join(' / ');
    afterReplyLines.push(
      `${c.name}: ${workerCounts.map((w, i) => `${w} worker${w === 1 ? '' : 's'}: render ${runs(afterReply[i]!, 'render')}, frame ${runs(afterReply[i]!, 'frame')}`).join('; ')}`,
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
  lines.push('', 'From the reply to the screen, every run (ms): the view drawing the report (reply to the count in the document), then the wait for the next animation frame:', ...afterReplyLines);
  lines.push('', 'The same loops on Node worker_threads and bare Chromium Web Workers (wasm/bench/threads.mjs), each just after its page rounds:', ...threadLines);
  console.log(lines.join('\n'));
});
