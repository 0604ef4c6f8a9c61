import { expect, test } from '@playwright/test';

// Bad input is shown next to its field, and nothing typed is lost.

test('compute: a key out of range and n = 0 are reported next to their fields', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=42&n=100');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  const key = page.locator('input[name="key"]');
  await key.fill('18446744073709551616');
  const keyField = page.locator('.field', { has: key });
  await expect(keyField.getByTestId('error')).toHaveText(/'18446744073709551616' is out of range \(keys are 0\.\.18446744073709551615\)/);
  await expect(key).toHaveAttribute('aria-invalid', 'true');
  await expect(key).toHaveValue('18446744073709551616');
  await expect(page.getByTestId('bucket-jump')).toHaveCount(0);
  await expect(page).toHaveURL(/key=18446744073709551616/);

  await key.fill('-1');
  await expect(keyField.getByTestId('error')).toHaveText(/'-1' is not a key/);
  await key.fill('42');
  await expect(keyField.getByTestId('error')).toHaveCount(0);
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');

  const n = page.locator('input[name="n"]');
  await n.fill('0');
  const nField = page.locator('.field', { has: n });
  await expect(nField.getByTestId('error')).toHaveText("bucket count must be an integer in 1..2147483647 (got '0')");
  await expect(n).toHaveValue('0');
  await expect(page.getByTestId('error')).toHaveCount(1);

  // Reload: the bad value comes back from the URL, with its message.
  await page.reload();
  await expect(page.locator('input[name="n"]')).toHaveValue('0');
  await expect(page.locator('.field', { has: page.locator('input[name="n"]') }).getByTestId('error')).toBeVisible();
});

test('resize: a malformed key list and a bad chain are reported next to their fields', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  const keys = page.locator('textarea[name="keys"]');
  await keys.fill('0..99 9..3 "alice"');
  const keysField = page.locator('.field', { has: keys });
  await expect(keysField.getByTestId('error')).toHaveText("range '9..3' is empty: its first key must be at most its last");
  await expect(keys).toHaveValue('0..99 9..3 "alice"');
  await expect(page.getByTestId('moved-jump')).toHaveCount(0);
  await keys.fill('random:10');
  await expect(keysField.getByTestId('error')).toContainText("'random:10' is not a random key set");

  await keys.fill('0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  const to = page.locator('input[name="to"]');
  await to.fill('12, x, 16');
  await expect(page.locator('.field', { has: to }).getByTestId('error')).toHaveText("to must be an integer in 1..1000000 (got 'x')");
  await expect(to).toHaveValue('12, x, 16');
  await page.locator('input[name="from"]').fill('2000000');
  await expect(page.locator('.field', { has: page.locator('input[name="from"]') }).getByTestId('error')).toContainText('1..1000000');
});

test('balance: n above the load report limit is explained', async ({ page }) => {
  await page.goto('./#view=balance&algo=jump&n=2000000&keys=0..99');
  const n = page.locator('input[name="n"]');
  await expect(page.locator('.field', { has: n }).getByTestId('error')).toContainText('one counter per bucket');
  await expect(n).toHaveValue('2000000');
});

test('the last algorithm cannot be unchecked without a message', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=1&n=10');
  await expect(page.getByTestId('bucket-jump')).toHaveText(/^\d$/);
  await page.getByLabel('jump', { exact: true }).uncheck();
  await expect(page.locator('fieldset.algos').getByTestId('error')).toHaveText('Select at least one algorithm.');
});

// Messages that quote what was typed show control characters escaped (\u{1b},
// as the CLI prints them), never raw, and a very long token cut after 80
// characters with its size, in the console and next to a field alike.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('messages quote control characters escaped and long tokens cut', async ({ page }) => {
  const long = `1${'9'.repeat(99_999)}`;
  const script = `HASH 4\u001b[31m2 100\nMOVED 1\u000b2 1000\nHASH 4\u202e2 100\nHASH ${long} 100\n`;
  await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
  const errors = page.getByTestId('error');
  await expect(errors).toHaveCount(4);
  const texts = await errors.allTextContents();
  expect(texts[0]).toContain("'4\\u{1b}[31m2'");
  expect(texts[1]).toContain("'1\\u{b}2'");
  expect(texts[2]).toContain("'4\\u{202e}2'");
  expect(texts[3]).toContain(`'1${'9'.repeat(79)}... (100000 bytes)'`);
  for (const text of texts) {
    expect(RAW_CONTROL.test(text), text).toBe(false);
    expect(text.length).toBeLessThan(400);
  }

  await page.goto('./#view=compute&algo=jump&key=42&n=100');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  const key = page.locator('input[name="key"]');
  await key.fill('4\u001b2');
  const keyError = page.locator('.field', { has: key }).getByTestId('error');
  await expect(keyError).toContainText("'4\\u{1b}2'");
  expect(RAW_CONTROL.test((await keyError.textContent()) ?? '')).toBe(false);
  // What was typed stays as typed.
  await expect(key).toHaveValue('4\u001b2');
});

test('a paste over pasted-list-chars is refused with the limit named, and the keys stay', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  const box = page.locator('textarea[name="keys"]');
  const inserted = await box.evaluate((textarea) => {
    const data = new DataTransfer();
    data.setData('text/plain', '1\n'.repeat(32 * 1024 * 1024) + '7'); // 67,108,865 characters
    (textarea as HTMLTextAreaElement).select();
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    textarea.dispatchEvent(event);
    return !event.defaultPrevented;
  });
  expect(inserted).toBe(false);
  const error = page.locator('.field', { has: box }).getByTestId('error');
  await expect(error).toContainText('67,108,865 characters; the page takes at most 67,108,864 (pasted-list-chars)');
  await expect(box).toHaveValue('0..9');
  await expect(box).toBeVisible();
  await expect(page.getByTestId('total-keys')).toHaveText('10');
});
