import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchConsole } from './helpers';

// Links never lose work: one bad value in a link is dropped and named while
// the rest loads; a scenario too large for a link is not written, a notice
// says so before anything is lost, and Export/Import keep it in a file;
// invalid UTF-16 is reported, not thrown; the banner's words about the
// address bar stay true after the page rewrites it.

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('theme=neon: the rest of the link loads, the banner names theme, and stays true once the page rewrites the link', async ({ page }) => {
  const problems = watchConsole(page);
  const fragment = 'view=resize&algo=jump&from=10&to=12&keys=0..9999&theme=neon';
  await page.goto(`./#${fragment}`);
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  const banner = page.locator('#link-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Part of this link could not be used.');
  await expect(banner.getByTestId('dropped')).toHaveCount(1);
  await expect(banner.getByTestId('dropped-theme')).toHaveText(
    'theme: Unknown theme "neon": expected one of auto, light, dark. Using the default, auto.',
  );
  await expect(banner.getByTestId('address-bar')).toHaveText(/still holds the link as you opened it/);
  expect(new URL(page.url()).hash).toBe(`#${fragment}`);

  // An edit rewrites the link: the banner says so instead of "still holds".
  await page.locator('input[name="to"]').fill('16');
  await expect(page).toHaveURL(/to=16/);
  expect(page.url()).not.toContain('theme=neon');
  await expect(banner.getByTestId('address-bar')).toHaveText(
    'The page has since rewritten the link in the address bar without these values.',
  );
  expect(problems).toEqual([]);
});

test('an unknown algorithm among good ones: the good ones load, the banner names the unknown one', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump,chord,jumpback&from=10&to=12&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await expect(page.getByTestId('moved-jumpback')).toHaveText(/^\d+$/);
  await expect(page.getByLabel('jump', { exact: true })).toBeChecked();
  await expect(page.getByLabel('jumpback', { exact: true })).toBeChecked();
  const dropped = page.locator('#link-banner').getByTestId('dropped-algo');
  await expect(dropped).toHaveText(/^algo: Unknown algorithm "chord": expected jump, .*\. It was left out\.$/);
});

test('a link that cannot be opened: the banner stops saying the address bar is unchanged once the page replaces it', async ({ page }) => {
  await page.goto('./#v=6&z=AAAA');
  const banner = page.locator('#link-banner');
  await expect(banner.getByTestId('error')).toHaveText(/newer version of the playground \(link schema 6\)/);
  await expect(banner.getByTestId('address-bar')).toHaveText(/still holds the link you opened/);
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  expect(new URL(page.url()).hash).toBe('#v=6&z=AAAA');
  await page.locator('input[name="n"]').fill('77');
  await expect(page).toHaveURL(/n=77/);
  await expect(banner.getByTestId('address-bar')).toHaveText(
    'The page has since replaced that link in the address bar with the scenario shown.',
  );
});

/** 150,000 distinct 16-digit keys separated by spaces: 2,549,999 characters.
 *  (Spaces, not newlines: Chromium inserts text with 150,000 line breaks
 *  into a textarea so slowly that fill() takes minutes; a real paste does not.) */
function hugeKeyList(): string {
  return Array.from({ length: 150_000 }, (_, i) => String(1e15 + i * 7919)).join(' ');
}

/** Saves the scenario with Export file (`button`) and returns the file's path and text. */
async function exportVia(page: Page, button: Locator, path: string): Promise<string> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('jumphash-scenario.json');
  await download.saveAs(path);
  return readFileSync(path, 'utf8');
}

