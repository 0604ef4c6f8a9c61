// Compare: every algorithm of the engine's registry (bucket-count and
// node-set) on the current scenario — moved keys against the fewest possible,
// balance, lookups per second measured in this browser, the lookup state's
// memory as the core reports it, build time, whether any node can be removed,
// weights, and where each comes from. On bucket counts (from → to, balance at
// n) or on a node list with its changes.

import type { AlgorithmInfo } from 'jumphash-wasm';
import type { CompareReply, CompareRequest, CompareRow, Field } from '../engine/protocol';
import { type FieldControl, parseCount } from '../ui/controls';
import { fixed, grouped, h, percent } from '../ui/dom';
import { scenarioControl } from '../ui/scenario';
import { type AppContext, type ViewInstance, countField } from './context';
import { keysField as makeKeysField } from './shared/keysField';
import { MAX_RESIZE_BUCKETS } from './resize/limits';
import { reportView } from './reportView';
import { CACHE_NODES_LINK, exampleLinks } from './shared/examples';

/** Bytes as the page shows them: "0 B", "1,234 B", "12.3 KiB", "4.56 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 10 * 1024) return `${grouped(bytes)} B`;
  if (bytes < 10 * 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
}

/** Milliseconds with a precision that suits them: "0.012 ms", "1.23 ms", "123 ms". */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${grouped(Math.round(ms))} ms`;
}

/** Whether any node (or bucket) can be removed moving only its keys, in words, from the registry's capability. */
export function removesAnyText(info: AlgorithmInfo, onNodes: boolean): string {
  if (info.removesAnyBucket) return 'yes';
  if (info.kind === 'bucket-count') return onNodes ? 'no: renumbers the nodes after it' : 'no: only the last bucket';
  return 'no: some keys of other nodes move too';
}

export function compareView(context: AppContext): ViewInstance {
  const { state } = context;
  const fields: Partial<Record<Field, FieldControl>> = {};
  const report = reportView<'compare'>({
    fields,
    scenario: () => scenario,
    delay: 400,
    cancelledText: 'Cancelled. Change an input to measure again.',
    build: () => {
      if (scenario.onNodes()) {
        if (state.steps.trim() === '') {
          scenario.showError('steps', 'Type at least one change: -name removes a node, +name or +name*2 adds one, =name*3 changes a weight.');
          return null;
        }
        return keysField.withSpec((keys) => ({ kind: 'compare' as const, keys, from: 1, to: 1, n: 1, scenario: scenario.scenario() }));
      }
      const from = parseCount(state.from, 'from', 1, MAX_RESIZE_BUCKETS);
      // Compare takes one resize step: the first of a chain.
      const to = parseCount(state.to.split(/[,\s]+/).filter(Boolean)[0] ?? '', 'to', 1, MAX_RESIZE_BUCKETS);
      const n = parseCount(state.n, 'bucket count', 1, MAX_RESIZE_BUCKETS);
      if (typeof from === 'string') fromField.setError(from);
      if (typeof to === 'string') toField.setError(to);
      if (typeof n === 'string') nField.setError(n);
      if (typeof from === 'string' || typeof to === 'string' || typeof n === 'string') return null;
      return keysField.withSpec((keys) => ({ kind: 'compare' as const, keys, from, to, n }));
    },
    render,
  });
  const make = (name: 'from' | 'to' | 'n', label: string) => countField(context, name, label, report.rerun);
  const fromField = make('from', 'Resize from');
  const toField = make('to', 'to');
  const nField = make('n', 'Balance and speed at n');
  const keysField = makeKeysField(context, report.rerun);
  const scenario = scenarioControl(context, { steps: true, countFields: [fromField.root, toField.root, nField.root], rerun: report.rerun });
  Object.assign(fields, { from: fromField, to: toField, n: nField, keys: keysField });
  const { results } = report;

  function render(reply: CompareReply, request: CompareRequest): void {
    const onNodes = request.scenario !== undefined;
    const headers = [
      'Algorithm',
      onNodes ? 'Moved by the changes' : `Moved ${request.from} → ${request.to}`,
      'Moved / minimum',
      onNodes ? 'Max / mean load (before)' : `Max / mean at n = ${request.n}`,
      'χ² / dof',
      'Worst flow χ² / dof',
      'Lookups per second',
      'State memory',
      'Build time',
      onNodes ? 'Removes any node' : 'Removes any bucket',
      'Weights',
      'Expected cost',
      'Source',
    ];
    const numeric = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
    const table = h(
      'table',
      { class: 'summary compare' },
      h('caption', {}, `All ${reply.rows.length} algorithms on ${grouped(reply.keyCount)} keys`),
      h('thead', {}, h('tr', {}, ...headers.map((label, i) => h('th', { scope: 'col', class: numeric.has(i) ? 'num' : undefined }, label)))),
      h('tbody', {}, ...reply.rows.map((row) => compareRow(row, onNodes, headers.length))),
    );
    results.replaceChildren(
      h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Comparison table (scrollable)' }, table),
      h(
        'p',
        { class: 'hint' },
        'Lookups per second: the batched lookup over 16,384 random keys in this browser’s worker, repeated for about 150 ms ',
        'after a warm-up (WebAssembly; includes the copy in and out). State memory: the bytes of lookup state the core ',
        'reports for the placement (a ring, a table, a list); a bucket-count algorithm on a bucket count keeps none. ',
        'Build time: building that placement once here. Moved / minimum near 1 is consistent hashing; modulo moves almost ',
        'everything, and a bucket-count algorithm on a node list renumbers the nodes after a removed one. χ²/dof near 1 is ',
        'uniform. The worst flow χ²/dof shows whether the keys that leave one bucket spread evenly over their destinations.',
      ),
    );
  }

  function compareRow(row: CompareRow, onNodes: boolean, columns: number): HTMLElement {
    const info = row.info;
    const head = h('th', { scope: 'row' }, h('code', {}, info.name), h('br'), h('span', { class: 'muted' }, info.title));
    const facts = [
      h('td', {}, removesAnyText(info, onNodes)),
      h('td', { 'data-testid': `compare-weights-${info.name}` }, info.weights ? 'honoured' : 'ignored'),
      h('td', {}, info.expectedCost),
      h('td', {}, info.paper),
    ];
    if (row.error !== null) {
      return h(
        'tr',
        { 'data-testid': `compare-row-${info.name}` },
        head,
        h('td', { colspan: columns - 1 - facts.length, class: 'field-error', 'data-testid': `compare-error-${info.name}` }, row.error),
        ...facts,
      );
    }
    const memory =
      row.stateBytes > 0 || info.kind !== 'bucket-count'
        ? formatBytes(row.stateBytes)
        : onNodes
          ? 'none: indexes the list'
          : 'none: a stateless function';
    return h(
      'tr',
      { 'data-testid': `compare-row-${info.name}` },
      head,
      h('td', { class: 'num', 'data-testid': `compare-moved-${info.name}` }, `${grouped(row.moved)} (${percent(row.moved, row.total)})`),
      h('td', { class: 'num' }, row.minimumMovedExpected > 0 ? `${fixed(row.moved / row.minimumMovedExpected, 2)}×` : '—'),
      h('td', { class: 'num' }, fixed(row.maxOverMean, 3)),
      h('td', { class: 'num' }, row.degreesOfFreedom ? fixed(row.chiSquare / row.degreesOfFreedom, 3) : '—'),
      h('td', { class: 'num' }, row.worstFlowChiPerDof === null ? 'not kept' : fixed(row.worstFlowChiPerDof, 2)),
      h('td', { class: 'num' }, `${(row.lookupsPerSecond / 1e6).toFixed(1)} M/s (${row.nsPerLookup.toFixed(1)} ns)`),
      h('td', { class: 'num', 'data-testid': `compare-state-${info.name}`, 'data-bytes': String(row.stateBytes) }, memory),
      h('td', { class: 'num', 'data-testid': `compare-build-${info.name}` }, row.stateBytes > 0 || row.buildMs > 0 ? formatMs(row.buildMs) : '—'),
      ...facts,
    );
  }

  const examples = exampleLinks(context, [
    ['#view=compare&from=10&to=12&n=100&keys=0..99999', '10 → 12 buckets'],
    [`#view=compare&nodes=${CACHE_NODES_LINK}&steps=-cache-3&keys=random:100000:1`, '10 servers, remove cache-3'],
    [`#view=compare&nodes=${CACHE_NODES_LINK}&steps=+big-1*2&keys=random:100000:1`, '10 servers, add a larger one'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Compare the algorithms on this scenario'),
    h('div', { class: 'inputs' }, scenario.root, fromField.root, toField.root, nField.root, keysField.root),
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
