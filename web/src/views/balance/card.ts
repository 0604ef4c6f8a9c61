// One card of the Balance view (views/balance.ts): one algorithm's loads,
// node by node against the fair shares (a table) or bucket by bucket
// against the binomial band (a histogram and its table). Loaded on first
// use, as the Resize view's cards are: the embed page never shows cards.

import type { LoadResult } from 'jumphash-wasm';
import { fixed, grouped, h } from '../../ui/dom';
import { virtualTable } from '../../ui/virtualTable';
import { figure, loadCharts } from '../context';
import { type NodeShare, binomialBand, nodeShares, shareExtremes } from './shares';

/**
 * A card for one algorithm's load report; `honoursWeights` (its
 * AlgorithmInfo.weights) says what a node's fair share is.
 */
export function loadCard(result: LoadResult, honoursWeights: boolean): HTMLElement {
  const shares = nodeShares(result);
  return shares ? nodeCard(result, shares, honoursWeights) : bucketCard(result);
}

function nodeCard(result: LoadResult, shares: NodeShare[], honoursWeights: boolean): HTMLElement {
  const extremes = shareExtremes(shares);
  const caption = `Keys per node against the fair share, ${result.algorithm}`;
  return h(
    'article',
    { class: 'card', 'data-testid': `node-loads-${result.algorithm}` },
    h('h3', {}, h('code', {}, result.algorithm), ` on ${grouped(result.n)} nodes`),
    h(
      'p',
      { class: 'chart-summary' },
      honoursWeights ? 'Fair share: weight / total weight. ' : 'Weights are ignored: every node’s fair share is 1 / n. ',
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
