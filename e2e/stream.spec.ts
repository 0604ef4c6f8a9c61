import { statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cliStdout, startLongTaskLog, stopLongTaskLog } from './helpers';

// The console's output streams from the worker (the package's runStream):
// a script whose output has no end in sight shows its first lines at once,
// keeps the page responsive, stops at the stated limit with a message that
// says how to get the rest, and Download saves everything up to the limit.

const HUGE = 'KEYS 0..199999999\nBUCKETS 10\n'; // 2*10^8 lines, about 2.3 GB
const STREAM_LIMIT = 268435456; // stream-output-bytes (README, Limits)
// No trace: its DOM snapshots run in the page's main thread and would be
// counted as the page's own long tasks (as in pressure.spec.ts).
test.use({ trace: 'off' });

test('a 2*10^8-line script: first lines at once, the limit named, a complete download, a usable tab', async ({ page }) => {
  test.setTimeout(180_000);
  // The page first loads completely (console, workspace, editors) on a small script.
  await page.goto(`./#view=exercise&script=${encodeURIComponent('HASH 42 100\n')}`);
  await expect(page.getByTestId('exercise-output')).toHaveText('42: 43\n');
  await expect(page.getByTestId('student-editor')).toBeVisible();
  await page.waitForTimeout(1000);
  // While the huge output streams, the main thread never runs a task over 100 ms.
  await startLongTaskLog(page);
  await page.getByTestId('script-editor').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(HUGE);
  await page.getByTestId('run').click();
  // The first lines, before the run ends.
  const first = cliStdout('KEYS 0..19\nBUCKETS 10\n');
  await expect(page.getByTestId('exercise-output')).toContainText(first.slice(0, 60));
  const status = page.locator('.status');
  await expect(status).toContainText('Exit status 1', { timeout: 150_000 });
  const longTasks = await stopLongTaskLog(page);
  expect(longTasks.tasks.filter((task) => task.ms > 100), longTasks.described).toEqual([]);
  await expect(status).toContainText("stopped at the page's limit of 268,435,456 bytes (stream-output-bytes)");
  await expect(status).toContainText('jumphash script.txt > output.txt');
  await expect(page.getByTestId('error')).toContainText('the output passed this run');
  // Kept in the page: the first megabyte, laid out only where it is in view.
  await expect(page.getByText(/The output has [\d,]+ characters; the first 1,048,576 are shown/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Output', exact: true })).toHaveAttribute('aria-busy', 'false');
  const top = (await page.getByTestId('exercise-output').textContent()) ?? '';
  expect(top.split('\n').length).toBeLessThan(3000);
  expect(cliStdout('KEYS 0..2999\nBUCKETS 10\n').startsWith(top)).toBe(true);
  // Download: every byte up to the limit, ending with a whole line.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-output').click()]);
  const size = statSync(await download.path()).size;
  expect(size).toBeLessThanOrEqual(STREAM_LIMIT);
  expect(size).toBeGreaterThan(STREAM_LIMIT - 20);
  // The tab answers.
  await page.getByTestId('tab-compute').click();
  await expect(page.getByTestId('bucket-jump')).toHaveText(/^\d+$/);
});

test('an embedded console does bounded work before a click, then Run all of it', async ({ page }) => {
  test.setTimeout(120_000);
  const script = 'KEYS 0..99999999\nLOAD 10\n'; // 10^8 lookups, ten lines
  await page.goto(`./embed.html#view=exercise&script=${encodeURIComponent(script)}`);
  const status = page.locator('.status').first();
  await expect(status).toContainText('Exit status 1', { timeout: 60_000 });
  await expect(status).toContainText('An embedded console computes at most 10,000,000 lookups before a click');
  const runAll = page.getByTestId('run-all');
  await expect(runAll).toBeVisible();
  await runAll.click();
  await expect(status).toContainText('Exit status 0', { timeout: 100_000 });
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout('KEYS 0..99999999\nLOAD 10\n'));
  await expect(runAll).toBeHidden();
});
