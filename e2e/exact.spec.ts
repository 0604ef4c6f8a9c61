import { expect, test } from '@playwright/test';
import { cliStdout } from './helpers';

// Keys are exact 64-bit integers end to end (never a JavaScript Number), and
// every chart's data table carries the chart's numbers.

test('2^53 and 2^53+1 are different keys (a double would merge them)', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump,jumpback&key=9007199254740992&n=1000');
  await expect(page.getByTestId('bucket-jump')).toHaveText('784');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('314');
  await page.locator('input[name="key"]').fill('9007199254740993');
  await expect(page.getByTestId('bucket-jump')).toHaveText('446');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('183');
  await expect(page.getByTestId('key-value')).toHaveText('9007199254740993');
  // Hex and decimal spellings of 2^64-1 are one key.
  await page.locator('input[name="key"]').fill('0xFFFFFFFFFFFFFFFF');
  await expect(page.getByTestId('key-value')).toHaveText('18446744073709551615');
  await expect(page.getByTestId('bucket-jump')).toHaveText(/^\d+$/);
  await page.locator('input[name="n"]').fill('100');
  await expect(page.getByTestId('bucket-jump')).toHaveText('92');
});

test('moved keys above 2^53 are listed exactly', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=18446744073709551000..18446744073709551615');
  await expect(page.getByTestId('total-keys')).toHaveText('616');
  const first = await page.getByTestId('moved-list-jump').locator('tbody tr').first().textContent();
  const cli = cliStdout('KEYS 18446744073709551000..18446744073709551615\nMOVED 10 12\n').split('\n');
  expect(first).toBe(cli[0]);
  await expect(page.getByTestId('moved-jump')).toHaveText(/^\d+$/);
  expect(`moved: ${await page.getByTestId('moved-jump').textContent()} of 616`).toBe(cli.at(-2));
});

test('the jump history table is the exercise’s TRACE of key 42', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=42&n=100&trace=800');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  await page.getByText('Data table: Jump history').click();
  const rows = page.getByTestId('trace-table').locator('tbody tr:not([aria-hidden])');
  await expect(rows).toHaveCount(8);
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(1).map((td) => td.textContent).join(': ')));
  // From the exercise "Jump Consistent Hash": 1: 0, 2: 1, 3: 2, 23: 22, 34: 33, 41: 40, 44: 43, 572: 571.
  expect(cells).toEqual(['1: 0', '2: 1', '3: 2', '23: 22', '34: 33', '41: 40', '44: 43', '572: 571']);
});

test('the balance data table holds every bucket and sums to the key count', async ({ page }) => {
  await page.goto('./#view=balance&algo=jumpback&n=10&keys=0..999');
  await expect(page.getByTestId('load-total-jumpback')).toHaveText('1000');
  await page.getByText('Data table: Keys per bucket, jumpback').click();
  const rows = page.locator('.data-table[open] tbody tr:not([aria-hidden])');
  await expect(rows).toHaveCount(10);
  const loads = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.children[1]!.textContent)));
  expect(loads.reduce((a, b) => a + b, 0)).toBe(1000);
});
