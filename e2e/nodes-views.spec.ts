import { expect, test, type Page } from '@playwright/test';
import { loadJumphash } from '../wasm/src/index.js';
import { defaultState, encodeFragment, type State } from '../web/src/url/index';
import { expectAccessible, settle, snap, watchConsole } from './helpers';

// Compute, Balance and Compare on named nodes (issue 9, items 3 and 4):
// Compute shows each algorithm's node for a key (and one algorithm's error
// without hiding the others), Balance compares each node's load with its
// fair share (weights honoured where the algorithm honours them), Compare
// lists every algorithm of the registry with the state memory the core
// reports, the embed page shows a node scenario, and all pass axe in both
// themes. Expected placements come from the wasm package itself in Node:
// the page must show what the core computes.

const CACHES = Array.from({ length: 10 }, (_, i) => `cache-${i + 1}`);
const jh = await loadJumphash();
const registry = jh.algorithms();

/** A link to `view` on a node list, written by the page's own encoder. */
async function nodeLink(view: State['view'], extra: Partial<State>): Promise<string> {
  const state: State = { ...defaultState(), view, topology: 'nodes', nodes: CACHES.join('\n'), ...extra };
  return `#${await encodeFragment(state)}`;
}

/** The node `key` (as typed) lands on under `algo` on `nodes`, from the core. */
function expectedNode(algo: string, nodes: string[], key: string): string {
  const cluster = jh.cluster(algo, { kind: 'nodes', nodes: nodes.map((name) => ({ name })) });
  try {
    return cluster.nodes[cluster.bucket(key)]!.name;
  } finally {
    cluster.dispose();
  }
}

test('Compute on a node list by link: every algorithm’s node, one algorithm’s error shown for it alone', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const algos = ['ketama', 'rendezvous', 'maglev', 'memento', 'jump'];
  const key = '"alice"';
  await page.goto(`./${await nodeLink('compute', { algos, key })}`);
  await expect(page.getByTestId('topology-nodes')).toBeChecked();
  await expect(page.locator('input[name="n"]')).toBeHidden();
  for (const algo of algos) {
    await expect(page.getByTestId(`node-${algo}`), algo).toHaveText(expectedNode(algo, CACHES, key));
  }
  // jump on a list indexes it: its node is the list's entry at jump's bucket among 10.
  const jumpBucket = jh.bucket('jump', key, CACHES.length);
  await expect(page.getByTestId('node-jump')).toHaveText(CACHES[jumpBucket]!);
  await expect(page.getByTestId('bucket-jump')).toHaveText(String(jumpBucket));
  // No jump history on a node list.
  await expect(page.getByTestId('trace-figure')).toHaveCount(0);
  await snap(page, testInfo, 'nodes-compute');

  // A Maglev table smaller than the list fails Maglev only.
  await page.getByTestId('opts').fill('maglev.table=7');
  await expect(page.getByTestId('error-maglev')).toContainText('table');
  await expect(page.getByTestId('node-maglev')).toHaveCount(0);
  await expect(page.getByTestId('node-ketama')).toHaveText(expectedNode('ketama', CACHES, key));
  await expect(page.getByTestId('node-jump')).toHaveText(CACHES[jumpBucket]!);
  expect(page.url()).toContain('maglev.table');
  expect(problems).toEqual([]);
});

test('Compute on counts: node-set algorithms show their node too, traces stay for bucket-count ones', async ({ page }) => {
  await page.goto('./#view=compute&algo=jump,rendezvous&key=42&n=100&trace=1000');
  await expect(page.getByTestId('bucket-jump')).toHaveText('43');
  const rendezvous = jh.bucket('rendezvous', '42', 100);
  await expect(page.getByTestId('bucket-rendezvous')).toHaveText(String(rendezvous));
  await expect(page.getByTestId('node-rendezvous')).toHaveText(`node "${rendezvous}"`);
  await expect(page.locator('[data-testid="trace-figure"] canvas')).toBeVisible();
  await expect(page.getByTestId('trace-figure')).toContainText('jump');
  await expect(page.getByTestId('trace-figure').locator('.chart-summary')).not.toContainText('rendezvous');
});

