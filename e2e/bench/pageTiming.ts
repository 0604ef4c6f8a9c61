// How the page benchmarks time one report in the Resize view
// (reports.bench.ts, builds.bench.ts): a page of the view with its workers
// started, and a report's time from typing its keys to the screen.
import { readFileSync } from 'node:fs';
import { type BrowserContext, expect, type Page } from '@playwright/test';

/** `1 worker`, `2 workers`: a worker count as the benchmarks print it. */
export function workersText(workers: number): string {
  return `${workers} worker${workers === 1 ? '' : 's'}`;
}

/** A report of the Resize view: one algorithm, one resize, a key set of `count` keys. */
export interface ReportCase {
  name: string;
  algo: string;
  from: number;
  to: number;
  keys: string;
  /** The key count the view shows once the report is in (total-keys). */
  count: string;
}

/** A report's times (ms): from typing its keys to the screen, and from its start (`jumphash:report`) to the screen and to its reply. */
export interface Times {
  typed: number;
  report: number;
  reply: number;
}

/**
 * One report's time from its reply to the screen, in two parts (ms): the
 * view's drawing script, from the reply to the count in the document, and
 * the wait from there to the next animation frame.
 */
export interface AfterReply {
  render: number;
  frame: number;
}

/**
 * The keys each worker counted in a split report (the User Timing mark
 * `jumphash:split` of engine/splitReport.ts), null when the report did not
 * split. A pair of workers counts toward each other until they meet, so
 * two workers' keys far apart mean one ran slower than the other.
 */
export interface Split {
  keysCounted: number[] | null;
}

/**
 * A page of the Resize view with `workers` workers (?workers=N), showing
 * `c` over keys 0..99, its workers started; `path`: where the build is
 * served (a build of builds.bench.ts: `./ab/<name>/`).
 */
export async function openPage(context: BrowserContext, c: ReportCase, workers: number, path = './'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${path}?workers=${workers}#view=resize&algo=${c.algo}&from=${c.from}&to=${c.to}&keys=0..99`);
  await expect(page.getByTestId('total-keys')).toHaveText('100');
  await page.waitForTimeout(2000); // the workers start
  return page;
}

/**
 * ms from typing the keys of `c` into `page` to its report on screen, and
 * from the report's start (the User Timing mark `jumphash:report` that
 * engine.reports sets after the view's input debounce) to the same frame.
 */
export async function reportMs(page: Page, c: ReportCase): Promise<Times & AfterReply & Split> {
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
    performance.clearMarks('jumphash:split');
    return performance.now();
  });
  await page.locator('textarea[name="keys"]').fill(c.keys);
  const [inDocumentAt, shownAt] = await shown;
  const [reportAt, replyAt, keysCounted] = await page.evaluate(() => {
    const last = (name: string) => performance.getEntriesByName(name).at(-1) as PerformanceMark | undefined;
    const split = last('jumphash:split')?.detail as { keys: number[] } | undefined;
    return [last('jumphash:report')?.startTime ?? NaN, last('jumphash:reply')?.startTime ?? NaN, split?.keys ?? null] as const;
  });
  return {
    typed: Math.round(shownAt - started),
    report: Math.round(shownAt - reportAt!),
    reply: Math.round(replyAt! - reportAt!),
    render: inDocumentAt - replyAt!,
    frame: shownAt - inDocumentAt,
    keysCounted,
  };
}

/**
 * CPU time (ms, each thread's own clock) that the page's threads spent on
 * one report, in their tasks that ran between its start (`jumphash:report`)
 * and its reply, each task counted whole: each worker that ran, in the
 * order Chromium lists them, and the page's main thread (whose tasks
 * include the one that starts the report, begun before the mark, and the
 * one that takes the reply and draws it, after the workers are done).
 * Wall time counts the time a thread waited for a core; CPU time does
 * not, so two workers whose CPU times add up to more than one worker's
 * for the same keys ran each key slower, whatever the page did.
 */
export interface ThreadCpu {
  workers: number[];
  /**
   * Per worker (as `workers`), ms its tasks ran without a core (their wall
   * time less their CPU time: the thread was ready but another thread had
   * the core), and ms it had no task at all (waiting for a message: the
   * report's start, a grant, the merge). With its CPU time, these add up
   * to `window`.
   */
  waited: number[];
  idle: number[];
  /** ms from the report's start to its reply. */
  window: number;
  main: number;
  /** Every other thread of the browser: V8's background threads (its GC, its compiler), the compositor, the browser and GPU processes. */
  others: number;
}

