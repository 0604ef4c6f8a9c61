import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { defaultState, encodeFragment } from '../web/src/url/index';
import { SCREENSHOT_DIR, expectAccessible, settle, snap, watchConsole } from './helpers';

// The Resize view as a scenario editor on named nodes: a link opens a node
// list with a change, each algorithm reports what moved and from where to
// where (the flow matrix, its CSV, the moved keys), bucket-count algorithms
// that renumber the list say so, weights change the shares, a pasted list of
// 1000 servers runs, and the view passes axe in both themes.

const CACHES = Array.from({ length: 10 }, (_, i) => `cache-${i + 1}`);
const KEYS = 'random:100000:1';

/** The link for a node scenario on the Resize view, written by the page's own encoder. */
async function resizeLink(algos: string[], nodes: string[], steps: string, extra: Partial<ReturnType<typeof defaultState>> = {}): Promise<string> {
  const state = { ...defaultState(), view: 'resize' as const, topology: 'nodes' as const, algos, nodes: nodes.join('\n'), steps, keys: KEYS, ...extra };
  return `./#${await encodeFragment(state)}`;
}

async function number(page: Page, testid: string): Promise<number> {
  const text = (await page.getByTestId(testid).textContent()) ?? '';
  expect(text, testid).toMatch(/^\d+$/);
  return Number(text);
}

