import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { cliStdout, progressPanel } from './helpers';

// Reports over large key sets run on every core: the page splits a resize or
// a load across workers by key position (?workers=N sets how many; by
// default navigator.hardwareConcurrency), and one worker merges their runs
// with the core. The merged report is exactly one worker's (the counts, the
// flow matrix and the moved keys, as downloads) and the CLI's; Cancel stops
// every worker.

test.setTimeout(240_000);
test.use({ trace: 'off' });

const KEYS = 'random:3000000:5'; // above 2 x 2^20 keys: split in two

/** The engine workers the page runs now (the quick lane's and the reports'). */
function engineWorkers(page: Page): number {
  return page.workers().filter((worker) => /\/worker-[\w-]+\.js$/.test(worker.url())).length;
}

/** A request the page posted to a worker: its kind, where a run starts (splitRun's first grant), and whether a merge is into a run. */
interface PostedRequest {
  kind: string;
  begin?: number;
  into?: boolean;
}

/** Records the requests the page posts to its workers, from its next load on (postedRequests). */
async function recordRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const posted: { kind: string; begin?: number; into?: boolean }[] = [];
    (window as unknown as { postedRequests: typeof posted }).postedRequests = posted;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const request = (message as { request?: { kind?: string; start?: { begin: number }; into?: number } } | null)?.request;
      if (request?.kind) posted.push({ kind: request.kind, ...(request.start ? { begin: request.start.begin } : {}), ...(request.into !== undefined ? { into: true } : {}) });
      return (post as (...args: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
}

/** The requests recorded since the page loaded (recordRequests). */
function postedRequests(page: Page): Promise<PostedRequest[]> {
  return page.evaluate(() => (window as unknown as { postedRequests: PostedRequest[] }).postedRequests);
}

/** The progress panel's closing message (a report over a million keys or more says how many workers counted it). */
function closingMessage(page: Page): Promise<string | null> {
  return progressPanel(page).text.textContent();
}

async function download(page: Page, testid: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return readFileSync(await file.path(), 'utf8');
}

/** The resize report as the page shows it and downloads it, with `workers` workers. */
async function resizeWith(page: Page, workers: number) {
  await page.goto(`./?workers=${workers}#view=resize&algo=jump,jumpback&from=10&to=12&keys=${KEYS}`);
  await expect(page.getByTestId('total-keys')).toHaveText('3000000', { timeout: 120_000 });
  const report = {
    jump: await page.getByTestId('moved-jump').textContent(),
    jumpback: await page.getByTestId('moved-jumpback').textContent(),
    minimum: await page.getByTestId('minimum-jump').textContent(),
    flows: await download(page, 'flow-csv-jump'),
    movedKeys: await download(page, 'moved-csv-jumpback'),
  };
  // The bar ends where the last progress reported put it, drawn or not
  // (ProgressPanel.finish): all of the key lookups.
  const { bar } = progressPanel(page);
  const barEnd = { value: await bar.getAttribute('value'), max: await bar.getAttribute('max') };
  return { report, workers: engineWorkers(page), done: await closingMessage(page), barEnd };
}

test('a resize split across two workers is exactly one worker’s, and the CLI’s', async ({ page }) => {
  const one = await resizeWith(page, 1);
  const two = await resizeWith(page, 2);
  expect(two.workers, 'the quick lane and two report workers').toBe(3);
  expect(one.workers, 'the quick lane and one report worker').toBe(2);
  expect(two.report).toEqual(one.report);
  expect(one.done).toMatch(/^Done in \d+\.\d\d s: 3,000,000 keys × 2 resize report\(s\)\.$/);
  expect(two.done).toMatch(/^Done in \d+\.\d\d s on 2 workers: 3,000,000 keys × 2 resize report\(s\)\.$/);
  expect(one.barEnd).toEqual({ value: '6000000', max: '6000000' });
  expect(two.barEnd).toEqual({ value: '6000000', max: '6000000' });
  expect(two.report.flows.split('\n').length, 'a header, 10 staying flows and 20 moving ones').toBeGreaterThan(30);
  expect(two.report.movedKeys.split('\n').length).toBeGreaterThan(100);
  for (const algo of ['jump', 'jumpback'] as const) {
    const cli = /moved: (\d+) of 3000000/.exec(cliStdout(`ALGO ${algo}\nKEYS ${KEYS}\nMOVED 10 12\n`))?.[1];
    expect(two.report[algo]).toBe(cli);
  }
});

test('a resize split across three workers on two cores, whose runs may be stolen from, is exactly one worker’s', async ({ page }) => {
  // Three workers on this project's two cores run unevenly, so a worker
  // done with its run steals the keys another has not been granted yet
  // (split.ts, RunScheduler): the merged runs are no longer thirds. The
  // runs started are counted for the record, not asserted (the host decides).
  await recordRequests(page);
  const keys = 'random:12000000:3';
  const reportWith = async (workers: number) => {
    await page.goto(`./?workers=${workers}#view=resize&algo=jump,jumpback&from=10&to=12&keys=${keys}`);
    await expect(page.getByTestId('total-keys')).toHaveText('12000000', { timeout: 120_000 });
    const report = {
      jump: await page.getByTestId('moved-jump').textContent(),
      jumpback: await page.getByTestId('moved-jumpback').textContent(),
      flows: await download(page, 'flow-csv-jumpback'),
      movedKeys: await download(page, 'moved-csv-jump'),
    };
    // Its time left out.
    return { report, done: (await closingMessage(page))?.replace(/ in \d+\.\d\d s/, '') };
  };
  const { report: one, done: oneDone } = await reportWith(1);
  const { report: three, done: threeDone } = await reportWith(3);
  expect(oneDone).toBe('Done: 12,000,000 keys × 2 resize report(s).');
  expect(threeDone).toBe('Done on 3 workers: 12,000,000 keys × 2 resize report(s).');
  expect(engineWorkers(page), 'the quick lane and three report workers').toBe(4);
  const starts = (await postedRequests(page)).flatMap(({ kind, begin }) => (kind === 'splitRun' && begin !== undefined ? [begin] : []));
  test.info().annotations.push({ type: 'runs', description: `${starts.length} runs started at keys ${starts.sort((a, b) => a - b).join(', ')}` });
  expect(starts.length).toBeGreaterThanOrEqual(3);
  expect(three).toEqual(one);
});

test('a load split across two workers is exactly one worker’s', async ({ page }) => {
  const loads = async (workers: number) => {
    await page.goto(`./?workers=${workers}#view=balance&algo=jump,jumpback&n=1000&keys=${KEYS}`);
    await expect(page.getByTestId('load-total-jump')).toHaveText('3000000', { timeout: 120_000 });
    const values = await Promise.all(
      ['load-total-jump', 'max-over-mean-jump', 'load-total-jumpback', 'max-over-mean-jumpback'].map((id) => page.getByTestId(id).textContent()),
    );
    return { values, done: await closingMessage(page) };
  };
  const { values: one, done: oneDone } = await loads(1);
  const { values: two, done: twoDone } = await loads(2);
  expect(engineWorkers(page)).toBe(3);
  expect(two).toEqual(one);
  // The closing message says how many workers counted the keys, as the Resize view's does.
  expect(oneDone).toMatch(/^Done in \d+\.\d\d s: 3,000,000 keys × 2 balance report\(s\)\.$/);
  expect(twoDone).toMatch(/^Done in \d+\.\d\d s on 2 workers: 3,000,000 keys × 2 balance report\(s\)\.$/);
  const cli = cliStdout(`KEYS ${KEYS}\nLOAD 1000\n`);
  const max = Math.max(...[...cli.matchAll(/^\d+: (\d+)$/gm)].map((match) => Number(match[1])));
  expect(Number(two[1])).toBeCloseTo(max / 3000, 4);
});

test('a consistent resize that fills few flow cells splits from fewer keys than one that fills them all', async ({ page }) => {
  // jumpback 1000 -> 1001 carries a 1,001,000-cell flow matrix a run, but as a
  // consistent algorithm fills about 2,000 of its cells; modulo fills them all
  // (splitWorkers.ts, expectedPassedCounts: the page learns which algorithms are
  // consistent from the engine). Over 4,100,000 keys only the first splits.
  await recordRequests(page);
  const keys = 'random:4100000:5';
  const grantsOf = async (algo: string, workers: number) => {
    await page.goto(`./?workers=${workers}#view=resize&algo=${algo}&from=1000&to=1001&keys=${keys}`);
    await expect(page.getByTestId('total-keys')).toHaveText('4100000', { timeout: 120_000 });
    const posted = await postedRequests(page);
    return {
      grants: posted.filter(({ kind }) => kind === 'splitRun').length,
      moved: await page.getByTestId(`moved-${algo}`).textContent(),
      flows: await download(page, `flow-csv-${algo}`),
    };
  };
  const split = await grantsOf('jumpback', 2);
  expect(split.grants, 'jumpback 1000 -> 1001 over 4,100,000 keys, on two workers').toBeGreaterThan(2);
  expect({ ...split, grants: 0 }).toEqual({ ...(await grantsOf('jumpback', 1)), grants: 0 });
  expect((await grantsOf('modulo', 2)).grants, 'modulo 1000 -> 1001: not split').toBe(0);
});

/**
 * The Resize view's moved keys for `algo` from `from` to `to` buckets with
 * `workers` workers, once its report over `total` keys is on screen: the
 * moved count and the moved-keys CSV. The keys go in the page's address,
 * or (`pasted`) are handed to the keys box as a Ctrl+V would, for a list
 * too long for an address.
 */
async function movedKeysWith(page: Page, workers: number, report: { algo: string; from: number; to: number; keys: string; total: string; pasted?: boolean }) {
  const { algo, from, to, keys, total, pasted } = report;
  await page.goto(`./?workers=${workers}#view=resize&algo=${algo}&from=${from}&to=${to}&keys=${pasted ? '0..9' : encodeURIComponent(keys)}`);
  if (pasted) {
    await expect(page.getByTestId('total-keys')).toHaveText('10');
    await page.locator('textarea[name="keys"]').fill('');
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      const box = document.querySelector('textarea[name="keys"]') as HTMLTextAreaElement;
      box.focus();
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, keys);
  }
  await expect(page.getByTestId('total-keys')).toHaveText(total, { timeout: 120_000 });
  return { moved: await page.getByTestId(`moved-${algo}`).textContent(), csv: await download(page, `moved-csv-${algo}`), workers: engineWorkers(page) };
}

