import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, progressPanel, snap, watchConsole } from './helpers';

// The Claims view: the articles' claims re-measured in the browser (the same
// catalogue as `jumphash reproduce`). Run all completes with every
// deterministic row reproduced; a claim's link opens its row; Cancel stops a
// run; axe in light and dark.

async function openClaims(page: Page, fragment = 'view=claims'): Promise<void> {
  await page.goto(`./#${fragment}`);
  await expect(page.getByTestId('claim-row').first()).toBeVisible();
  await expect(page.getByTestId('run-all')).toBeEnabled();
}

const row = (page: Page, id: string) => page.locator(`[data-testid="claim-row"][data-claim="${id}"]`);
/** The progress panel's text: "25.0% · 3 of 12 claims · <the claim measured now>", then the closing message. */
const progressText = (page: Page) => progressPanel(page).text;

test('Run all measures every claim; every deterministic row is reproduced', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const problems = watchConsole(page);
  await openClaims(page);
  const rows = page.getByTestId('claim-row');
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(20);
  await expect(page.getByTestId('claims-summary')).toHaveText(`${count} claims: ${count} not run.`);

  await page.getByTestId('run-all').click();
  await expect(progressText(page)).toContainText(`of ${count} claims · `);
  await expect(progressText(page)).toContainText(/^[0-9.]+% · \d+ of \d+ claims · [a-z0-9-]+$/);
  await expect(page.getByTestId('cancel')).toBeVisible();
  await expect(page.locator('.claims-view')).toHaveAttribute('data-run-all', 'done', { timeout: 200_000 });
  const doneText = await progressText(page).textContent();
  testInfo.annotations.push({ type: 'Run all', description: doneText ?? '' });
  expect(doneText).toMatch(new RegExp(`^Ran all ${count} claims in [0-9.]+ s\\.$`));

  // Every row has a verdict; no row failed to run.
  await expect(page.locator('[data-testid="claim-verdict"][data-verdict="not-run"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="claim-verdict"][data-verdict="error"]')).toHaveCount(0);
  const deterministic = page.locator('[data-testid="claim-row"][data-kind="deterministic"]');
  expect(await deterministic.count()).toBeGreaterThanOrEqual(5);
  for (const r of await deterministic.all()) {
    await expect(r.getByTestId('claim-verdict'), await r.getAttribute('data-claim') ?? '').toHaveAttribute('data-verdict', 'reproduced');
  }
  // Statistical claims use fixed keys: they reproduce here as they do natively.
  for (const r of await page.locator('[data-testid="claim-row"][data-kind="statistical"]').all()) {
    await expect(r.getByTestId('claim-verdict'), await r.getAttribute('data-claim') ?? '').toHaveAttribute('data-verdict', 'reproduced');
  }
  // Timing rows say they are ratios measured in this browser.
  const timing = page.locator('[data-testid="claim-row"][data-kind="timing"]').first();
  await expect(timing).toContainText('ratios of loop times measured in this browser');

  // Key 42's history: the published jumps, and its chart.
  const key42 = row(page, 'jump-key-42-history');
  await expect(key42.getByTestId('claim-measured')).toHaveText(
    'n 1 2 3 23 34 41 44 572 -> bucket 0 1 2 22 33 40 43 571; bucket 43 at n = 100',
  );
  await expect(key42.locator('[data-testid="claim-chart-jump-key-42-history"] canvas')).toBeVisible();
  await expect(page.getByTestId('claims-summary')).toHaveText(new RegExp(`^${count} claims: \\d+ reproduced`));
  await snap(page, testInfo, 'claims-all');
  expect(problems).toEqual([]);
});

test("a claim's link opens its row, and the link in the address bar names it", async ({ page }) => {
  const problems = watchConsole(page);
  await openClaims(page, 'view=claims&claim=two-level-routing');
  const target = row(page, 'two-level-routing');
  await expect(target).toHaveClass(/selected/);
  await expect(target).toHaveAttribute('aria-current', 'true');
  await expect(target).toBeInViewport();
  await expect(page.locator('.claim-row.selected')).toHaveCount(1);

  // Following another row's link selects it and puts its id in the URL.
  const other = row(page, 'jump-key-42-history');
  await expect(other.getByTestId('claim-link')).toHaveAttribute('href', '#view=claims&claim=jump-key-42-history');
  await other.getByTestId('claim-link').click();
  await expect(other).toHaveClass(/selected/);
  await expect(target).not.toHaveClass(/selected/);
  await expect(page).toHaveURL(/#view=claims&claim=jump-key-42-history$/);

  // A well-formed id that no claim has: the view says so and lists the ids.
  await page.goto('./#view=claims&claim=no-such-claim');
  await expect(page.getByTestId('claims-status')).toContainText('No claim has the id "no-such-claim"');
  await expect(page.getByTestId('claims-status')).toContainText('jump-key-42-history');
  // An id of the wrong shape: the link is refused with what is allowed.
  await page.goto('./#view=claims&claim=Not%20An%20Id');
  await expect(page.getByTestId('error')).toContainText('is not a claim id');
  expect(problems).toEqual([]);
});

test('Cancel stops Run all; the rows not reached stay not run, and a row still runs afterwards', async ({ page }) => {
  const problems = watchConsole(page);
  await openClaims(page);
  const count = await page.getByTestId('claim-row').count();
  await page.getByTestId('run-all').click();
  // Claims 5 and 7 take seconds each: the run is caught in the middle (4 to
  // 6 claims measured).
  await expect(progressText(page)).toHaveText(new RegExp(`^[0-9.]+% · [4-6] of ${count} claims · `), { timeout: 30_000 });
  await page.getByTestId('cancel').click();
  await expect(page.locator('.claims-view')).toHaveAttribute('data-run-all', 'cancelled');
  await expect(progressText(page)).toHaveText(/^Cancelled after \d+ of \d+ claims/);
  await expect(page.getByTestId('cancel')).toBeHidden();
  await expect(page.getByTestId('run-all')).toBeEnabled();
  // The last rows were never reached.
  const last = page.getByTestId('claim-row').last();
  await expect(last.getByTestId('claim-verdict')).toHaveAttribute('data-verdict', 'not-run');
  await expect(page.locator('[data-testid="claim-verdict"][data-verdict="running"]')).toHaveCount(0);
  // The jobs worker was terminated; the next run starts a fresh one.
  const key42 = row(page, 'jump-key-42-history');
  await key42.getByTestId('claim-run').click();
  await expect(key42.getByTestId('claim-verdict')).toHaveAttribute('data-verdict', 'reproduced');
  expect(problems).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });
    test(`claims view is accessible and photographed (${scheme})`, async ({ page }, testInfo) => {
      const problems = watchConsole(page);
      await openClaims(page, 'view=claims&claim=jump-key-42-history');
      for (const id of ['jump-key-42-history', 'jump-loops-below-ln-n-plus-1', 'jumpback-matches-divide']) {
        await row(page, id).getByTestId('claim-run').click();
        await expect(row(page, id).getByTestId('claim-verdict')).not.toHaveAttribute('data-verdict', /running|not-run/, {
          timeout: 30_000,
        });
      }
      await expect(page.locator('[data-testid="claim-chart-jump-key-42-history"] canvas')).toBeVisible();
      await page.waitForTimeout(400);
      await expectAccessible(page, testInfo, `claims-${scheme}`);
      await snap(page, testInfo, `claims-${scheme}`);
      expect(problems).toEqual([]);
    });
  });
}