/** The CPU time (ms) of a traced report's workers, all together. */
export function workersCpuMs(cpu: ThreadCpu): number {
  return cpu.workers.reduce((a, b) => a + b, 0);
}

/** A thread's top-level task: on threads with a message loop, and on the thread pool's. */
const TASKS = new Set(['ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

/** Trace events this reads: a task's wall (`dur`) and CPU (`tdur`) time, in µs, and the threads' names. */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Times one more report of `c` on `page` (reportMs) under a Chromium trace
 * of its threads' tasks (the `toplevel` category, whose task events carry
 * their CPU time), and sums each thread's task CPU time within the report.
 */
export async function threadCpuMs(page: Page, c: ReportCase): Promise<ThreadCpu> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  // The protocol types each event as a map of strings; they are objects of numbers and strings.
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'toplevel,blink.user_timing', transferMode: 'ReportEvents' });
  await reportMs(page, c);
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const threadName = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const at = (mark: string) => Math.max(...events.filter((e) => e.name === mark).map((e) => e.ts));
  const [from, to] = [at('jumphash:report'), at('jumphash:reply')];
  const cpu = new Map<string, number>();
  /** Each thread's task wall time, cut at the window. */
  const busy = new Map<string, number>();
  for (const e of events) {
    // A task that started before the report counts only if it ran into it; tdur is the task's CPU time, not cut at the window.
    if (e.ph !== 'X' || !TASKS.has(e.name) || e.ts > to || e.ts + (e.dur ?? 0) < from) continue;
    const thread = `${e.pid}:${e.tid}`;
    cpu.set(thread, (cpu.get(thread) ?? 0) + (e.tdur ?? 0) / 1000);
    busy.set(thread, (busy.get(thread) ?? 0) + (Math.min(to, e.ts + (e.dur ?? 0)) - Math.max(from, e.ts)) / 1000);
  }
  const named = (name: string) => [...cpu].filter(([thread]) => threadName.get(thread) === name);
  const sum = (ms: number[]) => ms.reduce((a, b) => a + b, 0);
  const workerThreads = named('DedicatedWorker thread');
  const ran = workerThreads.filter(([, ms]) => ms >= 1);
  const window = (to - from) / 1000;
  const main = sum(named('CrRendererMain').map(([, ms]) => ms));
  return {
    workers: ran.map(([, ms]) => ms),
    // A task's wall time cut at the window, against its CPU time that is not: at least 0.
    waited: ran.map(([thread, ms]) => Math.max(0, busy.get(thread)! - ms)),
    idle: ran.map(([thread]) => Math.max(0, window - busy.get(thread)!)),
    window,
    main,
    others: sum([...cpu.values()]) - sum(workerThreads.map(([, ms]) => ms)) - main,
  };
}

/**
 * One vCPU's time (ms): all of it, and its steal, the part the host ran
 * something else on its core while the vCPU was ready to run. A guest
 * thread's CPU time (threadCpuMs) leaves steal out; its wall time does not.
 */
export interface CpuTime {
  total: number;
  steal: number;
}

/** Ticks of /proc/stat's clock per second (USER_HZ, 100 on every Linux this runs on). */
const USER_HZ = 100;

/**
 * Each vCPU's time so far, from Linux's /proc/stat (in 10 ms ticks); empty
 * off Linux. The difference of two readings (cpuTimesSince) over a
 * report's rounds says how much of them the host took from the guest.
 */
export function readCpuTimes(): CpuTime[] {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return [];
  }
  const times: CpuTime[] = [];
  // cpuN user nice system idle iowait irq softirq steal guest guest_nice; guest time is inside user's.
  for (const match of stat.matchAll(/^cpu\d+ (.*)$/gm)) {
    const fields = match[1]!.trim().split(/\s+/).map(Number).slice(0, 8);
    const ms = (ticks: number) => (ticks * 1000) / USER_HZ;
    times.push({ total: ms(fields.reduce((a, b) => a + b, 0)), steal: ms(fields[7] ?? 0) });
  }
  return times;
}

/** `after` less `before`, per vCPU (readCpuTimes). */
export function cpuTimesSince(before: CpuTime[], after: CpuTime[]): CpuTime[] {
  return after.map((a, i) => ({ total: a.total - (before[i]?.total ?? 0), steal: a.steal - (before[i]?.steal ?? 0) }));
}
