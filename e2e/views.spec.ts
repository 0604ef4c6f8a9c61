import { expect, test } from '@playwright/test';
import { expectAccessible, settle, snap, twoFrames, watchConsole } from './helpers';

// Every view, in light and dark: it renders its results, shows no error,
// logs no console error (a CSP violation would), passes axe-core, and is
// photographed for the report and e2e/screenshots/.

const VIEWS: { view: string; fragment: string; ready: (page: import('@playwright/test').Page) => Promise<void> }[] = [
  {
    view: 'compute',
    fragment: 'view=compute&algo=jump,jumpback&key=42&n=100&trace=1000',
    ready: async (page) => {
      await expect(page.getByTestId('bucket-jump')).toHaveText('43');
      await expect(page.getByTestId('bucket-jumpback')).toHaveText(/^\d+$/);
      await expect(page.locator('[data-testid="trace-figure"] canvas')).toBeVisible();
    },
  },
  {
    view: 'resize',
    fragment: 'view=resize&algo=jumpback,jumpback-indep&from=16&to=4&keys=random:60000:1',
    ready: async (page) => {
      await expect(page.getByTestId('total-keys')).toHaveText('60000');
      await expect(page.getByTestId('moved-jumpback')).toHaveText(/^\d+$/);
      await expect(page.getByTestId('moved-jumpback-indep')).toHaveText(/^\d+$/);
      await expect(page.locator('.figure canvas').first()).toBeVisible();
    },
  },
  {
    view: 'balance',
    fragment: 'view=balance&algo=jump,jumpback,modulo&n=100&keys=random:100000:1',
    ready: async (page) => {
      await expect(page.getByTestId('load-total-jump')).toHaveText('100000');
      await expect(page.getByTestId('load-total-modulo')).toHaveText('100000');
      await expect(page.locator('.figure canvas').first()).toBeVisible();
    },
  },
  {
    view: 'exercise',
    fragment: 'view=exercise&script=' + encodeURIComponent('HASH 42 100\nHASH 42 0\nHASH 18446744073709551615 100\nTRACE 42 800\n'),
    ready: async (page) => {
      await expect(page.getByTestId('exercise-output')).toHaveText(/^42: 43\n/);
      // The console's editor (the workspace below has one of its own).
      const consoleEditor = page.locator('.cm-editor', { has: page.getByTestId('script-editor') });
      await expect(consoleEditor).toBeVisible();
      await expect(consoleEditor.locator('.cm-error-line')).toHaveCount(1);
      // The checker, with an output pasted (a link never carries one).
      await page.getByTestId('check-output').fill('42: 43\n18446744073709551615: 27\n1: 0\n2: 1\n3: 2\n23: 22\n34: 33\n41: 40\n44: 43\n572: 571\n');
      await page.getByTestId('check').click();
      await expect(page.getByTestId('check-summary')).toContainText('checked: 9 of 10 lines match');
    },
  },
  {
    view: 'compare',
    fragment: 'view=compare&from=10&to=12&n=100&keys=0..99999',
    ready: async (page) => {
      await expect(page.getByTestId('compare-moved-jump')).toHaveText(/^16,\d{3} \(16\.\d\d%\)$/);
      await expect(page.getByTestId('compare-moved-modulo')).toContainText('%');
    },
  },
];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });
    for (const { view, fragment, ready } of VIEWS) {
      test(`${view} view renders, is accessible and logs no error`, async ({ page }, testInfo) => {
        const problems = watchConsole(page);
        await page.goto(`./#${fragment}`);
        await ready(page);
        await settle(page);
        await expect(page.locator(`[data-testid="tab-${view}"]`)).toHaveAttribute('aria-current', 'page');
        // The only error allowed on the exercise view is the script's own failing line,
        // shown in the console and again in the checker's report.
        const expectedErrors = view === 'exercise' ? 2 : 0;
        await expect(page.getByTestId('error')).toHaveCount(expectedErrors);
        await expectAccessible(page, testInfo, `${view}-${scheme}`);
        await snap(page, testInfo, `${view}-${scheme}`);
        expect(problems).toEqual([]);
      });
    }
  });
}