/** Parses RFC 4180 CSV (quoted fields with doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field, 'the CSV ends with CRLF').toBe('');
  return rows;
}

test('the link is in the readable form the issue names', async () => {
  const link = await resizeLink(['ketama', 'jump', 'memento'], CACHES, '-cache-3');
  expect(link).toContain('view=resize');
  expect(link).toContain('algo=ketama,jump,memento');
  expect(link).toContain('steps=-cache-3');
});

test('bucket counts work as before, and their flow CSV has plain bucket numbers', async ({ page }) => {
  await page.goto('./#view=resize&algo=jump,jumpback&from=10&to=12,11&keys=0..9999');
  await expect(page.getByTestId('moved-jump')).toHaveText('1653');
  await expect(page.getByTestId('moved-jump-1')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('total-keys')).toHaveText('10000');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('flow-csv-jump').click()]);
  const [header, ...rows] = parseCsv(readFileSync(await download.path(), 'utf8'));
  expect(header).toEqual(['from', 'to', 'keys']);
  let moved = 0;
  let total = 0;
  for (const [from, to, keys] of rows as [string, string, string][]) {
    expect(from).toMatch(/^\d$/);
    expect(to).toMatch(/^\d+$/);
    total += Number(keys);
    if (from !== to) {
      moved += Number(keys);
      expect(Number(to), 'jump moves keys only to the new buckets').toBeGreaterThanOrEqual(10);
    }
  }
  expect(total).toBe(10_000);
  expect(moved).toBe(1653);
});

test('remove a middle node: ketama and memento move only its keys, jump on the list renumbers most', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto(await resizeLink(['ketama', 'jump', 'memento'], CACHES, '-cache-3'));
  await expect(page.getByTestId('total-keys')).toHaveText('100000');
  for (const algo of ['ketama', 'memento']) {
    const moved = await number(page, `moved-${algo}`);
    const held = await number(page, `removed-load-${algo}`);
    expect(moved, `${algo} moves exactly cache-3's keys`).toBe(held);
    // About a tenth of the keys lived on cache-3.
    expect(held).toBeGreaterThan(5_000);
    expect(held).toBeLessThan(15_000);
    await expect(page.getByTestId(`renumbers-${algo}`)).toHaveCount(0);
    // Every moving flow leaves cache-3.
    const senders = await page.getByTestId(`flows-${algo}`).locator('tbody tr:not([aria-hidden]) td:first-child').allTextContents();
    expect(senders.length).toBeGreaterThan(0);
    expect(new Set(senders)).toEqual(new Set(['cache-3']));
  }
  const jumpMoved = await number(page, 'moved-jump');
  const jumpHeld = await number(page, 'removed-load-jump');
  expect(jumpMoved, 'jump on a list moves most keys').toBeGreaterThan(50_000);
  expect(jumpMoved).toBeGreaterThan(3 * jumpHeld);
  await expect(page.getByTestId('renumbers-jump')).toContainText('servers[jump(key, n)] renumbers every node after the removed one');
  // The full matrix names the nodes: cache-3's row, no cache-3 column after.
  const matrix = page.getByTestId('flow-matrix-ketama');
  await expect(matrix.locator('tbody th')).toHaveText(CACHES);
  await expect(matrix.locator('thead th')).toHaveText(['from \\ to', ...CACHES.filter((name) => name !== 'cache-3')]);
  // Moved keys with node names.
  await expect(page.getByTestId('moved-list-ketama').locator('tbody tr').first()).toHaveText(/^\d+: cache-3 -> cache-\d+$/);
  expect(problems).toEqual([]);
});

test('the flow CSV lists every non-zero cell with quoted node names', async ({ page }) => {
  await page.goto(await resizeLink(['ketama', 'jump'], CACHES, '-cache-3'));
  await expect(page.getByTestId('total-keys')).toHaveText('100000');
  const held = await number(page, 'removed-load-ketama');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('flow-csv-ketama').click()]);
  expect(download.suggestedFilename()).toBe('flows-ketama-step-1.csv');
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('from,to,keys\r\n"cache-1","')).toBe(true);
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual(['from', 'to', 'keys']);
  let total = 0;
  let fromRemoved = 0;
  for (const [from, to, keys] of rows as [string, string, string][]) {
    expect(keys).toMatch(/^[1-9]\d*$/); // only non-zero cells
    total += Number(keys);
    expect(to).not.toBe('cache-3');
    if (from === 'cache-3') fromRemoved += Number(keys);
    else expect(to, 'under ketama a surviving node keeps its keys').toBe(from);
  }
  expect(total).toBe(100_000);
  expect(fromRemoved).toBe(held);
  // 9 surviving nodes keep their keys (one row each) and cache-3 sends to the others.
  expect(rows.filter(([from, to]) => from === to)).toHaveLength(9);

  // jump renumbers: most surviving nodes send keys to a neighbour.
  const [jumpDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('flow-csv-jump').click()]);
  const jumpRows = parseCsv(readFileSync(await jumpDownload.path(), 'utf8')).slice(1);
  const movers = new Set(jumpRows.filter(([from, to]) => from !== to).map(([from]) => from));
  expect(movers.size).toBeGreaterThanOrEqual(8); // cache-3 .. cache-10
});

test('paste 1000 servers (10.0.0.1:11211 style) and remove one', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  await page.goto(await resizeLink(['ketama', 'memento'], CACHES, '-cache-3'));
  await expect(page.getByTestId('total-keys')).toHaveText('100000');
  const servers = Array.from({ length: 1000 }, (_, i) => `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}:11211`);
  await page.getByTestId('nodes').fill(servers.join('\n'));
  await page.getByTestId('steps').fill('-10.0.1.7:11211');
  await expect(page.getByTestId('nodes-summary')).toHaveText('1000 nodes typed');
  // Only the new report names the pasted servers.
  await expect(page.getByTestId('moved-list-ketama').locator('tbody tr').first()).toHaveText(/^\d+: 10\.0\.1\.7:11211 -> /, { timeout: 60_000 });
  await settle(page);
  for (const algo of ['ketama', 'memento']) {
    const moved = await number(page, `moved-${algo}`);
    expect(moved).toBe(await number(page, `removed-load-${algo}`));
    expect(moved).toBeGreaterThan(20); // about 100 keys of 100000
    expect(moved).toBeLessThan(400);
  }
  await expect(page.getByTestId('moved-list-ketama').locator('tbody tr').first()).toHaveText(/^\d+: 10\.0\.1\.7:11211 -> 10\.0\.\d+\.\d+:11211$/);
  await expect(page.getByTestId('flow-matrix-ketama')).toHaveCount(0); // too large for the full table
  await expect(page.getByTestId('flows-ketama')).toBeVisible();
  expect(page.url()).toContain('#');
  expect(problems).toEqual([]);
});

/** The "after" load of `name` and the mean "after" load of the others, from the loads table. */
async function afterLoads(page: Page, algo: string, name: string): Promise<{ node: number; others: number }> {
  const card = page.getByTestId(`card-${algo}`);
  await card.locator('details.data-table summary').first().click();
  // The table lays its rows out on the next frame once it is open: wait for them.
  const shown = card.getByTestId(`loads-${algo}`).locator('tbody tr:not([aria-hidden])');
  await expect(shown).toHaveCount(11);
  const rows = await shown.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(rows).toHaveLength(11);
  let node = NaN;
  const others: number[] = [];
  for (const [label, , after] of rows as [string, string, string][]) {
    if (label === name) node = Number(after);
    else others.push(Number(after));
  }
  return { node, others: others.reduce((a, b) => a + b, 0) / others.length };
}