/** Two CSVs are the same, compared row by row: a 200,000-row diff would take minutes to print. */
function expectSameRows(csv: string, expected: string): void {
  const [rows, expectedRows] = [csv.trim().split('\n'), expected.trim().split('\n')];
  const differs = rows.findIndex((row, i) => row !== expectedRows[i]);
  expect(differs, `the first row that differs: ${rows[differs]} where one worker lists ${expectedRows[differs]}`).toBe(-1);
  expect(rows.length).toBe(expectedRows.length);
}

test('the moved keys of every run, joined in key order, string keys included', async ({ page }) => {
  // 100 -> 101 moves about one key in 101 (about 22,000 here): each run's
  // sample is short, so the list joins both runs' (the first run's alone
  // fills it above). (1000 -> 1001, with its 10^6 flow cells, is not split
  // below 1.6 x 10^7 keys: engine/splitWorkers.ts.)
  const report = { algo: 'jumpback', from: 100, to: 101, keys: `"first" ${'"k'}0" random:2200000:9 "last" "k1" "k2"`, total: '2200005' };
  const one = await movedKeysWith(page, 1, report);
  const two = await movedKeysWith(page, 2, report);
  expect(two.workers).toBe(3);
  expect(two.csv).toBe(one.csv);
  expect(two.moved).toBe(one.moved);
  // Every moved key is listed (fewer than the list's limit), from both halves.
  const rows = two.csv.trim().split('\n').slice(1);
  expect(rows.length).toBe(Number(two.moved));
  expect(rows.length).toBeGreaterThan(1500);
});

