import { expect, test } from '@playwright/test';
import { STATIC_PORT } from './playwright.config';
import { watchConsole } from './helpers';

// The built site is static and relative: it works from a sub-path of a plain
// `python3 -m http.server` (here web/dist/ served as /dist/), worker and
// WebAssembly included, and requests nothing from another origin.

const BASE = `http://127.0.0.1:${STATIC_PORT}/dist/`;

test('the built site works from a sub-path of python3 -m http.server', async ({ page }) => {
  const problems = watchConsole(page);
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== new URL(BASE).origin) foreign.push(request.url());
  });
  await page.goto(`${BASE}#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100`);
  await expect(page.getByTestId('bucket-jump')).toHaveText('92');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('73');
  await page.getByTestId('tab-resize').click();
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await page.goto(`${BASE}embed.html#view=exercise&script=${encodeURIComponent('HASH 42 100\n')}`);
  await expect(page.getByTestId('exercise-output')).toHaveText('42: 43\n');
  await expect(page.getByTestId('open-playground')).toHaveAttribute('href', /^index\.html#view=exercise/);
  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});

test('the built pages carry the strict Content-Security-Policy', async ({ request }) => {
  for (const page of ['index.html', 'embed.html']) {
    const html = await (await request.get(`${BASE}${page}`)).text();
    const match = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(match, page).not.toBeNull();
    const policy = match![1]!.replace(/&#39;/g, "'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(policy).not.toContain("'unsafe-eval'"); // ('wasm-unsafe-eval' is not this)
    expect(policy).not.toContain("'unsafe-inline'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline scripts
    expect(html).not.toMatch(/\sstyle="/);
  }
});