test('weights: a node *2 takes about twice the keys where weights count, and not elsewhere', async ({ page }) => {
  await page.goto(await resizeLink(['maglev', 'ketama', 'rendezvous'], CACHES, '+big*2'));
  await expect(page.getByTestId('total-keys')).toHaveText('100000');
  for (const algo of ['maglev', 'ketama']) {
    const { node, others } = await afterLoads(page, algo, 'big');
    expect(node / others, `${algo}: big*2 against a weight-1 node`).toBeGreaterThan(1.6);
    expect(node / others).toBeLessThan(2.4);
  }
  // rendezvous ignores weights: big is one node among eleven.
  const plain = await afterLoads(page, 'rendezvous', 'big');
  expect(plain.node / plain.others).toBeGreaterThan(0.8);
  expect(plain.node / plain.others).toBeLessThan(1.2);
});

test('fail then restore: two steps, each with its own report', async ({ page }) => {
  await page.goto(await resizeLink(['ketama', 'jump'], CACHES, '-cache-3 +cache-3'));
  await expect(page.getByTestId('moved-ketama')).toHaveText(/^\d+$/);
  const removed = await number(page, 'moved-ketama');
  // Restoring cache-3 under ketama brings back exactly the keys that left it.
  expect(await number(page, 'moved-ketama-1')).toBe(removed);
  await page.getByTestId('resize-step').selectOption({ label: '2. +cache-3' });
  await expect(page.getByTestId('card-ketama').locator('h3')).toHaveText('ketama +cache-3');
  // Adding at the end of the list is what jump can do: no renumbering note on
  // this step (the failure before it renumbered the list, and it stays so).
  await expect(page.getByTestId('card-jump').locator('h3')).toHaveText('jump +cache-3');
  await expect(page.getByTestId('renumbers-jump')).toHaveCount(0);
  expect(await number(page, 'moved-jump-1')).toBeLessThan(1.5 * Number(await page.getByTestId('minimum-jump-1').textContent()));
  expect(await number(page, 'moved-jump')).toBeGreaterThan(50_000);
});

test('an algorithm that cannot run shows its error only in its own row and card', async ({ page }) => {
  await page.goto(await resizeLink(['ketama', 'maglev'], CACHES, '-cache-3', { opts: 'maglev.table=7' }));
  await expect(page.getByTestId('moved-ketama')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('error-maglev')).not.toBeEmpty();
  await expect(page.getByTestId('card-error-maglev')).not.toBeEmpty();
  await expect(page.getByTestId('card-ketama').locator('.field-error')).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`node scenario in the ${scheme} scheme: axe and the README screenshot`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    const problems = watchConsole(page);
    await page.goto(await resizeLink(['ketama', 'jump', 'memento'], CACHES, '-cache-3'));
    await expect(page.getByTestId('total-keys')).toHaveText('100000');
    await expect(page.locator('.figure canvas').first()).toBeVisible();
    await settle(page);
    await expectAccessible(page, testInfo, `resize-nodes-${scheme}`);
    await snap(page, testInfo, `resize-nodes-${scheme}`);
    // The README's picture: the summary and the first cards, one screen high.
    const top = await page.locator('.results').boundingBox();
    expect(top).not.toBeNull();
    await page.getByTestId('card-ketama').screenshot({ path: `${SCREENSHOT_DIR}resize-nodes-card-${scheme}.png` });
    await page.screenshot({ path: `${SCREENSHOT_DIR}resize-nodes-readme-${scheme}.png`, fullPage: true, clip: { x: 0, y: top!.y - 8, width: 1280, height: 1000 } });
    expect(problems).toEqual([]);
  });
}
