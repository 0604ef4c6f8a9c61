// Balance: how many keys each of n buckets holds, against the binomial
// expectation (mean total/n, variance total·p·(1−p) with p = 1/n).

import { CancelledError, EngineError, engine, keySpec } from '../engine/client';
import type { LoadItem, LoadReply } from '../engine/protocol';
import { parseCount, progressPanel } from '../ui/controls';
import { fixed, grouped, h } from '../ui/dom';
import { virtualTable } from '../ui/virtualTable';
import {
  type AppContext,
  type ViewInstance,
  debounce,
  figure,
  loadCharts,
  countField,
  reportKeysField,
  stateAlgorithmPicker,
} from './context';
import { exampleLinks } from './compute';

export const MAX_LOAD_BUCKETS = 1_000_000;

export function binomialBand(total: number, n: number): { mean: number; sigma: number } {
  const p = 1 / n;
  return { mean: total * p, sigma: Math.sqrt(total * p * (1 - p)) };
}

export function balanceView(context: AppContext): ViewInstance {
  const { state } = context;
  const progress = progressPanel();
  const results = h('div', { class: 'results' });
  let generation = 0;
  const rerun = debounce(() => void run(), 300);
  const nField = countField(context, 'n', 'Buckets n', rerun);
  const keysField = reportKeysField(context, rerun);
  const picker = stateAlgorithmPicker(context, rerun);
  progress.onCancel = () => engine.jobs.cancel();

  async function run(): Promise<void> {
    const current = ++generation;
    engine.jobs.cancel();
    nField.setError(null);
    keysField.setError(null);
    const n = parseCount(state.n, 'bucket count', 1, MAX_LOAD_BUCKETS);
    if (typeof n === 'string') {
      nField.setError(`${n} (a load report keeps one counter per bucket)`);
      results.replaceChildren();
      progress.finish('');
      return;
    }
    progress.start('Starting…');
    try {
      const reply = await engine.jobs.request({ kind: 'load', algos: state.algos, keys: keySpec(state.keys), n }, (p) => {
        if (current === generation) progress.update(p);
      });
      if (current !== generation) return;
      progress.finish('');
      render(reply);
    } catch (error) {
      if (current !== generation) return;
      if (error instanceof CancelledError) {
        progress.finish('Cancelled. Change an input to run the report again.');
        results.replaceChildren();
        return;
      }
      progress.finish('');
      const message = error instanceof Error ? error.message : String(error);
      const target = error instanceof EngineError ? { keys: keysField, n: nField }[error.field as 'keys'] : undefined;
      if (target) {
        target.setError(message);
        results.replaceChildren();
      } else results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
    }
  }

  function render(reply: LoadReply): void {
    const table = h(
      'table',
      { class: 'summary' },
      h('caption', {}, `Balance of ${grouped(reply.keyCount)} keys`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Algorithm', 'Keys', 'Min', 'Max', 'Mean', 'Max / mean', 'χ² / dof'].map((label, i) =>
            h('th', { scope: 'col', class: i ? 'num' : undefined }, label),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...reply.items.map((item) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, item.algorithm)),
            h('td', { class: 'num', 'data-testid': `load-total-${item.algorithm}` }, String(item.total)),
            h('td', { class: 'num' }, String(item.min)),
            h('td', { class: 'num' }, String(item.max)),
            h('td', { class: 'num' }, fixed(item.mean, 2)),
            h('td', { class: 'num', 'data-testid': `max-over-mean-${item.algorithm}` }, fixed(item.maxOverMean, 4)),
            h('td', { class: 'num' }, item.degreesOfFreedom ? `${fixed(item.chiSquare, 1)} / ${item.degreesOfFreedom} = ${fixed(item.chiSquare / item.degreesOfFreedom, 3)}` : '—'),
          ),
        ),
      ),
    );
    const note = h(
      'p',
      { class: 'hint' },
      'χ²/dof near 1 is what a uniform spread gives; the band is the binomial mean ± 2σ, which about 95% of buckets fall inside.',
    );
    results.replaceChildren(table, note, ...(context.embedded ? [] : [h('div', { class: 'cards' }, ...reply.items.map(card))]));
  }

  function card(item: LoadItem): HTMLElement {
    const band = binomialBand(item.total, item.n);
    let outside = 0;
    for (const load of item.loads) if (Math.abs(load - band.mean) > 2 * band.sigma) outside++;
    return h(
      'article',
      { class: 'card' },
      h('h3', {}, h('code', {}, item.algorithm), ` among ${grouped(item.n)} buckets`),
      figure({
        title: `Keys per bucket, ${item.algorithm}`,
        summary: `Mean ${fixed(band.mean, 1)}, σ ${fixed(band.sigma, 1)}; ${grouped(outside)} of ${grouped(item.n)} buckets (${fixed((outside / item.n) * 100, 1)}%) lie outside mean ± 2σ.`,
        draw: async (container) => {
          (await loadCharts()).loadHistogram(container, item.loads, band);
        },
        table: () =>
          virtualTable({
            caption: `Keys per bucket, ${item.algorithm}`,
            columns: [{ label: 'bucket', numeric: true }, { label: 'keys', numeric: true }, { label: 'within mean ± 2σ' }],
            rowCount: item.n,
            cell: (row, column) =>
              column === 0 ? String(row) : column === 1 ? String(item.loads[row]) : Math.abs(item.loads[row]! - band.mean) > 2 * band.sigma ? 'no' : 'yes',
          }),
      }),
    );
  }

  const examples = exampleLinks(context, [
    ['#view=balance&algo=jump,jumpback,modulo&n=100&keys=random:1000000:1', '10^6 random keys in 100 buckets'],
    ['#view=balance&algo=jump,jumpback,modulo&n=100&keys=0..9999', 'sequential keys (modulo looks perfect)'],
    ['#view=balance&algo=jump,jumpback&n=100000&keys=random:10000000:3', '10^7 keys in 10^5 buckets'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Balance: how evenly are the keys spread?'),
    h('div', { class: 'inputs' }, nField.root, keysField.root, picker),
    h('p', { class: 'hint' }, `Bucket counts 1..${grouped(MAX_LOAD_BUCKETS)} (one counter per bucket).`),
    examples,
    progress.root,
    results,
  );
  void run();
  return {
    root,
    destroy: () => {
      rerun.cancel();
      generation++;
      engine.jobs.cancel();
    },
  };
}
