import { expect, test } from '@playwright/test';
import { watchConsole } from './helpers';

// The URL follows edits; Copy link gives a link that restores the same
// state in a new page; large state takes the compact canonical form; bad
// links say why and load nothing.

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('share round trip: change state, copy the link, open it in a new page', async ({ page, context }) => {
  await page.goto('./');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  await page.locator('input[name="key"]').fill('"alice"');
  await page.locator('input[name="n"]').fill('1000');
  await page.getByLabel('jumpback-indep').check();
  await page.getByLabel('jump', { exact: true }).uncheck();
  await expect(page.getByTestId('bucket-jumpback-indep')).toHaveText(/^\d+$/);
  const buckets = {
    jumpback: await page.getByTestId('bucket-jumpback').textContent(),
    indep: await page.getByTestId('bucket-jumpback-indep').textContent(),
  };
  await expect(page).toHaveURL(/key=%22alice%22|key="alice"/);

  await page.getByTestId('copy-link').click();
  await expect(page.locator('#share-status')).toContainText(/copied/);
  const link = await page.getByTestId('share-output').inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  expect(link).toContain('view=compute');

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('input[name="key"]')).toHaveValue('"alice"');
  await expect(other.locator('input[name="n"]')).toHaveValue('1000');
  await expect(other.getByLabel('jump', { exact: true })).not.toBeChecked();
  await expect(other.getByTestId('bucket-jump')).toHaveCount(0);
  await expect(other.getByTestId('bucket-jumpback')).toHaveText(buckets.jumpback!);
  await expect(other.getByTestId('bucket-jumpback-indep')).toHaveText(buckets.indep!);
});

test('a pasted key list takes the compact canonical form and round-trips', async ({ page, context }) => {
  const problems = watchConsole(page);
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=1');
  await expect(page.getByTestId('total-keys')).toHaveText('1');
  const keys = Array.from({ length: 400 }, (_, i) => String(BigInt(i) * 46116860184273879n + 7n)).join('\n') + '\n"bob" 0xFFFFFFFFFFFFFFFF';
  await page.locator('textarea[name="keys"]').fill(keys);
  await expect(page.getByTestId('total-keys')).toHaveText('402');
  const moved = await page.getByTestId('moved-jump').textContent();
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-output')).toHaveValue(/#v=5&/);
  const link = await page.getByTestId('share-output').inputValue();
  expect(link).toMatch(/#v=5&c=[0-9a-f]{8}&z=[A-Za-z0-9_-]+&view=resize$/);
  expect(link.length).toBeLessThan(keys.length);

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('textarea[name="keys"]')).toHaveValue(keys);
  await expect(other.getByTestId('total-keys')).toHaveText('402');
  await expect(other.getByTestId('moved-jump')).toHaveText(moved!);
  expect(problems).toEqual([]);
});

test('copy embed code gives an iframe with a title and the same state', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await page.getByTestId('copy-embed').click();
  await expect(page.getByTestId('share-output')).toHaveValue(/^<iframe /);
  const code = await page.getByTestId('share-output').inputValue();
  expect(code).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#view=resize&amp;|^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#view=resize&/);
  expect(code).toContain('title="jumphash playground: Resize"');
  expect(code).toContain('keys=0..9999');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
});

// Damaged links load nothing. A link with one bad value (an unknown
// algorithm or view) now loads the rest and names the value: links.spec.ts.
const BAD_LINKS: [string, RegExp][] = [
  ['v=6&z=AAAA', /newer version of the playground \(link schema 6\)/],
  ['v=2&c=12345678&z=q1YqS8wpTVWyUlAqSy0qzszP', /corrupted or truncated/],
];

for (const [fragment, message] of BAD_LINKS) {
  test(`a bad link says why and loads nothing: ${fragment}`, async ({ page }) => {
    await page.goto(`./#${fragment}`);
    const banner = page.locator('#link-banner');
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId('error')).toHaveText(message);
    // Nothing from the link was loaded: the default scenario is shown, and the link is left as it was.
    await expect(page.locator('input[name="key"]')).toHaveValue('42');
    await expect(page.getByTestId('bucket-jump')).toHaveText('43');
    expect(new URL(page.url()).hash).toBe(`#${fragment}`);
  });
}

test('a truncated canonical link is reported as truncated', async ({ page, context }) => {
  await page.goto('./#view=exercise&script=' + encodeURIComponent('# long\n' + 'HASH 42 100\n'.repeat(60)));
  await expect(page.getByTestId('exercise-output')).toHaveText(/^(42: 43\n){60}$/);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-output')).toHaveValue(/#v=5&/);
  const link = await page.getByTestId('share-output').inputValue();
  expect(link).toContain('#v=5&');
  const cut = link.slice(0, link.indexOf('&view=') - 12);
  const other = await context.newPage();
  await other.goto(cut);
  await expect(other.locator('#link-banner').getByTestId('error')).toHaveText(/corrupted or truncated/);
});

test('the URL follows edits and editing the fragment by hand loads it', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=1&n=10');
  await page.locator('input[name="n"]').fill('77');
  await expect(page).toHaveURL(/n=77/);
  await page.evaluate(() => {
    location.hash = '#view=compute&algo=jumpback&key=18446744073709551615&n=100';
  });
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('73');
  await expect(page.locator('input[name="n"]')).toHaveValue('100');
});

// A state write that lands between a navigation and its hashchange event
// (the page writes the URL 150 ms after an edit) used to put the old fragment
// back in location.hash, so the navigation was ignored: an example link
// clicked right after switching views did nothing. The event's newURL wins.
test('a navigation wins over a state write that lands before its hashchange', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump,jumpback&from=10&to=12&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  const written = await page.evaluate(() => location.hash);
  await page.evaluate((old) => {
    location.hash = '#view=resize&algo=jump,jumpback,modulo&from=10&to=12&keys=0..9999';
    history.replaceState(history.state, '', old); // what the late write did
  }, written);
  await expect(page.getByTestId('moved-modulo')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await expect(page).toHaveURL(/algo=jump,jumpback,modulo/);
});