test('Compare on a node scenario lists every algorithm with the state memory the core reports', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  await page.goto(`./${await nodeLink('compare', { steps: '-cache-3', keys: 'random:20000:1' })}`);
  await expect(page.getByTestId('compare-moved-ketama')).toBeVisible({ timeout: 90_000 });
  await settle(page);
  expect(registry.length, 'the issue counts 14 algorithms').toBe(14);
  await expect(page.locator('[data-testid^="compare-row-"]')).toHaveCount(registry.length);
  await expect(page.locator('[data-testid^="compare-error-"]')).toHaveCount(0);
  for (const info of registry) {
    await expect(page.getByTestId(`compare-row-${info.name}`)).toBeVisible();
    await expect(page.getByTestId(`compare-weights-${info.name}`)).toHaveText(info.weights ? 'honoured' : 'ignored');
    const bytes = Number(await page.getByTestId(`compare-state-${info.name}`).getAttribute('data-bytes'));
    // The core's own figure for the same placement.
    const cluster = jh.cluster(info.name, { kind: 'nodes', nodes: CACHES.map((name) => ({ name })) });
    expect(bytes, info.name).toBe(cluster.stateBytes);
    cluster.dispose();
  }
  for (const ring of ['ketama', 'libketama', 'nginx', 'groupcache', 'envoy-ring', 'maglev']) {
    const bytes = Number(await page.getByTestId(`compare-state-${ring}`).getAttribute('data-bytes'));
    expect(bytes, ring).toBeGreaterThan(0);
  }
  // Removing cache-3: memento moves only its keys (about a tenth), jump on the list renumbers most of the rest.
  const movedShare = async (algo: string) => {
    const text = (await page.getByTestId(`compare-moved-${algo}`).textContent()) ?? '';
    const match = /\(([\d.]+)%\)/.exec(text);
    expect(match, `${algo}: ${text}`).not.toBeNull();
    return Number(match![1]);
  };
  expect(await movedShare('memento')).toBeLessThan(12);
  expect(await movedShare('jump')).toBeGreaterThan(50);
  await snap(page, testInfo, 'nodes-compare');

  // An edit keeps the old report, marked out of date, until the new one replaces it.
  await page.locator('textarea[name="keys"]').fill('random:20000:2');
  await expect(page.getByTestId('out-of-date')).toBeVisible();
  await expect(page.locator('.results')).toHaveAttribute('aria-busy', 'true');
  await expect(page.locator('[data-testid^="compare-row-"]')).toHaveCount(registry.length);
  await expect(page.getByTestId('out-of-date')).toHaveCount(0, { timeout: 90_000 });
  await expect(page.locator('.results')).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.locator('[data-testid^="compare-row-"]')).toHaveCount(registry.length);
  expect(problems).toEqual([]);
});

