import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliStdout } from './helpers';

// The page under pressure: a 50 MB output file and a 10^6-line one in "Check
// my output", 10^6 keys pasted into Resize, typing in a 10^5-key box. Large
// text is never poured into a text box (a summary stands in for it), the
// work happens in workers, and the main thread is never blocked for more
// than 100 ms at a time (Long Tasks API). Checks run in a lane of their own:
// Compute answers while one runs, Cancel stops it, and a check started
// before a view switch runs on and shows its result when the student comes back.

test.setTimeout(240_000);
// No trace: its DOM snapshots run in the page's main thread and would be
// counted as the page's long tasks. For the same reason, while long tasks are
// counted, elements are found by test id (getByLabel and getByRole compute
// accessible names over the whole page, in its main thread).
test.use({ trace: 'off' });

/** Longest a main-thread task may take. */
const LONG_TASK_MS = 100;

async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[]; slowEvents: { name: string; duration: number }[] };
    w.longTasks = [];
    w.slowEvents = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    // Event Timing: each input event from the key press to the next paint.
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.slowEvents.push({ name: entry.name, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
}

/** Long tasks since `from` (an index into the list). */
async function longTasksFrom(page: Page, from: number): Promise<number[]> {
  return page.evaluate((start) => (window as unknown as { longTasks: number[] }).longTasks.slice(start), from);
}

async function longTaskMark(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.length);
}

/**
 * Waits until the page has been quiet (no long task) for a second, so that
 * what is measured next is the case itself, not the view still starting
 * (its editors parse their text in idle time, which a busy machine
 * stretches past 100 ms).
 */
async function waitForQuiet(page: Page): Promise<void> {
  for (let tries = 0; tries < 20; tries++) {
    const before = await longTaskMark(page);
    await page.waitForTimeout(1000);
    if ((await longTaskMark(page)) === before) return;
  }
  throw new Error('the page never went a second without a long task');
}

async function expectNoLongTask(page: Page, mark: number, what: string): Promise<void> {
  const tasks = await longTasksFrom(page, mark);
  expect(tasks.filter((duration) => duration > LONG_TASK_MS), `long tasks ${what}: ${tasks.map((d) => Math.round(d)).join(', ')}`).toEqual([]);
}

// ---- Check my output ----

/** 10^6 lines of `jumphash` output (about 24 MB): the checker's largest. */
const MILLION_SCRIPT = 'KEYS random:1000000:7\nBUCKETS 1000\n';
let millionFile = '';

/** The CLI's output of MILLION_SCRIPT with line 11 in the wrong format and line 500,000 a wrong value. */
function millionLineFile(): string {
  if (millionFile) return millionFile;
  const lines = cliStdout(MILLION_SCRIPT).split('\n');
  expect(lines.length).toBe(1_000_001); // the last line ends with '\n'
  lines[10] = lines[10]!.replace(': ', ':\t');
  lines[499_999] = lines[499_999]!.replace(/: \d+$/, ': 1001'); // BUCKETS 1000 never prints 1001
  millionFile = test.info().outputPath('million-lines.output');
  writeFileSync(millionFile, lines.join('\n'));
  return millionFile;
}

async function openConsole(page: Page, script: string): Promise<void> {
  await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
  // The console runs the script first: wait for it, so that only the check is measured.
  await expect(page.locator('.status')).toHaveText(/^Exit status 0/, { timeout: 120_000 });
  await expect(page.getByTestId('check')).toBeVisible();
}

test('a 50 MB output file: a summary instead of the text, the checker’s answer, no long task', async ({ page }, testInfo) => {
  await watchLongTasks(page);
  // 4,700,000 lines: more than the checker compares (10^6), which it says.
  const script = 'KEYS 0..4699999\nBUCKETS 10\n';
  const output = cliStdout(script);
  expect(output.length).toBeGreaterThan(50_000_000);
  const file = testInfo.outputPath('fifty-megabytes.output');
  writeFileSync(file, output);
  await page.goto(`./#view=exercise&script=${encodeURIComponent('HASH 42 100\n')}`);
  await expect(page.getByTestId('exercise-output')).toHaveText('42: 43\n');
  await waitForQuiet(page);
  const mark = await longTaskMark(page);
  const started = Date.now();
  await page.getByTestId('check-file').setInputFiles(file);
  const summary = page.getByTestId('check-output-summary');
  await expect(summary).toBeVisible();
  await expect(page.getByTestId('check-output')).toBeHidden();
  await expect(page.getByTestId('check-output-summary-text')).toHaveText(/^fifty-megabytes\.output: 4,700,000 lines, 5\d\.\d MB$/);
  // Against HASH 42 100 the output has far too many lines: the checker says so, next to the box.
  await expect(page.locator('.checker .field-error[data-testid="error"]')).toHaveText(
    'the output to check has more than 1000000 lines; the checker compares at most that many',
    { timeout: 60_000 },
  );
  testInfo.annotations.push({ type: '50 MB file to answer', description: `${Date.now() - started} ms` });
  await expect(page.getByTestId('check-status')).toHaveCount(0);
  await page.waitForTimeout(500);
  await expectNoLongTask(page, mark, 'checking a 50 MB file');
  // The text stays in memory: Download gives it back whole.
  const download = page.waitForEvent('download');
  await page.getByTestId('check-output-summary-download').click();
  const saved = await (await download).path();
  expect(statSync(saved).size).toBe(Buffer.byteLength(output));
});

