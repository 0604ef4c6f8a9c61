import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { chartsDrawn, progressPanel, startLongTaskLog, stopLongTaskLog } from './helpers';

// Reports over large key sets run in a worker: a progress bar moves, Cancel
// stops them, 10^7 keys complete, and the main thread is never blocked for
// more than 100 ms at a time (measured with the Long Tasks API).

test.setTimeout(180_000);

async function watchLongTasks(page: import('@playwright/test').Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

async function longTasksSinceMark(page: import('@playwright/test').Page, from: number): Promise<number[]> {
  return page.evaluate((start) => (window as unknown as { longTasks: number[] }).longTasks.slice(start), from);
}

// No trace: its DOM snapshots run in the page's main thread and would be
// counted as the page's own long tasks (as in pressure.spec.ts).
test.use({ trace: 'off' });

test('a 10^8-key report shows progress and Cancel stops it', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump,jumpback&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  await page.evaluate(() => performance.clearMarks('jumphash:progress'));
  await page.locator('textarea[name="keys"]').fill('random:100000000:1');
  const { bar } = progressPanel(page);
  await expect(page.getByTestId('cancel')).toBeVisible();
  // The bar moves: two readings, the second larger.
  await expect.poll(async () => Number(await bar.getAttribute('value') ?? 0), { timeout: 30_000 }).toBeGreaterThan(0);
  const first = Number(await bar.getAttribute('value'));
  await expect.poll(async () => Number(await bar.getAttribute('value') ?? 0), { timeout: 30_000 }).toBeGreaterThan(first);
  await expect(page.getByTestId('progress')).toContainText('key lookups');
  expect(Number(await bar.getAttribute('max'))).toBe(200_000_000);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('progress')).toContainText('Cancelled');
  await expect(page.getByTestId('cancel')).toBeHidden();
  await expect(page.getByTestId('moved-jump')).toHaveCount(0);
  // The workers report 20 times a second each; the bar is drawn at most every
  // 250 ms (PROGRESS_DRAW_EVERY_MS), and was drawn more than once. Each
  // drawing sets a User Timing mark; performance.now() is coarsened to 0.1 ms.
  const drawnAt = await page.evaluate(() => performance.getEntriesByName('jumphash:progress').map((mark) => mark.startTime));
  expect(drawnAt.length).toBeGreaterThan(1);
  const gaps = drawnAt.slice(1).map((at, k) => at - drawnAt[k]!);
  expect(Math.min(...gaps), `ms between drawings: ${gaps.map((gap) => gap.toFixed(1)).join(', ')}`).toBeGreaterThanOrEqual(249.8);
  // The page still works after a cancel (a fresh worker takes over).
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await page.locator('input[name="to"]').fill('12');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
});

/** What the page-side observer of the test below records: each sign of a run once, with when (ms) and the key count's top (px) then. */
type SignsSeen = { seen: [sign: string, at: number, countTop: number][] };