test('one run\'s jobs absorb the other\'s counts when each samples few keys, and the lists join as one worker\'s', async ({ page }) => {
  // A key text of more than a character per 1,024 keys is one run a worker
  // (split.ts, KEYS_PER_TEXT_CHAR), and neither step moves keys enough
  // before the second run for it to skip its sample. 100 -> 101: each run
  // samples about 11,000 keys (at most MERGE_INTO_SAMPLED_KEYS), so the jobs
  // of the run whose worker is done last absorb the other's counts
  // (MergeResizeRequest's `into`), and the moved-key lists are joined there
  // (splitJob.ts, finishRun), whichever run it is. 10 -> 11: about 200,000
  // keys move, the list's limit, a run's half of them too many for that:
  // both runs are collected and merged. String keys on both sides move
  // with them.
  await recordRequests(page);
  const named = (prefix: string) => Array.from({ length: 250 }, (_, i) => `"${prefix}${i}"`).join(' ');
  const keys = `${named('a')} random:2200000:5 ${named('z')}`;
  for (const [from, into] of [[100, true], [10, false]] as const) {
    const report = { algo: 'jumpback', from, to: from + 1, keys, total: '2200500' };
    const one = await movedKeysWith(page, 1, report);
    const two = await movedKeysWith(page, 2, report);
    expect(two.workers).toBe(3);
    const posted = await postedRequests(page);
    expect(posted.filter(({ kind }) => kind.startsWith('merge'))).toEqual([into ? { kind: 'mergeResize', into: true } : { kind: 'mergeResize' }]);
    expect(posted.filter(({ kind, begin }) => kind === 'splitRun' && begin !== undefined)).toHaveLength(2);
    expect(posted.filter(({ kind }) => kind === 'splitCollect')).toHaveLength(into ? 1 : 2);
    expect(two.moved).toBe(one.moved);
    expectSameRows(two.csv, one.csv);
    const rows = two.csv.trim().split('\n');
    expect(rows.some((row) => row.includes('"z')), 'a string key of the second run moved').toBe(true);
  }
});