test('10^6 output lines: a summary, the verdicts of the wrong lines, no long task', async ({ page }, testInfo) => {
  const file = millionLineFile();
  await watchLongTasks(page);
  await openConsole(page, MILLION_SCRIPT);
  await waitForQuiet(page);
  const mark = await longTaskMark(page);
  const started = Date.now();
  await page.getByTestId('check-file').setInputFiles(file);
  await expect(page.getByTestId('check-output-summary-text')).toHaveText(/^million-lines\.output: 1,000,000 lines, 2\d\.\d MB$/);
  await expect(page.getByTestId('check-summary')).toHaveText('✗ checked: 999,998 of 1,000,000 lines match', { timeout: 180_000 });
  testInfo.annotations.push({ type: '10^6-line check', description: `${Date.now() - started} ms` });
  await expect(page.getByTestId('check-counts')).toHaveText('1 wrong format · 1 wrong value');
  await expect(page.getByTestId('check-line-11')).toHaveAttribute('data-verdict', 'wrong-format');
  await expect(page.getByTestId('check-line-500000')).toHaveAttribute('data-verdict', 'wrong-value');
  // Only the differences and their context are laid out.
  await expect(page.locator('.check-line')).toHaveCount(10);
  await expect(page.locator('.check-gap').first()).toContainText('matching lines not shown');
  await page.waitForTimeout(1000);
  await expectNoLongTask(page, mark, 'checking 10^6 lines');
});

test('Compute answers while a check runs; a view switch keeps the check, whose result shows on return', async ({ page }) => {
  const file = millionLineFile();
  await watchLongTasks(page);
  await openConsole(page, MILLION_SCRIPT);
  await page.getByTestId('check-file').setInputFiles(file);
  await expect(page.getByTestId('check-status')).toHaveText(/^Checking 1,000,000 lines…$/);
  await expect(page.getByTestId('check-cancel')).toBeVisible();
  // Another view while it runs: Compute's own lane answers at once.
  await page.getByTestId('tab-compute').click();
  const key = page.locator('input[name="key"]');
  await key.fill('42');
  await page.locator('input[name="n"]').fill('100');
  const asked = Date.now();
  await expect(page.getByTestId('bucket-jump')).toHaveText('43', { timeout: 5_000 });
  await key.fill('18446744073709551615');
  await expect(page.getByTestId('bucket-jump')).toHaveText('92', { timeout: 5_000 });
  expect(Date.now() - asked).toBeLessThan(5_000);
  // Back: the check is still running (or has just finished), and its result comes.
  await page.getByTestId('tab-exercise').click();
  await expect(page.getByTestId('check-output-summary-text')).toHaveText(/^million-lines\.output: 1,000,000 lines/);
  const status = page.getByTestId('check-status');
  const summary = page.getByTestId('check-summary');
  await expect(status.or(summary)).toBeVisible();
  if (await status.isVisible()) await expect(status).toContainText('the check you started before leaving this view runs on');
  await expect(summary).toHaveText('✗ checked: 999,998 of 1,000,000 lines match', { timeout: 180_000 });
  await expect(page.getByTestId('check-line-500000')).toHaveAttribute('data-verdict', 'wrong-value');
  // Shown once: another round trip does not show it again as new.
  await page.getByTestId('tab-compute').click();
  await page.getByTestId('tab-exercise').click();
  await expect(page.getByTestId('check')).toBeVisible();
  await expect(page.getByTestId('check-summary')).toHaveCount(0);
});

