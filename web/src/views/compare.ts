// Compare: every algorithm on the current scenario — moved fraction, balance,
// lookups per second measured in this browser, memory, middle-bucket removal
// and where it comes from.

import { CancelledError, EngineError, engine, keySpec } from '../engine/client';
import type { CompareReply } from '../engine/protocol';
import { parseCount, progressPanel } from '../ui/controls';
import { fixed, grouped, h, percent } from '../ui/dom';
import { type AppContext, type ViewInstance, countField, debounce, reportKeysField } from './context';
import { MAX_RESIZE_BUCKETS } from './resize';

export function compareView(context: AppContext): ViewInstance {
  const { state } = context;
  const progress = progressPanel();
  const results = h('div', { class: 'results' });
  let generation = 0;
  const rerun = debounce(() => void run(), 400);
  const make = (name: 'from' | 'to' | 'n', label: string) => countField(context, name, label, rerun);
  const fromField = make('from', 'Resize from');
  const toField = make('to', 'to');
  const nField = make('n', 'Balance and speed at n');
  const keysField = reportKeysField(context, rerun);
  progress.onCancel = () => engine.jobs.cancel();

  async function run(): Promise<void> {
    const current = ++generation;
    engine.jobs.cancel();
    for (const f of [fromField, toField, nField, keysField]) f.setError(null);
    const from = parseCount(state.from, 'from', 1, MAX_RESIZE_BUCKETS);
    // Compare takes one resize step: the first of a chain.
    const to = parseCount(state.to.split(/[,\s]+/).filter(Boolean)[0] ?? '', 'to', 1, MAX_RESIZE_BUCKETS);
    const n = parseCount(state.n, 'bucket count', 1, MAX_RESIZE_BUCKETS);
    if (typeof from === 'string') fromField.setError(from);
    if (typeof to === 'string') toField.setError(to);
    if (typeof n === 'string') nField.setError(n);
    if (typeof from === 'string' || typeof to === 'string' || typeof n === 'string') {
      results.replaceChildren();
      return;
    }
    progress.start('Starting…');
    try {
      const reply = await engine.jobs.request({ kind: 'compare', keys: keySpec(state.keys), from, to, n }, (p) => {
        if (current === generation) progress.update(p);
      });
      if (current !== generation) return;
      progress.finish('');
      render(reply, from, to, n);
    } catch (error) {
      if (current !== generation) return;
      if (error instanceof CancelledError) {
        progress.finish('Cancelled. Change an input to measure again.');
        results.replaceChildren();
        return;
      }
      progress.finish('');
      const message = error instanceof Error ? error.message : String(error);
      const target = error instanceof EngineError ? { keys: keysField, from: fromField, to: toField, n: nField }[error.field as 'keys'] : undefined;
      if (target) {
        target.setError(message);
        results.replaceChildren();
      } else results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
    }
  }

  function render(reply: CompareReply, from: number, to: number, n: number): void {
    const headers = [
      'Algorithm',
      `Moved ${from} → ${to}`,
      'Moved / minimum',
      `Max / mean at n = ${n}`,
      'χ² / dof',
      'Worst flow χ² / dof',
      'Lookups per second',
      'Memory',
      'Remove a middle bucket',
      'Expected cost',
      'Source',
    ];
    const table = h(
      'table',
      { class: 'summary compare' },
      h('caption', {}, `All algorithms on ${grouped(reply.keyCount)} keys`),
      h('thead', {}, h('tr', {}, ...headers.map((label, i) => h('th', { scope: 'col', class: i > 0 && i < 7 ? 'num' : undefined }, label)))),
      h(
        'tbody',
        {},
        ...reply.rows.map((row) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, row.info.name), h('br'), h('span', { class: 'muted' }, row.info.title)),
            h('td', { class: 'num', 'data-testid': `compare-moved-${row.info.name}` }, `${grouped(row.moved)} (${percent(row.moved, row.total)})`),
            h('td', { class: 'num' }, row.minimumMovedExpected > 0 ? `${fixed(row.moved / row.minimumMovedExpected, 2)}×` : '—'),
            h('td', { class: 'num' }, fixed(row.maxOverMean, 3)),
            h('td', { class: 'num' }, row.degreesOfFreedom ? fixed(row.chiSquare / row.degreesOfFreedom, 3) : '—'),
            h('td', { class: 'num' }, row.worstFlowChiPerDof === null ? 'not kept' : fixed(row.worstFlowChiPerDof, 2)),
            h('td', { class: 'num' }, `${(row.lookupsPerSecond / 1e6).toFixed(1)} M/s (${row.nsPerLookup.toFixed(1)} ns)`),
            h('td', {}, 'none: a stateless function'),
            h('td', {}, row.info.removesAnyBucket ? 'yes' : 'no: only the last bucket'),
            h('td', {}, row.info.expectedCost),
            h('td', {}, row.info.paper),
          ),
        ),
      ),
    );
    results.replaceChildren(
      h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Comparison table (scrollable)' }, table),
      h(
        'p',
        { class: 'hint' },
        'Lookups per second: the batched buckets() call over 65,536 random keys in this browser’s worker, ',
        'after a warm-up (WebAssembly; includes the copy in and out). Moved / minimum near 1 is consistent hashing; ',
        'modulo moves almost everything. χ²/dof near 1 is uniform. The worst flow χ²/dof shows whether the keys that ',
        'leave one bucket spread evenly over their destinations (JumpBackHash skews when shrinking by several buckets).',
      ),
    );
  }

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Compare the algorithms on this scenario'),
    h('div', { class: 'inputs' }, fromField.root, toField.root, nField.root, keysField.root),
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
