// Balance: how many keys each bucket or node holds. On n buckets, against the
// binomial expectation (mean total/n, variance total·p·(1−p) with p = 1/n);
// on a node list, each node's load against its fair share (weight / total
// weight for algorithms that honour weights, 1 / n for the others).

import type { LoadResult } from 'jumphash-wasm';
import type { Field, LoadOutcome, LoadReply } from '../engine/protocol';
import { type FieldControl, parseCount } from '../ui/controls';
import { fixed, grouped, h } from '../ui/dom';
import { scenarioControl } from '../ui/scenario';
import { virtualTable } from '../ui/virtualTable';
import {
  type AppContext,
  type ViewInstance,
  figure,
  loadCharts,
  countField,
  stateAlgorithmPicker,
} from './context';
import { reportView } from './reportView';
import { algorithmInfo, largestNodeList } from './shared/algorithms';
import { CACHE_NODES_LINK, exampleLinks } from './shared/examples';
import { keysField as makeKeysField } from './shared/keysField';

export const MAX_LOAD_BUCKETS = 1_000_000;

export function binomialBand(total: number, n: number): { mean: number; sigma: number } {
  const p = 1 / n;
  return { mean: total * p, sigma: Math.sqrt(total * p * (1 - p)) };
}

/** One node's load against its fair share. */
export interface NodeShare {
  name: string;
  weight: number;
  /** Keys on the node. */
  keys: number;
  /** Keys its fair share is: idealShare × total keys. */
  fair: number;
  /** keys / fair (1 is exactly fair; 0 when the fair share is 0 keys). */
  ratio: number;
}

/**
 * Each node's load against its fair share, from a load report on a node
 * list; null for a report on a bucket count (no nodes).
 */
export function nodeShares(result: LoadResult): NodeShare[] | null {
  if (!result.nodes || !result.idealShares) return null;
  const total = result.stats.total;
  return result.nodes.map((node, i) => {
    const keys = result.loads[i] ?? 0;
    const fair = (result.idealShares![i] ?? 0) * total;
    return { name: node.name, weight: node.weight, keys, fair, ratio: fair > 0 ? keys / fair : 0 };
  });
}

/**
 * Pearson's chi-square of the loads against the fair shares (expected keys
 * idealShare × total per node) with its degrees of freedom (nodes − 1); the
 * core's own statistic compares against equal shares, which a weighted list
 * is not meant to have.
 */
export function chiSquareAgainstShares(shares: NodeShare[]): { chiSquare: number; degreesOfFreedom: number } {
  let chiSquare = 0;
  for (const share of shares) if (share.fair > 0) chiSquare += (share.keys - share.fair) ** 2 / share.fair;
  return { chiSquare, degreesOfFreedom: Math.max(0, shares.length - 1) };
}

/** The most and least loaded nodes relative to their fair shares (ratios keys / fair). */
export function shareExtremes(shares: NodeShare[]): { highest: NodeShare; lowest: NodeShare } | null {
  if (shares.length === 0) return null;
  let highest = shares[0]!;
  let lowest = shares[0]!;
  for (const share of shares) {
    if (share.ratio > highest.ratio) highest = share;
    if (share.ratio < lowest.ratio) lowest = share;
  }
  return { highest, lowest };
}

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
    const cards = context.embedded ? [] : reply.items.flatMap((item) => (item.result ? [card(item.result)] : []));
    results.replaceChildren(h('div', { class: 'table-scroll' }, table), note, ...(cards.length ? [h('div', { class: 'cards' }, ...cards)] : []));
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

  function card(result: LoadResult): HTMLElement {
    const shares = nodeShares(result);
    return shares ? nodeCard(result, shares) : bucketCard(result);
  }

  function nodeCard(result: LoadResult, shares: NodeShare[]): HTMLElement {
    const extremes = shareExtremes(shares);
    const honours = algorithmInfo(context, result.algorithm)?.weights ?? false;
    const caption = `Keys per node against the fair share, ${result.algorithm}`;
    return h(
      'article',
      { class: 'card', 'data-testid': `node-loads-${result.algorithm}` },
      h('h3', {}, h('code', {}, result.algorithm), ` on ${grouped(result.n)} nodes`),
      h(
        'p',
        { class: 'chart-summary' },
        honours ? 'Fair share: weight / total weight. ' : 'Weights are ignored: every node’s fair share is 1 / n. ',
        extremes
          ? `Most over: ${extremes.highest.name} at ${fixed(extremes.highest.ratio, 3)}× its share; most under: ${extremes.lowest.name} at ${fixed(extremes.lowest.ratio, 3)}×.`
          : '',
      ),
      virtualTable({
        caption,
        columns: [
          { label: 'node' },
          { label: 'weight', numeric: true },
          { label: 'keys', numeric: true },
          { label: 'fair share (keys)', numeric: true },
          { label: 'keys / fair share', numeric: true },
        ],
        rowCount: shares.length,
        cell: (row, column) => {
          const share = shares[row]!;
          switch (column) {
            case 0:
              return share.name;
            case 1:
              return String(share.weight);
            case 2:
              return String(share.keys);
            case 3:
              return fixed(share.fair, 1);
            default:
              return `${fixed(share.ratio, 3)}×`;
          }
        },
        testid: `node-table-${result.algorithm}`,
      }),
    );
  }

  function bucketCard(result: LoadResult): HTMLElement {
    const band = binomialBand(result.stats.total, result.n);
    let outside = 0;
    for (const load of result.loads) if (Math.abs(load - band.mean) > 2 * band.sigma) outside++;
    return h(
      'article',
      { class: 'card' },
      h('h3', {}, h('code', {}, result.algorithm), ` among ${grouped(result.n)} buckets`),
      figure({
        title: `Keys per bucket, ${result.algorithm}`,
        summary: `Mean ${fixed(band.mean, 1)}, σ ${fixed(band.sigma, 1)}; ${grouped(outside)} of ${grouped(result.n)} buckets (${fixed((outside / result.n) * 100, 1)}%) lie outside mean ± 2σ.`,
        draw: async (container) => {
          (await loadCharts()).loadHistogram(container, result.loads, band);
        },
        table: () =>
          virtualTable({
            caption: `Keys per bucket, ${result.algorithm}`,
            columns: [{ label: 'bucket', numeric: true }, { label: 'keys', numeric: true }, { label: 'within mean ± 2σ' }],
            rowCount: result.n,
            cell: (row, column) =>
              column === 0 ? String(row) : column === 1 ? String(result.loads[row]) : Math.abs(result.loads[row]! - band.mean) > 2 * band.sigma ? 'no' : 'yes',
          }),
      }),
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