test('Cancel stops a check: its worker is terminated and the next check answers at once', async ({ page }) => {
  const file = millionLineFile();
  await openConsole(page, MILLION_SCRIPT);
  await page.getByTestId('check-file').setInputFiles(file);
  await expect(page.getByTestId('check-status')).toHaveText(/^Checking/);
  await page.waitForTimeout(1000);
  await page.getByTestId('check-cancel').click();
  await expect(page.getByTestId('check-status')).toHaveText(/^The check was cancelled/);
  await expect(page.getByTestId('check-cancel')).toBeHidden();
  await expect(page.getByTestId('check-summary')).toHaveCount(0);
  // Another script and its output: were the cancelled check still running
  // in that worker, this one would wait behind it for many seconds.
  const script = '# Growing 10 -> 12 moves about 1/6 of the keys, all to buckets 10 and 11.\nKEYS 0..9999\nMOVED 10 12\nLOAD 12\n';
  await page.getByLabel('Preset').selectOption({ label: '10 → 12 buckets on 10,000 keys' });
  await expect(page.getByTestId('exercise-output')).toContainText('moved: 1653 of 10000');
  await page.getByTestId('check-output-summary-clear').click();
  await expect(page.getByTestId('check-output')).toBeVisible();
  await page.getByTestId('check-output').fill(cliStdout(script));
  const asked = Date.now();
  await page.getByTestId('check').click();
  await expect(page.getByTestId('check-summary')).toHaveText('✓ checked: 1,666 of 1,666 lines match', { timeout: 8_000 });
  expect(Date.now() - asked).toBeLessThan(8_000);
});

// ---- Resize: pasted keys ----

/** `count` distinct keys of 11 digits, one a line (12 bytes a key: 10^6 keys are 12 MB). */
function keyList(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(10_000_000_000 + i * 7919));
}

/** Pastes `text` into the focused box through the clipboard, as Ctrl+V does. */
async function pasteText(page: Page, selector: string, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.locator(selector).focus();
  await page.keyboard.press('Control+V');
}

/**
 * Milliseconds Chromium itself takes to hand a paste of the clipboard's text
 * to the page (ClipboardEvent.clipboardData.getData, a synchronous read of
 * the system clipboard, which a native paste makes too), measured on a box
 * of the test's own.
 */
async function clipboardReadMs(page: Page): Promise<number> {
  await page.evaluate(() => {
    const probe = document.createElement('textarea');
    probe.id = 'clipboard-probe';
    probe.addEventListener('paste', (event) => {
      event.preventDefault();
      const started = performance.now();
      event.clipboardData?.getData('text/plain');
      (window as unknown as { clipboardReadMs: number }).clipboardReadMs = performance.now() - started;
      probe.remove();
    });
    document.body.append(probe);
  });
  await page.locator('#clipboard-probe').focus();
  await page.keyboard.press('Control+V');
  return page.evaluate(() => (window as unknown as { clipboardReadMs: number }).clipboardReadMs);
}

test('10^6 keys pasted into Resize: a summary, the exact result, no long task', async ({ page }, testInfo) => {
  const keys = keyList(1_000_000);
  const text = `${keys.join('\n')}\n`;
  const moved = /moved: (\d+) of 1000000/.exec(cliStdout(`KEYS ${keys.join(' ')}\nMOVED 10 12\n`))?.[1];
  expect(moved).toBeDefined();
  await watchLongTasks(page);
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  // What a real Ctrl+V costs before the page sees the text (not the page's to avoid): reported, not checked.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  testInfo.annotations.push({ type: 'Chromium’s clipboard read of 12 MB', description: `${Math.round(await clipboardReadMs(page))} ms` });
  // The paste as the page receives it: a paste event whose data holds the text.
  await page.locator('textarea[name="keys"]').fill('');
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    (window as unknown as { pasted: DataTransfer }).pasted = data;
  }, text);
  await waitForQuiet(page);
  const mark = await longTaskMark(page);
  const started = Date.now();
  const inserted = await page.locator('textarea[name="keys"]').evaluate((box) => {
    box.focus();
    const event = new ClipboardEvent('paste', { clipboardData: (window as unknown as { pasted: DataTransfer }).pasted, bubbles: true, cancelable: true });
    box.dispatchEvent(event);
    return !event.defaultPrevented;
  });
  expect(inserted, 'the page takes the paste over: the browser does not insert it').toBe(false);
  await expect(page.getByTestId('keys-summary')).toBeVisible();
  await expect(page.locator('textarea[name="keys"]')).toBeHidden();
  await expect(page.getByTestId('keys-summary-text')).toHaveText('1,000,000 keys pasted, 12.0 MB', { timeout: 60_000 });
  await expect(page.getByTestId('total-keys')).toHaveText('1000000', { timeout: 120_000 });
  await expect(page.getByTestId('moved-jump')).toHaveText(moved!);
  testInfo.annotations.push({ type: '10^6 keys, paste to result', description: `${Date.now() - started} ms` });
  await page.waitForTimeout(1500); // the charts and the moved-keys table
  await expectNoLongTask(page, mark, 'pasting 10^6 keys');
  // The box holds nothing; the text is in memory and comes back whole.
  expect(await page.locator('textarea[name="keys"]').inputValue()).toBe('');
  const download = page.waitForEvent('download');
  await page.getByTestId('keys-summary-download').click();
  expect(readFileSync(await (await download).path(), 'utf8')).toBe(text);
  // Clear gives the empty box back.
  await page.getByTestId('keys-summary-clear').click();
  await expect(page.locator('textarea[name="keys"]')).toBeVisible();
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
});