test('the page without a fragment opens a meaningful default scenario', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('./');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43'); // the exercise's key 42 among 100
  await expect(page.locator('#field-key-1, input[name="key"]')).toHaveValue('42');
  expect(problems).toEqual([]);
});

test('views are reachable by keyboard and keep the scenario', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump&key=7&n=10');
  await expect(page.getByTestId('bucket-jump')).toHaveText(/^\d$/);
  await page.getByTestId('tab-resize').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('total-keys')).toHaveText('10000');
  await expect(page).toHaveURL(/view=resize/);
  await page.getByTestId('tab-balance').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('load-total-jump')).toHaveText('10000');
  await expect(page.locator('input[name="n"]')).toHaveValue('10');
});

test('a chart that a new report replaced is destroyed, not redrawn off the page', async ({ page }) => {
  await page.goto('./#view=resize&algo=jumpback&from=1000&to=1001&keys=0..9999');
  await expect(page.getByTestId('total-keys')).toHaveText('10000');
  const oldChart = page.locator('.figure .chart').first();
  await expect(oldChart.locator('canvas')).toBeVisible();
  const old = await oldChart.elementHandle();
  // Counts each redraw of the old plot from now on (uPlot redraws its canvas
  // by resetting its size, which clears it).
  await old!.evaluate((chart) => {
    const canvas = chart.querySelector('canvas')!;
    (window as unknown as { redraws: number }).redraws = 0;
    const context = canvas.getContext('2d')!;
    const clear = context.clearRect.bind(context);
    context.clearRect = (...args: Parameters<typeof context.clearRect>) => {
      (window as unknown as { redraws: number }).redraws++;
      clear(...args);
    };
  });
  await page.locator('textarea[name="keys"]').fill('0..19999');
  await expect(page.getByTestId('total-keys')).toHaveText('20000');
  await expect(page.locator('.figure .chart canvas').first()).toBeVisible();
  // A few frames for the old chart's container to report its last resize.
  await twoFrames(page);
  expect(await old!.evaluate((chart) => chart.isConnected)).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { redraws: number }).redraws)).toBe(0);
  expect(await old!.evaluate((chart) => chart.querySelector('.uplot'))).toBeNull();
});

test('a virtual table lays out the rows in view and 8 below, and follows its scroll', async ({ page }) => {
  // modulo 1000 over 0..99999: bucket b holds exactly 100 keys, so row b reads "b, 100".
  await page.goto('./#view=balance&algo=modulo&n=1000&keys=0..99999');
  await expect(page.getByTestId('load-total-modulo')).toHaveText('100000');
  await page.getByText('Data table: Keys per bucket, modulo').click();
  const table = page.locator('.data-table[open] .vtable');
  const rows = table.locator('tbody tr:not([aria-hidden])');
  const shown = () => rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('aria-rowindex'), tr.children[0]!.textContent, tr.children[1]!.textContent]));
  // At the top: the 12 rows in view, 8 below them and 2 more; none above the
  // first, where there is nothing to scroll back to (30 rows were laid out).
  await expect(rows).toHaveCount(22);
  expect(await shown()).toEqual(Array.from({ length: 22 }, (_, b) => [String(b + 2), String(b), '100']));
  // Scrolled to bucket 500 at the top of the view: it and the 11 after it are
  // laid out, with 8 rows above and 10 below, and spacers keep the scroll height.
  const height = await table.evaluate((viewport) => viewport.scrollHeight);
  await table.evaluate((viewport) => { viewport.scrollTop = 500 * 26 + 26; });
  await expect(rows.first()).toHaveAttribute('aria-rowindex', String(492 + 2));
  expect(await shown()).toEqual(Array.from({ length: 30 }, (_, i) => [String(492 + i + 2), String(492 + i), '100']));
  expect(await table.evaluate((viewport) => viewport.scrollHeight)).toBe(height);
  // At the end: the last bucket is there and nothing past it.
  await table.evaluate((viewport) => { viewport.scrollTop = viewport.scrollHeight; });
  await expect(rows.last()).toHaveAttribute('aria-rowindex', String(999 + 2));
  expect((await shown()).at(-1)).toEqual(['1001', '999', '100']);
});