test('a run that skips its sample, the list being surely full before it, gives the same list', async ({ page }) => {
  // jump 10 -> 12 moves about one key in 6: the first run (5,000,000 keys)
  // moves about 833,000, more than the list's 200,000, so the second run,
  // started with it, skips its sample (engine/split.ts, skippedSamples).
  // Every run is collected then, and merged by a job of its own: the
  // first run's list may be short after all (retakeSamples).
  await recordRequests(page);
  const report = { algo: 'jump', from: 10, to: 12, keys: 'random:10000000:1', total: '10000000' };
  const one = await movedKeysWith(page, 1, report);
  const two = await movedKeysWith(page, 2, report);
  expect(two.workers).toBe(3);
  const merges = (await postedRequests(page)).filter(({ kind }) => kind.startsWith('merge'));
  expect(merges).toEqual([{ kind: 'mergeResize' }]);
  expect(two.moved).toBe(one.moved);
  expectSameRows(two.csv, one.csv);
  expect(two.csv.trim().split('\n').length - 1, 'the list is full').toBe(200_000);
});

test('a run whose skipped sample the list needs after all is run again for it', async ({ page }) => {
  // Pasted keys, one run a worker: the first half is key 0, which jump
  // never moves, the second half random keys. From 10 to 20 buckets at
  // least half the keys move, so the second run skips its sample, expecting
  // the first to fill the list; the first moves none, and the second run
  // is run again for its moved keys (engine/split.ts, samplesToRetake).
  const report = { algo: 'jump', from: 10, to: 20, keys: `${'0\n'.repeat(1_100_000)}random:1100000:7\n`, total: '2200000', pasted: true };
  const one = await movedKeysWith(page, 1, report);
  const two = await movedKeysWith(page, 2, report);
  expect(two.workers).toBe(3);
  expect(two.moved).toBe(one.moved);
  expect(Number(two.moved)).toBeGreaterThan(500_000);
  expectSameRows(two.csv, one.csv);
  expect(two.csv.trim().split('\n').length - 1, 'the list is full, from the second half').toBe(200_000);
});

