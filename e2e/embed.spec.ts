import { expect, test } from '@playwright/test';
import { expectAccessible, settle, snap, watchConsole } from './helpers';

// embed.html in an iframe of a documentation page: compact view, theme=,
// its height posted to the parent, "Open in playground" with the same state.

async function hostPage(page: import('@playwright/test').Page, baseURL: string, fragment: string) {
  const src = new URL(`embed.html#${fragment}`, baseURL).toString();
  await page.setContent(`<!doctype html><html><body style="margin:0">
    <h1>Docs page</h1>
    <iframe id="demo" src="${src}" title="jumphash demo" style="width:640px;height:200px;border:0"></iframe>
    <script>
      window.heights = [];
      window.addEventListener('message', (event) => {
        if (event.data && event.data.type === 'jumphash:height') {
          window.heights.push(event.data.height);
          document.getElementById('demo').style.height = event.data.height + 'px';
        }
      });
    </script></body></html>`);
  return page.frameLocator('#demo');
}

test('embed page in an iframe posts its height and computes the scenario', async ({ page, baseURL }) => {
  const frame = await hostPage(page, baseURL!, 'view=resize&algo=jump,jumpback&from=10&to=12&keys=0..9999');
  await expect(frame.getByTestId('moved-jump')).toHaveText('1653');
  await expect(frame.getByTestId('total-keys')).toHaveText('10000');
  await expect.poll(() => page.evaluate(() => (window as unknown as { heights: number[] }).heights.length)).toBeGreaterThan(0);
  // The last posted height is the embed document's height.
  await expect
    .poll(async () => {
      const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
      const inner = await frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      return heights.at(-1) === inner && inner > 100;
    })
    .toBe(true);
  const iframeHeight = await page.locator('#demo').evaluate((el) => el.getBoundingClientRect().height);
  expect(iframeHeight).toBeGreaterThan(150);
});

test('embed: theme=dark, no storage needed, Open in playground carries the state', async ({ page, context }, testInfo) => {
  const problems = watchConsole(page);
  const fragment = 'view=compute&algo=jump,jumpback&key=18446744073709551615&n=100&theme=dark';
  await page.goto(`./embed.html#${fragment}`);
  await expect(page.getByTestId('bucket-jump')).toHaveText('92');
  await expect(page.getByTestId('bucket-jumpback')).toHaveText('73');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background).toBe('rgb(21, 25, 29)');
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
  await expectAccessible(page, testInfo, 'embed-compute-dark');
  await snap(page, testInfo, 'embed-compute-dark');

  const open = page.getByTestId('open-playground');
  await expect(open).toHaveAttribute('href', `index.html#${fragment}`);
  const [playground] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await expect(playground.getByTestId('bucket-jump')).toHaveText('92');
  await expect(playground.locator('input[name="key"]')).toHaveValue('18446744073709551615');
  expect(problems).toEqual([]);
});

test('embed: theme=light overrides a dark host preference; exercise output matches', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const script = 'HASH 42 100\nKEYS 0..9\nMOVED 10 12\n';
  await page.goto(`./embed.html#view=exercise&theme=light&script=${encodeURIComponent(script)}`);
  await expect(page.getByTestId('exercise-output')).toHaveText('42: 43\n5: 4 -> 10\n7: 0 -> 11\nmoved: 2 of 10\n');
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background).toBe('rgb(255, 255, 255)');
  await expectAccessible(page, testInfo, 'embed-exercise-light');
  await snap(page, testInfo, 'embed-exercise-light');
});

test('embed: theme=auto follows the reader’s colour scheme', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('./embed.html#view=balance&algo=jump,jumpback&n=10&keys=random:100000:1');
  await expect(page.getByTestId('load-total-jump')).toHaveText('100000');
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background).toBe('rgb(21, 25, 29)');
  await snap(page, testInfo, 'embed-balance-auto-dark');
});

// A narrow embed (320 px, a phone's column in a documentation page) fits:
// nothing makes the page wider than its frame; wide tables, charts and
// output scroll inside their own boxes.
const NARROW_VIEWS: { name: string; fragment: string; ready: string }[] = [
  { name: 'compute', fragment: 'view=compute&algo=jump,jumpback,jump-guava,jumpback-indep,modulo&key=18446744073709551615&n=2147483647&trace=100000', ready: 'bucket-jump' },
  { name: 'resize', fragment: 'view=resize&algo=jump,jumpback,modulo&from=10&to=12,11,16&keys=0..9999', ready: 'total-keys' },
  { name: 'resize nodes', fragment: 'view=resize&topology=nodes&algo=ketama,rendezvous,maglev,memento&nodes=a-very-long-cache-host-name-1.example.org:11211,b-very-long-cache-host-name-2.example.org:11211,c,d,e&steps=-c', ready: 'moved-ketama' },
  { name: 'balance', fragment: 'view=balance&algo=jump,jumpback,modulo&n=64&keys=0..99999', ready: 'load-total-jump' },
  { name: 'exercise', fragment: `view=exercise&script=${encodeURIComponent('KEYS 18446744073709551600..18446744073709551615\nBUCKETS 4294967296\nTRACE 18446744073709551615 100000\n')}`, ready: 'exercise-output' },
  { name: 'compare', fragment: 'view=compare&topology=nodes&algo=jump,ketama,rendezvous&nodes=a,b,c,d&steps=-b&keys=0..999', ready: 'compare-moved-ketama' },
];

for (const view of NARROW_VIEWS) {
  test(`a 320 px embed fits: ${view.name}`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`./embed.html#${view.fragment}`);
    await expect(page.getByTestId(view.ready).first()).toBeVisible();
    await settle(page);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .filter((el) => {
          // Inside a box that scrolls sideways, a wide child is fine.
          for (let up = el.parentElement; up; up = up.parentElement) {
            const overflow = getComputedStyle(up).overflowX;
            if ((overflow === 'auto' || overflow === 'scroll') && up.getBoundingClientRect().right <= document.documentElement.clientWidth + 1) return false;
          }
          return true;
        })
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} right=${Math.round(el.getBoundingClientRect().right)}`),
    }));
    expect(widths.wide, `elements past the 320 px frame in ${view.name}`).toEqual([]);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });
}
