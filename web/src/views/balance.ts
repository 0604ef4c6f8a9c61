// Balance: how many keys each bucket or node holds. On n buckets, against the
// binomial expectation (mean total/n, variance total·p·(1−p) with p = 1/n);
// on a node list, each node's load against its fair share (weight / total
// weight for algorithms that honour weights, 1 / n for the others). The
// table is drawn here; the cards, loaded on first use, are ./balance/card.ts.

import type { Field, LoadOutcome, LoadReply } from '../engine/protocol';
import { type FieldControl, parseCount } from '../ui/controls';
import { fixed, grouped, h } from '../ui/dom';
import { scenarioControl } from '../ui/scenario';
import { type AppContext, type ViewInstance, countField, stateAlgorithmPicker } from './context';
import { lazyCards, reportView } from './reportView';
import { chiSquareAgainstShares, nodeShares, shareExtremes } from './balance/shares';
import { algorithmInfo, largestNodeList } from './shared/algorithms';
import { CACHE_NODES_LINK, exampleLinks } from './shared/examples';
import { keysField as makeKeysField } from './shared/keysField';

export const MAX_LOAD_BUCKETS = 1_000_000;

export function balanceView(context: AppContext): ViewInstance {
  const { state } = context;
  const fields: Partial<Record<Field, FieldControl>> = {};
  const report = reportView<'load'>({
    fields,
    scenario: () => scenario,
    build: () => {
      if (scenario.onNodes()) {
        return keysField.withSpec((keys) => ({ kind: 'load' as const, algos: state.algos, keys, n: 1, scenario: scenario.scenario() }));
      }
      const n = parseCount(state.n, 'bucket count', 1, MAX_LOAD_BUCKETS);
      if (typeof n === 'string') {
        nField.setError(`${n} (a load report keeps one counter per bucket)`);
        return null;
      }
      return keysField.withSpec((keys) => ({ kind: 'load' as const, algos: state.algos, keys, n }));
    },
    render,
    summary: (reply) => `${grouped(reply.keyCount)} keys × ${reply.items.length} balance report(s)`,
  });
  const nField = countField(context, 'n', 'Buckets n', report.rerun);
  const keysField = makeKeysField(context, report.rerun, { countAhead: true });
  const picker = stateAlgorithmPicker(context, report.rerun);
  const scenario = scenarioControl(context, { steps: false, countFields: [nField.root], rerun: report.rerun });
  fields.n = nField;
  fields.keys = keysField;
  const { results } = report;

  function render(reply: LoadReply): void {
    const onNodes = reply.items.some((item) => item.result?.nodes);
    const headers = onNodes
      ? ['Algorithm', 'Keys', 'Min', 'Max', 'χ² / dof against the fair shares', 'Weights', 'Most over its fair share', 'Most under']
      : ['Algorithm', 'Keys', 'Min', 'Max', 'Mean', 'Max / mean', 'χ² / dof'];
    const numericUpTo = onNodes ? 4 : 6;
    const table = h(
      'table',
      { class: 'summary' },
      h('caption', {}, `Balance of ${grouped(reply.keyCount)} keys`),
      h('thead', {}, h('tr', {}, ...headers.map((label, i) => h('th', { scope: 'col', class: i && i <= numericUpTo ? 'num' : undefined }, label)))),
      h('tbody', {}, ...reply.items.map((item) => (onNodes ? nodeRow(item, headers.length) : bucketRow(item, headers.length)))),
    );
    const note = h(
      'p',
      { class: 'hint' },
      onNodes
        ? 'On a node list each node is compared with its fair share of the keys: weight / total weight for algorithms that honour weights, ' +
            'an equal share for the others (they ignore weights). 1.00× is exactly fair; χ²/dof near 1 is what chance alone gives. ' +
            'Bucket-count algorithms index the list: node i gets bucket i.'
        : 'χ²/dof near 1 is what a uniform spread gives; the band is the binomial mean ± 2σ, which about 95% of buckets fall inside.',
    );
    const cards = cardsOf(reply);
    results.replaceChildren(h('div', { class: 'table-scroll' }, table), note, ...(cards ? [cards] : []));
  }

  // The cards (charts, per-node tables) load on first use.
  const showCards = lazyCards(() => import('./balance/card'), 'charts');
  function cardsOf(reply: LoadReply): HTMLElement | null {
    const shown = reply.items.flatMap((item) => (item.result ? [item.result] : []));
    if (context.embedded || shown.length === 0) return null;
    const container = h('div', { class: 'cards' });
    showCards(container, ({ loadCard }) => shown.map((result) => loadCard(result, algorithmInfo(context, result.algorithm)?.weights ?? false)));
    return container;
  }

  function algorithmHead(item: LoadOutcome): HTMLElement {
    return h('th', { scope: 'row' }, h('code', {}, item.algorithm));
  }

  /** A row with the algorithm's error across it (its limit, a bad option): the others still show. */
  function errorRow(item: LoadOutcome, columns: number): HTMLElement {
    return h('tr', {}, algorithmHead(item), h('td', { colspan: columns - 1, class: 'field-error', 'data-testid': `error-${item.algorithm}` }, item.error ?? 'No result.'));
  }

  function bucketRow(item: LoadOutcome, columns: number): HTMLElement {
    const result = item.result;
    if (!result) return errorRow(item, columns);
    const head = algorithmHead(item);
    const stats = result.stats;
    return h(
      'tr',
      {},
      head,
      h('td', { class: 'num', 'data-testid': `load-total-${item.algorithm}` }, String(stats.total)),
      h('td', { class: 'num' }, String(stats.min)),
      h('td', { class: 'num' }, String(stats.max)),
      h('td', { class: 'num' }, fixed(stats.mean, 2)),
      h('td', { class: 'num', 'data-testid': `max-over-mean-${item.algorithm}` }, fixed(stats.maxOverMean, 4)),
      h('td', { class: 'num' }, stats.degreesOfFreedom ? `${fixed(stats.chiSquare, 1)} / ${stats.degreesOfFreedom} = ${fixed(stats.chiSquare / stats.degreesOfFreedom, 3)}` : '—'),
    );
  }

  function nodeRow(item: LoadOutcome, columns: number): HTMLElement {
    const result = item.result;
    if (!result) return errorRow(item, columns);
    const head = algorithmHead(item);
    const stats = result.stats;
    const shares = nodeShares(result) ?? [];
    const extremes = shareExtremes(shares);
    const fit = chiSquareAgainstShares(shares);
    const honours = algorithmInfo(context, item.algorithm)?.weights ?? false;
    return h(
      'tr',
      {},
      head,
      h('td', { class: 'num', 'data-testid': `load-total-${item.algorithm}` }, String(stats.total)),
      h('td', { class: 'num' }, String(stats.min)),
      h('td', { class: 'num' }, String(stats.max)),
      h('td', { class: 'num', 'data-testid': `share-chi-${item.algorithm}` }, fit.degreesOfFreedom ? `${fixed(fit.chiSquare, 1)} / ${fit.degreesOfFreedom} = ${fixed(fit.chiSquare / fit.degreesOfFreedom, 3)}` : '—'),
      h('td', { 'data-testid': `weights-${item.algorithm}` }, honours ? 'honoured' : 'ignored'),
      h('td', { 'data-testid': `highest-share-${item.algorithm}` }, extremes ? `${extremes.highest.name}: ${fixed(extremes.highest.ratio, 2)}×` : '—'),
      h('td', { 'data-testid': `lowest-share-${item.algorithm}` }, extremes ? `${extremes.lowest.name}: ${fixed(extremes.lowest.ratio, 2)}×` : '—'),
    );
  }

  const weighted = 'cache-1*1,cache-2*1,cache-3*1,big-1*3,big-2*3';
  const examples = exampleLinks(context, [
    ['#view=balance&algo=jump,jumpback,modulo&n=100&keys=random:1000000:1', '10^6 random keys in 100 buckets'],
    ['#view=balance&algo=jump,jumpback,modulo&n=100&keys=0..9999', 'sequential keys (modulo looks perfect)'],
    ['#view=balance&algo=jump,jumpback&n=100000&keys=random:10000000:3', '10^7 keys in 10^5 buckets'],
    [`#view=balance&algo=ketama,maglev,rendezvous,jump&nodes=${CACHE_NODES_LINK}&keys=random:1000000:1`, '10 memcached servers'],
    [`#view=balance&algo=ketama,rendezvous,maglev,jump&nodes=${weighted}&keys=random:1000000:1`, 'weights: two nodes three times larger'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Balance: how evenly are the keys spread?'),
    h('div', { class: 'inputs' }, scenario.root, nField.root, keysField.root, picker),
    h('p', { class: 'hint' }, `Bucket counts 1..${grouped(MAX_LOAD_BUCKETS)} (one counter per bucket); node lists up to ${grouped(largestNodeList(context))} nodes.`),
    examples,
    report.progress.root,
    results,
  );
  void report.run();
  return {
    root,
    destroy: () => {
      report.destroy();
      keysField.destroy();
    },
  };
}