test('Cancel stops every worker of a split report', async ({ page }) => {
  await page.goto(`./?workers=2#view=resize&algo=jump&from=10&to=12&keys=0..9`);
  await expect(page.getByTestId('total-keys')).toHaveText('10');
  await page.locator('textarea[name="keys"]').fill('random:100000000:1');
  await expect(page.getByTestId('cancel')).toBeVisible();
  const { bar } = progressPanel(page);
  // The bar counts both workers' lookups.
  await expect.poll(async () => Number((await bar.getAttribute('max')) ?? 0), { timeout: 30_000 }).toBe(100_000_000);
  await expect.poll(async () => Number((await bar.getAttribute('value')) ?? 0), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(() => engineWorkers(page)).toBe(3);
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('progress')).toContainText('Cancelled');
  // Both report workers are terminated; only the quick lane's remains.
  await expect.poll(() => engineWorkers(page)).toBe(1);
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
});

test('the split code is loaded while the workers warm up, before the first report splits; not on one worker', async ({ page }) => {
  // Requests from the page and from its workers (Chromium reports both).
  const fetched = (pattern: RegExp) => {
    const urls: string[] = [];
    page.on('request', (request) => {
      if (pattern.test(request.url())) urls.push(request.url());
    });
    return urls;
  };
  const pageSide = fetched(/\/assets\/splitReport-[\w-]+\.js$/);
  const workerSide = fetched(/\/assets\/splitJob-[\w-]+\.js$/);
  await page.goto('./?workers=2#view=resize&algo=jumpback&from=10&to=11&keys=0..99');
  await expect(page.getByTestId('total-keys')).toHaveText('100');
  // No report has split (100 keys); the workers warm up 500 ms after the load.
  await expect.poll(() => pageSide.length, { timeout: 10_000 }).toBe(1);
  await expect.poll(() => workerSide.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  // The first split report finds it there and is exactly one worker's.
  await page.locator('textarea[name="keys"]').fill('random:3000000:5');
  await expect(page.getByTestId('total-keys')).toHaveText('3000000', { timeout: 60_000 });
  expect(pageSide).toHaveLength(1);

  const single = await page.context().newPage();
  const singleFetched: string[] = [];
  single.on('request', (request) => {
    if (/\/assets\/split(Report|Job)-[\w-]+\.js$/.test(request.url())) singleFetched.push(request.url());
  });
  await single.goto('./?workers=1#view=resize&algo=jumpback&from=10&to=11&keys=0..99');
  await expect(single.getByTestId('total-keys')).toHaveText('100');
  await single.waitForTimeout(1500);
  expect(singleFetched).toEqual([]);
});

test('a report started while the workers load the split code keeps them, and the page goes network-idle', async ({ page }) => {
  // The workers' load of the split code is held back 3 s, so that a report
  // starts in the middle of it. A report's start cancels the report before
  // it; when the load was a pending request, that cancel terminated both
  // report workers mid-fetch, their warm-up lost (and Playwright, whose
  // worker's request then never finished, never saw the page network-idle).
  let held = 0;
  await page.context().route(/\/assets\/splitJob-[\w-]+\.js$/, async (route) => {
    held++;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await page.goto('./?workers=2#view=resize&algo=jumpback&from=10&to=11&keys=0..99');
  await expect(page.getByTestId('total-keys')).toHaveText('100');
  await expect.poll(() => held, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  await expect.poll(() => engineWorkers(page)).toBe(3);
  const closed: string[] = [];
  for (const worker of page.workers()) worker.on('close', () => closed.push(worker.url()));
  await page.locator('textarea[name="keys"]').fill('0..9999');
  await expect(page.getByTestId('total-keys')).toHaveText('10000');
  await page.waitForLoadState('networkidle', { timeout: 15_000 });
  expect(closed).toEqual([]);
  expect(engineWorkers(page)).toBe(3);
});