test('a resize from 10^6 buckets: the exact result, its flow balance in columns, no long task', async ({ page }, testInfo) => {
  // 10^6 -> 4 buckets keeps its flow matrix (4 x 10^6 cells, at the limit),
  // so the report holds a flow balance for each of 10^6 sources. As objects
  // (one per source) and a label string per bucket, copying the reply to the
  // page and drawing its cards blocked the main thread for 0.75-1.1 s; in
  // columns (the package's FlowBalanceColumns) and with labels made when
  // asked, the longest task here was 70-104 ms, most of it the loads chart
  // grouping a copy of the 4 loads after padded to 10^6 (24-32 ms); grouped
  // without the copy (ui/loadBins.ts), 52-64 ms.
  const moved = /moved: (\d+) of 10000/.exec(cliStdout('ALGO jump\nKEYS 0..9999\nMOVED 1000000 4\n'))?.[1];
  expect(moved).toBeDefined();
  await watchLongTasks(page);
  await page.goto('./#view=resize&algo=jump&from=1000000&to=4&keys=0..99');
  await expect(page.getByTestId('total-keys')).toHaveText('100', { timeout: 60_000 });
  await waitForQuiet(page);
  const mark = await longTaskMark(page);
  const started = Date.now();
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await expect(page.getByTestId('total-keys')).toHaveText('10000', { timeout: 60_000 });
  await expect(page.getByTestId('moved-jump')).toHaveText(moved!);
  testInfo.annotations.push({ type: '10^6 -> 4 buckets over 10,000 keys, typing to result', description: `${Date.now() - started} ms` });
  await expect(page.getByText(/Largest per-source chi-square: [\d.]+ on 3 degrees of freedom/)).toBeVisible();
  await page.waitForTimeout(1500); // the charts
  await expectNoLongTask(page, mark, 'reporting a resize from 10^6 buckets');
});

test('typing in a 10^5-key box stays under 100 ms a key', async ({ page }, testInfo) => {
  const keys = keyList(100_000);
  await watchLongTasks(page);
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  await page.locator('textarea[name="keys"]').fill('');
  await pasteText(page, 'textarea[name="keys"]', keys.join('\n'));
  await expect(page.getByTestId('keys-summary-text')).toHaveText('100,000 keys pasted, 1.2 MB');
  await expect(page.getByTestId('total-keys')).toHaveText('100000', { timeout: 60_000 });
  // The student asks to edit the list as text (an editor that lays out only the lines in view), then types.
  await page.getByTestId('keys-summary-edit').click();
  const editor = page.getByTestId('keys-summary-editor').locator('.cm-content');
  await expect(editor).toBeVisible({ timeout: 60_000 });
  await expect(editor).toBeFocused();
  await expect(page.getByTestId('keys-summary')).toBeHidden();
  await waitForQuiet(page);
  const mark = await longTaskMark(page);
  await page.evaluate(() => {
    (window as unknown as { slowEvents: unknown[] }).slowEvents.length = 0;
  });
  await page.keyboard.press('Control+End');
  const typed = ' 7 8 9';
  const times: number[] = [];
  for (const char of typed) {
    const before = Date.now();
    await page.keyboard.type(char);
    times.push(Date.now() - before);
    await page.waitForTimeout(120); // typing speed: faster than the rerun's pause
  }
  // The report runs again with the three new keys.
  await expect(page.getByTestId('total-keys')).toHaveText('100003', { timeout: 60_000 });
  await page.waitForTimeout(1000);
  const slow = await page.evaluate(() => (window as unknown as { slowEvents: { name: string; duration: number }[] }).slowEvents);
  testInfo.annotations.push({ type: 'keystrokes (ms)', description: `round trips ${times.join(', ')}; input events over 16 ms: ${slow.map((e) => `${e.name} ${Math.round(e.duration)}`).join(', ') || 'none'}` });
  expect(slow.filter((event) => event.duration > LONG_TASK_MS), 'input events over 100 ms').toEqual([]);
  await expectNoLongTask(page, mark, 'typing in a 10^5-key box');
  // The editor holds what was typed, at the end of the list.
  await expect(page.getByTestId('keys-summary-editor').locator('.cm-line').last()).toHaveText(`${keys.at(-1)} 7 8 9`);
});