test('Balance with weights: loads against fair shares, weights honoured only where the algorithm honours them', async ({ page }, testInfo) => {
  const nodes = ['small-1', 'small-2', 'small-3', 'big*3'];
  await page.goto(`./${await nodeLink('balance', { algos: ['ketama', 'rendezvous'], nodes: nodes.join('\n'), keys: 'random:200000:1' })}`);
  await expect(page.getByTestId('load-total-ketama')).toHaveText('200000');
  await expect(page.getByTestId('load-total-rendezvous')).toHaveText('200000');
  await expect(page.getByTestId('weights-ketama')).toHaveText(registry.find((a) => a.name === 'ketama')!.weights ? 'honoured' : 'ignored');
  await expect(page.getByTestId('weights-rendezvous')).toHaveText(registry.find((a) => a.name === 'rendezvous')!.weights ? 'honoured' : 'ignored');

  const rows = async (algo: string) => {
    const table = page.getByTestId(`node-table-${algo}`);
    await expect(table.locator('tbody tr:not([aria-hidden])')).toHaveCount(4);
    return table.locator('tbody tr:not([aria-hidden])').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td,th'), (cell) => cell.textContent ?? '')),
    );
  };
  // ketama honours weights: big's fair share is 3/6 of the keys, and its load is near it.
  const ketama = await rows('ketama');
  const big = ketama.find((row) => row[0] === 'big')!;
  expect(big[1]).toBe('3');
  expect(Number(big[3])).toBeCloseTo(100000, 0);
  expect(Number(big[2])).toBeGreaterThan(80000);
  expect(Number(big[2])).toBeLessThan(120000);
  // rendezvous ignores weights: every fair share is a quarter, and big holds about a quarter.
  const rendezvous = await rows('rendezvous');
  for (const row of rendezvous) expect(Number(row[3]), row[0]).toBeCloseTo(50000, 0);
  const bigEqual = rendezvous.find((row) => row[0] === 'big')!;
  expect(Number(bigEqual[2])).toBeGreaterThan(45000);
  expect(Number(bigEqual[2])).toBeLessThan(55000);
  // The sum of the loads is the key count.
  expect(ketama.reduce((sum, row) => sum + Number(row[2]), 0)).toBe(200000);
  await snap(page, testInfo, 'nodes-balance-weights');

  // One algorithm's error (a Maglev table smaller than the list) leaves the others' loads.
  await page.locator('input[name="algo"][value="maglev"]').check();
  await expect(page.getByTestId('load-total-maglev')).toHaveText('200000');
  await page.getByTestId('opts').fill('maglev.table=3');
  await expect(page.getByTestId('error-maglev')).toContainText('table');
  await expect(page.getByTestId('load-total-maglev')).toHaveCount(0);
  await expect(page.getByTestId('load-total-ketama')).toHaveText('200000');
  await expect(page.getByTestId('load-total-rendezvous')).toHaveText('200000');
  await expect(page.getByTestId('error')).toHaveCount(0);
});

test('the embed page shows a node scenario’s view', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const algos = ['ketama', 'memento', 'jump'];
  await page.goto(`./embed.html${await nodeLink('compute', { algos, key: '42', theme: 'dark' })}`);
  for (const algo of algos) await expect(page.getByTestId(`node-${algo}`), algo).toHaveText(expectedNode(algo, CACHES, '42'));
  await expectAccessible(page, testInfo, 'embed-nodes-compute-dark');
  await snap(page, testInfo, 'embed-nodes-compute-dark');

  await page.goto(`./embed.html${await nodeLink('balance', { algos: ['ketama', 'jump'], keys: 'random:50000:2', theme: 'light' })}`);
  await expect(page.getByTestId('load-total-ketama')).toHaveText('50000');
  await expect(page.getByTestId('highest-share-jump')).toHaveText(/^cache-\d+: \d\.\d\d×$/);
  await snap(page, testInfo, 'embed-nodes-balance-light');
  expect(problems).toEqual([]);
});

const ACCESSIBLE: { view: State['view']; extra: Partial<State>; ready: (page: Page) => Promise<void> }[] = [
  { view: 'compute', extra: { algos: ['ketama', 'jump'], key: '7' }, ready: (page) => expect(page.getByTestId('node-ketama')).toHaveText(/^cache-/) },
  {
    view: 'balance',
    extra: { algos: ['ketama', 'jump'], keys: 'random:20000:1' },
    ready: (page) => expect(page.getByTestId('load-total-ketama')).toHaveText('20000'),
  },
  {
    view: 'compare',
    extra: { steps: '-cache-3', keys: 'random:5000:1' },
    ready: (page) => expect(page.getByTestId('compare-moved-ketama')).toBeVisible({ timeout: 60_000 }),
  },
];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });
    for (const { view, extra, ready } of ACCESSIBLE) {
      test(`${view} on a node list is accessible`, async ({ page }, testInfo) => {
        test.setTimeout(90_000);
        const problems = watchConsole(page);
        await page.goto(`./${await nodeLink(view, extra)}`);
        await ready(page);
        await settle(page);
        await expect(page.getByTestId('error')).toHaveCount(0);
        await expectAccessible(page, testInfo, `nodes-${view}-${scheme}`);
        await snap(page, testInfo, `nodes-${view}-${scheme}`);
        expect(problems).toEqual([]);
      });
    }
  });
}