test('a report shows that it runs only once it has run 200 ms, and that moves no line of the report; aria-busy is set at once', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  // Everything the page shows of a run, as it happens (performance.now()).
  // An observer runs after the script that made the change, so its time can
  // be late by what that script did next, never early: the delays are
  // measured from the run's start, the User Timing mark `jumphash:run` set
  // before the page arms them, not from when aria-busy was seen.
  // With each sign, where the report's key count then was on the page (its
  // top, px): the signs are drawn over the report or in a row kept for them,
  // so that showing them moves nothing the reader is looking at.
  await page.evaluate(() => {
    const w = window as unknown as SignsSeen;
    w.seen = [];
    const cancel = document.querySelector<HTMLElement>('[data-testid="cancel"]')!;
    const panel = document.querySelector<HTMLElement>('[data-testid="progress"]')!;
    new MutationObserver(() => {
      const at = performance.now();
      const now = [
        document.querySelector('[data-testid="out-of-date"]') ? 'note' : '',
        !panel.hidden && !cancel.hidden ? 'cancel' : '',
        document.querySelector('.results[aria-busy="true"]') ? 'busy' : '',
      ].filter(Boolean);
      const countTop = (document.querySelector('[data-testid="total-keys"]')?.getBoundingClientRect().top ?? NaN) + window.scrollY;
      for (const sign of now) if (!w.seen.some(([s]) => s === sign)) w.seen.push([sign, at, countTop]);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const countTop = () => page.getByTestId('total-keys').evaluate((count) => count.getBoundingClientRect().top + window.scrollY);
  /** The signs seen, in order, each with its ms since the run's first mark and the key count's top then. */
  const edit = async (keys: string, count: string) => {
    await page.evaluate(() => {
      (window as unknown as SignsSeen).seen = [];
      performance.clearMarks('jumphash:run');
    });
    await page.locator('textarea[name="keys"]').fill(keys);
    await expect(page.getByTestId('total-keys')).toHaveText(count, { timeout: 120_000 });
    return page.evaluate(() => {
      const runs = performance.getEntriesByName('jumphash:run');
      const startedAt = runs[0]?.startTime ?? NaN;
      return (window as unknown as SignsSeen).seen.map(([sign, at, top]) => ({ sign, ms: at - startedAt, top }));
    });
  };
  const described = (signs: { sign: string; ms: number }[]) => signs.map(({ sign, ms }) => `${sign} ${ms.toFixed(1)}`).join(', ');
  // A short report (a few ms after the 300 ms debounce): aria-busy only, no frame of a busy state.
  const short = await edit('0..9999', '10000');
  expect(short.map(({ sign }) => sign), described(short)).toEqual(['busy']);
  expect(short[0]!.ms, `aria-busy is seen after the run starts: ${described(short)}`).toBeGreaterThanOrEqual(0);
  // A long one (about a second): aria-busy first, then the note and Cancel, both
  // at least 200 ms after the run started. performance.now() is coarsened to
  // 0.1 ms in Chromium (with jitter): 0.2 ms is allowed for the two readings.
  const before = await countTop();
  const long = await edit('random:100000000:1', '100000000');
  expect(long.map(({ sign }) => sign).sort(), described(long)).toEqual(['busy', 'cancel', 'note']);
  expect(long[0]!.sign, described(long)).toBe('busy');
  for (const { sign, ms } of long.slice(1)) expect(ms, `${sign}: ${described(long)}`).toBeGreaterThanOrEqual(199.8);
  // The old report stayed where it was while the signs showed, and the new one is drawn there too.
  for (const { sign, top } of long) expect(top, `the key count's top when ${sign} showed, against ${before} before the run`).toBe(before);
  expect(await countTop()).toBe(before);
  await expect(page.getByTestId('out-of-date')).toHaveCount(0);
  await expect(page.locator('.results')).not.toHaveAttribute('aria-busy', 'true');
});

/** What the page-side observer of the test below records: the key count's top (px) and the panel's text at each change. */
type RunWatched = { tops: number[]; texts: string[] };

// The progress panel's text changes 4 times a second during a long run: on
// a phone's width (and a tablet's), it once wrapped to a second and a third
// line and moved the report below it by 24-51 px. Every change to the page
// during the run is watched, not only the first of each sign.
for (const width of [320, 390, 768]) {
  test(`at ${width} px, a long run's progress moves no line of the report`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('./#view=resize&algo=jump&from=10&to=12&keys=0..9');
    await expect(page.getByTestId('total-keys')).toHaveText('10');
    await chartsDrawn(page);
    await page.evaluate(() => {
      const w = window as unknown as RunWatched;
      w.tops = [];
      w.texts = [];
      const panel = document.querySelector<HTMLElement>('[data-testid="progress"]')!;
      new MutationObserver(() => {
        const count = document.querySelector('[data-testid="total-keys"]');
        if (count) w.tops.push(count.getBoundingClientRect().top + window.scrollY);
        if (!panel.hidden) w.texts.push(panel.querySelector('.progress-text')?.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const before = await page.getByTestId('total-keys').evaluate((count) => count.getBoundingClientRect().top + window.scrollY);
    await page.locator('textarea[name="keys"]').fill('random:100000000:1');
    await expect(page.getByTestId('total-keys')).toHaveText('100000000', { timeout: 120_000 });
    const { tops, texts } = await page.evaluate(() => {
      const w = window as unknown as RunWatched;
      return { tops: w.tops, texts: w.texts };
    });
    // The run was long enough to draw its counts at least once.
    expect(texts.some((text) => text.includes(' key lookups')), texts.join(' | ')).toBe(true);
    expect([...new Set(tops)], `the key count's top during the run, against ${before} before it`).toEqual([before]);
  });
}

test('10^7 keys complete in the worker without blocking the main thread', async ({ page }) => {
  await watchLongTasks(page);
  await page.goto('./#view=resize&algo=jump,jumpback&from=10&to=12&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  await chartsDrawn(page);
  const mark = (await longTasksSinceMark(page, 0)).length;
  await page.locator('textarea[name="keys"]').fill('random:10000000:1');
  // Running (its progress and Cancel show only after 200 ms, which a split
  // report of 10^7 keys may not need).
  await expect(page.locator('.results')).toHaveAttribute('aria-busy', 'true');
  // While it runs the page answers: typing into another field is immediate.
  const clicks = await page.evaluate(async () => {
    const started = performance.now();
    let frames = 0;
    while (performance.now() - started < 1000) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      frames++;
    }
    return frames;
  });
  expect(clicks).toBeGreaterThan(10);
  await expect(page.getByTestId('total-keys')).toHaveText('10000000', { timeout: 150_000 });
  const moved = Number(await page.getByTestId('moved-jump').textContent());
  // 1/6 of 10^7 keys move, give or take a few standard deviations (σ ≈ 1179).
  expect(Math.abs(moved - 10_000_000 / 6)).toBeLessThan(6000);
  await expect(page.getByTestId('moved-jumpback')).toHaveText(/^\d+$/);
  await page.waitForTimeout(1500); // charts and tables render
  const longTasks = await longTasksSinceMark(page, mark);
  expect(longTasks.filter((duration) => duration > 100), `long tasks: ${longTasks.join(', ')}`).toEqual([]);
});

test('a dense flow matrix is drawn without blocking the main thread; its CSV is made on Download', async ({ page }) => {
  // modulo 1000 -> 1001 over keys 0..999999 sends every key to a cell of its
  // own: 10^6 non-zero cells of 1,001,000. Building their CSV when the card
  // was drawn took about 260 ms of the main thread in a Chromium trace.
  await page.goto('./#view=resize&algo=modulo&from=1000&to=1001&keys=0..9');
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  await chartsDrawn(page);
  await startLongTaskLog(page);
  await page.locator('textarea[name="keys"]').fill('0..999999');
  await expect(page.getByTestId('total-keys')).toHaveText('1000000', { timeout: 60_000 });
  await expect(page.getByTestId('moved-modulo')).toHaveText('999000');
  await page.waitForTimeout(1500); // charts and tables render
  const { tasks, described } = await stopLongTaskLog(page);
  expect(tasks.filter((task) => task.ms > 100), described).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('flow-csv-modulo').click()]);
  const lines = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(lines.length).toBe(1_000_002); // the header, 10^6 cells and the empty string after the last CRLF
  expect(lines.slice(0, 3)).toEqual(['from,to,keys', '0,0,1', '0,2,1']);
  expect(lines.at(-2)).toBe('999,999,1');
  expect(lines.at(-1)).toBe('');
});

test('a long script in the console can be cancelled', async ({ page }) => {
  await page.goto('./#view=exercise&script=' + encodeURIComponent('KEYS random:300000000:5\nMOVED 1000 1001\n'));
  await expect(page.getByTestId('cancel')).toBeVisible();
  await page.waitForTimeout(500);
  await page.getByTestId('cancel').click();
  // The output streams: what was printed before Cancel is kept for Download.
  await expect(page.locator('.status')).toHaveText(/^Cancelled(: no output| after [\d,]+ output lines? \(Download has them\))\.$/);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('cancel')).toBeVisible();
  await page.getByTestId('cancel').click();
  await page.getByLabel('Preset').selectOption({ label: '10 → 12 buckets on 10,000 keys' });
  await expect(page.getByTestId('exercise-output')).toContainText('moved: 1653 of 10000');
});

for (const reducedMotion of ['reduce', 'no-preference'] as const) {
  test(`progress bar animation follows prefers-reduced-motion: ${reducedMotion}`, async ({ page }) => {
    // Records whether a visible progress bar was ever indeterminate (the animated kind).
    await page.addInitScript(() => {
      const w = window as unknown as { sawIndeterminate: boolean };
      w.sawIndeterminate = false;
      new MutationObserver(() => {
        for (const bar of document.querySelectorAll('progress')) {
          if (bar.matches(':indeterminate') && bar.closest('[hidden]') === null) w.sawIndeterminate = true;
        }
      }).observe(document, { subtree: true, attributes: true, childList: true });
    });
    await page.emulateMedia({ reducedMotion });
    // The console shows its panel as a script starts, before any progress
    // (a report view shows its panel after 200 ms, by when its workers
    // have mostly reported progress, and then draws that at once).
    await page.goto('./#view=exercise&script=' + encodeURIComponent('KEYS random:300000000:5\nMOVED 1000 1001\n'));
    await expect(page.getByTestId('cancel')).toBeVisible();
    await page.getByTestId('cancel').click();
    await expect(page.locator('.status')).toHaveText(/^Cancelled/);
    const saw = await page.evaluate(() => (window as unknown as { sawIndeterminate: boolean }).sawIndeterminate);
    expect(saw).toBe(reducedMotion === 'no-preference');
  });
}
