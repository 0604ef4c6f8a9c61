import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ROOT, cliStdout, watchConsole } from './helpers';

// The three example links, exactly as written there, and the
// exercise console's output against the native CLI's stdout, byte for byte.

test('compute example: 2^64-1 among 100 buckets is 92 (jump) and 73 (jumpback)', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100');
  await expect(page.getByTestId('bucket-jump')).toHaveText('92');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('73');
  await expect(page.getByTestId('key-value')).toHaveText('18446744073709551615');
  await expect(page.getByTestId('bucket-modulo')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('resize example: 10 -> 12 on 0..9999 moves 1653 of 10000 keys', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await expect(page.getByTestId('total-keys')).toHaveText('10000');
  // The moved-key list speaks the CLI's format.
  await expect(page.getByTestId('moved-list-jump').locator('tbody tr').first()).toHaveText(/^\d+: \d+ -> 1[01]$/);
});

const SCRIPTS: Record<string, string> = {
  'the exercise file': readFileSync(`${ROOT}examples/exercise.txt`, 'utf8'),
  'every error of the language': readFileSync(`${ROOT}tests/cli/errors.script`, 'utf8'),
  'key forms and reports': readFileSync(`${ROOT}tests/cli/keys.script`, 'utf8'),
  'strings, CRLF and algorithms': 'ALGO jumpback-indep\r\nHASH "alice" 100\r\nKEYS "a" "b" 0..20 random:5:9\r\nMOVED 16 4\r\nALGO MODULO\r\nTRACE 7 30\r\nLOAD 3\r\n',
};

for (const [name, script] of Object.entries(SCRIPTS)) {
  test(`exercise example: output equals the CLI's stdout (${name})`, async ({ page }) => {
    const expected = cliStdout(script);
    expect(expected.length).toBeGreaterThan(0);
    await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
    const output = page.getByTestId('exercise-output');
    await expect(output).not.toBeEmpty();
    expect(await output.textContent()).toBe(expected);
  });
}

test('the example links on each view load their scenario', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=1&n=2');
  await page.getByRole('link', { name: 'the largest key (the 64-bit trap)' }).click();
  await expect(page.getByTestId('bucket-jump')).toHaveText('92');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('73');
  await page.getByTestId('tab-resize').click();
  await page.getByRole('link', { name: '10 → 12 (the paper’s example)' }).click();
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await expect(page.getByTestId('moved-modulo')).toHaveText(/^\d+$/);
  await page.getByRole('link', { name: 'a chain 10, 12, 11, 16' }).click();
  await expect(page.getByTestId('moved-jump-2')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('total-keys')).toHaveText('100000');
});

test('exercise presets run and Ctrl+Enter runs the edited script', async ({ page }) => {
  await page.goto('./#view=exercise&script=' + encodeURIComponent('HASH 1 2\n'));
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout('HASH 1 2\n'));
  await page.getByLabel('Preset').selectOption({ label: '16 → 4 with jumpback and jumpback-indep' });
  const preset = 'KEYS 0..39\nALGO jumpback\nMOVED 16 4\nALGO jumpback-indep\nMOVED 16 4\n';
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout(preset));
  await page.getByTestId('script-editor').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('ALGO jump\nHASH 42 100\nHASH 42 0');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('exercise-output')).toHaveText(/42: 43\n$/);
  const errors = page.getByTestId('error');
  await expect(errors).toHaveCount(1);
  await expect(errors).toContainText('bucket count must be an integer in 1..2147483647');
  await expect(page.locator('.cm-editor', { has: page.getByTestId('script-editor') }).locator('.cm-error-line')).toHaveCount(1);
  await expect(page).toHaveURL(/HASH%2042%200/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download output' }).click();
  const file = await download;
  expect(readFileSync(await file.path(), 'utf8')).toMatch(/42: 43\n$/);
});

test('a large output is shown in part, and Download has all of it, as the CLI prints it', async ({ page }) => {
  const script = 'KEYS 0..199999\nBUCKETS 1000\n';
  const expected = cliStdout(script);
  expect(expected.length).toBeGreaterThan(1024 * 1024);
  await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
  await expect(page.locator('.status')).toContainText('200,000 output lines');
  await expect(page.getByText(/The output has [\d,]+ characters; the first 1,048,576 are shown/)).toBeVisible();
  // The first megabyte is in the box, laid out only where it is in view
  // (web/src/ui/virtualText.ts): the top, then the end after scrolling.
  const kept = expected.slice(0, 1024 * 1024);
  // The text is laid out over a few frames; the box is busy until then.
  await expect(page.getByRole('region', { name: 'Output', exact: true })).toHaveAttribute('aria-busy', 'false');
  const top = (await page.getByTestId('exercise-output').textContent()) ?? '';
  expect(top.split('\n').length).toBeGreaterThan(50);
  expect(top.split('\n').length).toBeLessThan(3000);
  expect(kept.startsWith(top)).toBe(true);
  await page.getByRole('region', { name: 'Output', exact: true }).evaluate((box) => {
    box.scrollTop = box.scrollHeight;
  });
  await expect.poll(async () => kept.endsWith((await page.getByTestId('exercise-output').textContent()) ?? 'x')).toBe(true);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download output' }).click();
  expect(readFileSync(await (await download).path(), 'utf8')).toBe(expected);
});

test('the checker names the classic mistake behind a wrong line, and the link never carries the output', async ({ page, context }) => {
  const script = 'HASH 42 100\nHASH 18446744073709551615 100\nKEYS 0..9\nMOVED 10 12\n';
  await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout(script));
  const output = page.locator('textarea[name="output"]');
  await output.fill(cliStdout(script));
  await page.getByTestId('check').click();
  await expect(page.getByTestId('check-summary')).toHaveText('✓ checked: 5 of 5 lines match');

  // A program that estimates the moved count instead of counting.
  await output.fill('42: 43\n18446744073709551615: 92\n5: 4 -> 10\n7: 0 -> 11\nmoved: 1 of 10\n');
  await page.getByTestId('check').click();
  await expect(page.getByTestId('check-summary')).toHaveText('✗ checked: 4 of 5 lines match');
  const wrong = page.locator('.check-line[data-verdict="wrong-value"]');
  await expect(wrong).toHaveCount(1);
  await expect(wrong.locator('.expected')).toHaveText('moved: 2 of 10');
  await expect(wrong.locator('.actual')).toHaveText('moved: 1 of 10');
  await expect(wrong.locator('[data-diagnosis="moved-estimated"]')).toContainText('10 x |12 - 10| / 12');
  await page.waitForTimeout(300); // the URL follows edits after 150 ms
  expect(page.url()).not.toMatch(/output=|moved%3A%201/);

  // The link carries the script, never the output: a new page has nothing to check.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('exercise-output')).toHaveText(cliStdout(script));
  await expect(other.locator('textarea[name="output"]')).toHaveValue('');
  await expect(other.getByTestId('check-summary')).toHaveCount(0);
});
