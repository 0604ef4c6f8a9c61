import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * The page's progress panel (web/src/ui/controls.ts, progressPanel): its
 * bar, and its text ("25.0% · 3 of 12 claims · …", then the closing
 * message).
 */
export function progressPanel(page: Page): { bar: Locator; text: Locator } {
  const panel = page.getByTestId('progress');
  return { bar: panel.locator('progress'), text: panel.locator('.progress-text') };
}

/** Console errors and uncaught exceptions (CSP violations land here too). */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Attaches a full-page screenshot to the report and saves it for a look. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const body = await page.screenshot({ fullPage: true, path: `${SCREENSHOT_DIR}${name}.png` });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** No serious or critical axe-core violations. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(
    bad.map((v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`),
    `axe violations on ${name}`,
  ).toEqual([]);
}

/** Waits until the page's views have rendered their results. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => {
    const progress = document.querySelector('[data-testid="progress"]') as HTMLElement | null;
    const cancel = document.querySelector('[data-testid="cancel"]') as HTMLElement | null;
    // A run shows its panel only once it has run 200 ms (BUSY_SHOWN_AFTER_MS);
    // its results are aria-busy from the start.
    const running = document.querySelector('.results[aria-busy="true"]');
    return !running && (!progress || progress.hidden || !cancel || cancel.hidden);
  });
  // Charts draw one a task after the report shows (figure()): wait for
  // them, then for a frame that paints them.
  await chartsDrawn(page);
  await twoFrames(page);
}

/** Waits for two animation frames of `page`: whatever the frame before them changed is painted, and observers it woke have run. */
export async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

// The native CLI: the exercise console must print exactly what it prints.
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = process.env['JUMPHASH_CLI'] ?? `${ROOT}build/native/jumphash`;

export function cliStdout(script: string): string {
  if (!existsSync(CLI)) {
    throw new Error(
      `The native CLI is not at ${CLI}: build it first (cmake --preset native && cmake --build --preset native --target jumphash) or set JUMPHASH_CLI.`,
    );
  }
  try {
    return execFileSync(CLI, ['-'], { input: script, encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (error) {
    // Exit status 1 (a failing line) still prints the other lines' output.
    const failed = error as { status?: number; stdout?: string };
    if (failed.status === 1 && typeof failed.stdout === 'string') return failed.stdout;
    throw error;
  }
}


// The checker's golden inputs and transcripts (tests/check/, made by the CLI).
export const CHECK_DIR = `${ROOT}tests/check/`;

export function checkFile(name: string): string {
  return readFileSync(`${CHECK_DIR}${name}`, 'utf8');
}

const VERDICT_IDS: Record<string, string> = {
  'wrong value': 'wrong-value',
  'wrong format': 'wrong-format',
  'missing line': 'missing',
  'extra line': 'extra',
  'out of order': 'out-of-order',
};

export interface TranscriptLine {
  /** `check-line-<expected>` or `check-extra-<actual>`: the page's test id of the line. */
  testid: string;
  verdict: string;
  /** Diagnosis identifiers, in the report's order. */
  ids: string[];
}

/**
 * Reads a `jumphash check` transcript (tests/check/*.stdout): each line that
 * is not a match with its verdict and its diagnosis identifiers, and the
 * summary line. The page must show the same, line by line.
 */
export function parseCheckTranscript(text: string): { lines: TranscriptLine[]; summary: string } {
  const lines: TranscriptLine[] = [];
  let summary = '';
  for (const row of text.split('\n')) {
    const head = /^(expected|actual) line (\d+) \(.*\): (wrong value|wrong format|missing line|extra line|out of order)/.exec(row);
    if (head) {
      lines.push({
        testid: head[1] === 'expected' ? `check-line-${head[2]}` : `check-extra-${head[2]}`,
        verdict: VERDICT_IDS[head[3]!]!,
        ids: [],
      });
      continue;
    }
    const diagnosis = /^ {2}([a-z0-9]+(?:-[a-z0-9]+)+): /.exec(row);
    if (diagnosis && lines.length) lines[lines.length - 1]!.ids.push(diagnosis[1]!);
    if (row.startsWith('checked: ')) summary = row;
  }
  return { lines, summary };
}

/**
 * Waits until every chart on the page is drawn (figure() draws them one a
 * task after the report shows): a long-task log started later measures
 * what the test does next, not the drawing of the page it started from.
 */
export async function chartsDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((chart) => chart.childElementCount > 0));
}

/** A main-thread task the Long Tasks API reported: when (ms after `startLongTaskLog`) and how long. */
export interface LongTask {
  at: number;
  ms: number;
}

/**
 * Starts recording the page's long tasks (over 50 ms), and for each
 * animation frame over 100 ms what ran in it (Long Animation Frames API:
 * the scripts by entry point, and the rendering), so that a failure says
 * what was long, not only how long.
 */
export async function startLongTaskLog(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Frame = PerformanceEntry & { styleAndLayoutStart: number; scripts: { invoker: string; sourceFunctionName: string; duration: number }[] };
    type Log = { t0: number; tasks: LongTask[]; frames: string[]; observer: PerformanceObserver; add: (entries: PerformanceEntryList) => void };
    const w = window as unknown as { longTaskLog: Log };
    const log = { t0: performance.now(), tasks: [], frames: [] } as unknown as Log;
    const since = (t: number) => Math.round(t - log.t0);
    log.add = (entries) => {
      for (const entry of entries) {
        if (entry.entryType === 'longtask') {
          log.tasks.push({ at: since(entry.startTime), ms: Math.round(entry.duration) });
        } else if (entry.duration > 100 && entry.startTime + entry.duration > log.t0) {
          const frame = entry as Frame;
          const scripts = frame.scripts.map((s) => `${s.invoker} ${s.sourceFunctionName || '(anonymous)'} ${Math.round(s.duration)} ms`);
          const layout = frame.styleAndLayoutStart ? Math.round(frame.startTime + frame.duration - frame.styleAndLayoutStart) : 0;
          log.frames.push(`a frame at ${since(frame.startTime)} ms took ${Math.round(frame.duration)} ms: ${scripts.join('; ') || 'no script'}; style, layout and paint ${layout} ms`);
        }
      }
    };
    log.observer = new PerformanceObserver((list) => log.add(list.getEntries()));
    log.observer.observe({ type: 'longtask' });
    log.observer.observe({ type: 'long-animation-frame' });
    w.longTaskLog = log;
  });
}

/** Stops the log: every long task, and a description for an assertion's message. */
export async function stopLongTaskLog(page: Page): Promise<{ tasks: LongTask[]; described: string }> {
  const { tasks, frames } = await page.evaluate(() => {
    type Log = { tasks: LongTask[]; frames: string[]; observer: PerformanceObserver; add: (entries: PerformanceEntryList) => void };
    const log = (window as unknown as { longTaskLog: Log }).longTaskLog;
    log.add(log.observer.takeRecords()); // entries not yet delivered count too
    log.observer.disconnect();
    return { tasks: log.tasks, frames: log.frames };
  });
  const described = `long tasks (at: duration, ms): ${tasks.map((t) => `${t.at}: ${t.ms}`).join(', ') || 'none'}. ${frames.join('. ')}`;
  return { tasks, described };
}