test('a 2.5 MB pasted key list: the notice says it is not in the link, Export saves it, Import restores it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const start = 'view=resize&algo=jump&from=10&to=12&keys=1';
  await page.goto(`./#${start}`);
  await expect(page.getByTestId('total-keys')).toHaveText('1');
  const keys = hugeKeyList();
  expect(keys.length).toBe(2_549_999);
  await page.locator('textarea[name="keys"]').click();
  await page.locator('textarea[name="keys"]').fill(keys);

  // Before anything is lost: a persistent notice, and the address bar keeps the last link that fit.
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByTestId('link-too-large')).toHaveText(
    'Not in the link. This scenario is too large for a link (its key list is 2,549,999 characters, limit 1,000,000 per field): ' +
      'Export it as a file to keep it. The address bar still holds an earlier link: reloading the page or sharing the address ' +
      'opens that, not this. Export file',
  );
  await expect(page.getByTestId('total-keys')).toHaveText('150000', { timeout: 60_000 });
  expect(new URL(page.url()).hash).toBe(`#${start}`);

  // Copy link copies nothing and says why.
  await page.getByTestId('copy-link').click();
  await expect(page.locator('#share-status')).toHaveText(/^This scenario is too large for a link \(its key list is 2,549,999 characters.*Export it as a file/);
  await expect(page.getByTestId('share-output')).toHaveValue('');

  // Leaving the page now would lose the keys: the browser asks first, and staying keeps them.
  await page.evaluate(() => Object.assign(window, { stayedOnThisPage: true }));
  const leaving = page.waitForEvent('dialog');
  await page.evaluate(() => setTimeout(() => location.reload(), 0));
  const dialog = await leaving;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { stayedOnThisPage?: boolean }).stayedOnThisPage)).toBe(true);
  await expect(page.getByTestId('total-keys')).toHaveText('150000');

  // Export: a schema-versioned JSON file with the whole scenario.
  const path = testInfo.outputPath('jumphash-scenario.json');
  const text = await exportVia(page, notice.getByTestId('notice-export'), path);
  const file = JSON.parse(text) as { format: string; schema: number; state: Record<string, unknown> };
  expect(file.format).toBe('jumphash-scenario');
  expect(file.schema).toBe(5);
  expect(file.state).toMatchObject({ view: 'resize', algos: ['jump'], from: '10', to: '12' });
  expect(file.state['keys']).toBe(keys);
  await expect(page.getByTestId('file-status')).toHaveText(/^Exported the scenario as jumphash-scenario\.json \(/);
  await expect(notice.getByTestId('link-too-large')).toContainText('You have exported it as a file.');

  // Exported: a reload asks nothing, and shows the last link that fit.
  await page.reload();
  await expect(page.getByTestId('total-keys')).toHaveText('1');
  await expect(notice).toBeHidden();

  // Import brings the whole scenario back (and, still too large, the notice).
  await page.getByTestId('import-file').setInputFiles(path);
  await expect(page.getByTestId('file-status')).toHaveText('Imported jumphash-scenario.json.');
  await expect(page.getByTestId('total-keys')).toHaveText('150000', { timeout: 60_000 });
  await expect(notice.getByTestId('link-too-large')).toContainText('its key list is 2,549,999 characters');
  // Exactly what was exported: exporting again gives the same file.
  expect(await exportVia(page, page.getByTestId('export-scenario'), testInfo.outputPath('again.json'))).toBe(text);
  expect(problems).toEqual([]);
});

test('Import names what is wrong with a file and loads the rest; a file that is not a scenario loads nothing', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=1&n=10');
  await expect(page.getByTestId('bucket-jump')).toHaveText(/^\d+$/);
  await page.getByTestId('import-file').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"keys": "1 2 3"}'),
  });
  await expect(page.locator('#link-banner').getByTestId('error')).toHaveText(
    /^The file is not a jumphash scenario: expected a JSON object with "format": "jumphash-scenario"/,
  );
  await expect(page.locator('input[name="n"]')).toHaveValue('10');

  const scenario = {
    format: 'jumphash-scenario',
    schema: 5,
    state: { view: 'resize', algos: ['jump', 'chord'], from: '10', to: '12', keys: '0..9999', theme: 'neon' },
  };
  await page.getByTestId('import-file').setInputFiles({
    name: 'mine.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  const banner = page.locator('#link-banner');
  await expect(banner).toContainText('Part of this file could not be used.');
  await expect(banner.getByTestId('dropped-algos')).toHaveText(/Unknown algorithm "chord"/);
  await expect(banner.getByTestId('dropped-theme')).toHaveText(/Unknown theme "neon": expected one of auto, light, dark/);
  await expect(page.getByTestId('file-status')).toHaveText('Imported mine.json, without the values named above.');
  await expect(page).toHaveURL(/view=resize&algo=jump&from=10&to=12&keys=0\.\.9999$/);
});

test('a lone surrogate in the exercise script: the link keeps updating, with U+FFFD, and a notice says so', async ({ page }) => {
  await page.goto('./#view=exercise&script=' + encodeURIComponent('HASH 42 100\n'));
  await expect(page.getByTestId('exercise-output')).toHaveText('42: 43');
  const editor = page.getByTestId('script-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  // Half of an emoji (a lone high surrogate), pasted: no keyboard can type one.
  await editor.evaluate((content) => {
    const data = new DataTransfer();
    data.setData('text/plain', '# cut \uD83D here\n');
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page).toHaveURL(/script=HASH%2042%20100%0A%23%20cut%20%EF%BF%BD%20here%0A/);
  const notice = page.getByTestId('link-notice');
  await expect(notice.getByTestId('link-repaired-script')).toHaveText(
    'The exercise script holds invalid UTF-16 text (1 lone surrogate, the first at character 19), which no link can carry: ' +
      'the link has U+FFFD (�) in its place.',
  );
  // Later edits still reach the link; Copy link still copies.
  await page.keyboard.type('HASH 7 10\n');
  await expect(page).toHaveURL(/here%0AHASH%207%2010%0A/);
  await page.getByTestId('copy-link').click();
  await expect(page.locator('#share-status')).toContainText('copied');
  const link = await page.getByTestId('share-output').inputValue();
  expect(link).toContain('%EF%BF%BD');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The script's own text is not changed: only the link carries U+FFFD.
  await expect(notice.getByTestId('link-repaired-script')).toBeVisible();
});
