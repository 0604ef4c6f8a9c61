// Compute: which bucket does this key land in, under each algorithm, and how
// did it get there (the TRACE report as a step chart and a table). On a node
// list: which node it lands on under every selected algorithm (bucket-count
// algorithms index the list: servers[bucket(key, n)]).

import { CancelledError, EngineError, engine } from '../engine/client';
import type { AlgorithmError, ComputeBucket, ComputeReply, ComputeRequest, Field } from '../engine/protocol';
import { field, parseCount, type FieldControl } from '../ui/controls';
import { grouped, h, plain } from '../ui/dom';
import { scenarioControl } from '../ui/scenario';
import { virtualTable } from '../ui/virtualTable';
import { type AppContext, type ViewInstance, debounce, figure, loadCharts, stateAlgorithmPicker } from './context';
import { algorithmInfo, algorithmTitle, isBucketCount, largestNodeList } from './shared/algorithms';
import { CACHE_NODES_LINK, exampleLinks } from './shared/examples';

// Kept for the views that still import it from here; new code imports ./shared/examples.

const MAX_N = 2147483647;
/** Steps of the jump-history chart (modulo changes bucket at almost every n). */
const MAX_CHART_STEPS = 100_000;
const NUMERIC_COLUMNS = new Set(['Bucket', 'Index in the list', 'Jumps up to n']);

/** One row of the Compute table: an algorithm with its placement and the errors it met. */
export interface ComputeRow {
  algo: string;
  placement: ComputeBucket | undefined;
  errors: string[];
}

/** The reply's placements and per-algorithm errors, one row per requested algorithm, in the request's order. */
export function computeRows(algos: readonly string[], reply: Pick<ComputeReply, 'buckets' | 'errors'>): ComputeRow[] {
  return algos.map((algo) => ({
    algo,
    placement: reply.buckets.find((b) => b.algo === algo),
    errors: reply.errors.filter((e: AlgorithmError) => e.algorithm === algo).map((e) => e.message),
  }));
}

export function computeView(context: AppContext): ViewInstance {
  const { state } = context;
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const fields: Partial<Record<Field, FieldControl>> = {};
  let generation = 0;

  const recompute = debounce(() => void run(), 120);
  const onInput = (name: 'key' | 'n' | 'trace') => (value: string) => {
    state[name] = value;
    context.changed();
    recompute();
  };
  fields.key = field({
    label: 'Key',
    name: 'key',
    value: state.key,
    hint: 'Decimal 0..18446744073709551615, 0x + 1 to 16 hex digits, or a "quoted string" (its XXH3-64).',
    width: 'wide',
    onInput: onInput('key'),
  });
  fields.n = field({ label: 'Buckets n', name: 'n', value: state.n, inputMode: 'numeric', width: 'narrow', onInput: onInput('n') });
  fields.trace = field({
    label: 'History up to n =',
    name: 'trace',
    value: state.trace,
    inputMode: 'numeric',
    width: 'narrow',
    onInput: onInput('trace'),
  });
  const picker = stateAlgorithmPicker(context, recompute);
  const scenario = scenarioControl(context, { steps: false, countFields: [fields.n.root, fields.trace.root], rerun: recompute });

  async function run(): Promise<void> {
    const current = ++generation;
    for (const control of Object.values(fields)) control?.setError(null);
    scenario.clearErrors();
    let request: ComputeRequest;
    if (scenario.onNodes()) {
      // n and the history are not used on a node list (the list is the topology).
      request = { kind: 'compute', algos: state.algos, key: state.key, n: 1, traceMax: 1, scenario: scenario.scenario() };
    } else {
      const n = parseCount(state.n, 'bucket count', 1, MAX_N);
      const traceMax = parseCount(state.trace, 'history limit', 1, MAX_N);
      if (typeof n === 'string') fields.n?.setError(n);
      if (typeof traceMax === 'string') fields.trace?.setError(traceMax);
      if (typeof n === 'string' || typeof traceMax === 'string') {
        results.replaceChildren();
        return;
      }
      request = { kind: 'compute', algos: state.algos, key: state.key, n, traceMax };
    }
    try {
      const reply = await engine.quick.request(request);
      if (current !== generation) return;
      render(reply, request);
    } catch (error) {
      if (current !== generation || error instanceof CancelledError) return;
      const message = error instanceof Error ? error.message : String(error);
      const blamed = error instanceof EngineError ? error.field : undefined;
      const target = blamed ? fields[blamed] : undefined;
      if (target) target.setError(message);
      const shown = target !== undefined || scenario.showError(blamed, message);
      if (shown) results.replaceChildren();
      else results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error', role: 'alert' }, message));
    }
  }

  function render(reply: ComputeReply, request: ComputeRequest): void {
    const onNodes = request.scenario !== undefined;
    const n = request.n;
    const traceMax = request.traceMax;
    const hex = `0x${reply.value.toString(16).padStart(16, '0')}`;
    const rows = computeRows(request.algos, reply);
    // On counts a node-set algorithm places keys on nodes "0".."n-1": its node is shown too.
    const showNodes = onNodes || rows.some((row) => row.placement?.node !== undefined);
    const headers = onNodes
      ? ['Algorithm', 'Node', 'Index in the list', 'How it places keys']
      : ['Algorithm', 'Bucket', ...(showNodes ? ['Node'] : []), 'Jumps up to n'];
    const table = h(
      'table',
      { class: 'summary' },
      h('caption', {}, onNodes ? `Node of key ${reply.label} on the node list` : `Bucket of key ${reply.label} among ${n} buckets`),
      h('thead', {}, h('tr', {}, ...headers.map((label) => h('th', { scope: 'col', class: NUMERIC_COLUMNS.has(label) ? 'num' : undefined }, label)))),
      h('tbody', {}, ...rows.map((row) => (onNodes ? nodeRow(row) : countRow(row, reply, n, showNodes)))),
    );
    const keyLine = h(
      'p',
      { class: 'key-value' },
      'Key ',
      h('code', {}, reply.label),
      ' is the 64-bit value ',
      h('code', { 'data-testid': 'key-value' }, reply.value.toString()),
      ' (',
      h('code', {}, hex),
      ').',
    );
    // A narrow page (a 320 px embed) scrolls the table, not the page.
    const tableBox = h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Results table (scrollable)' }, table);
    const children: HTMLElement[] = [keyLine, tableBox];
    if (!context.embedded && !onNodes && reply.traces.length > 0) {
      const summary = reply.traces
        .map((t) => {
          const first = Array.from(t.ns.subarray(0, 8), (at, i) => `n=${at}→${t.buckets[i]}`);
          return `${t.algo}: ${t.ns.length} positions, ${first.join(', ')}${t.ns.length > 8 ? ', …' : ''}`;
        })
        .join('; ');
      const points = reply.traces.reduce((sum, t) => sum + t.ns.length, 0);
      children.push(
        figure({
          title: `Jump history of key ${reply.label}: its bucket for n = 1 … ${traceMax}`,
          summary: `The key changes bucket only at these bucket counts. ${summary}`,
          testid: 'trace-figure',
          draw: async (container) => {
            if (points > MAX_CHART_STEPS) {
              container.replaceChildren(
                h('p', { class: 'muted' }, `${grouped(points)} steps are too many to draw (at most ${grouped(MAX_CHART_STEPS)}); the data table has them all.`),
              );
              return;
            }
            const charts = await loadCharts();
            charts.stepChart(
              container,
              reply.traces.map((t) => ({ label: t.algo, xs: Array.from(t.ns), ys: Array.from(t.buckets) })),
              traceMax,
            );
          },
          table: () => {
            const offsets: number[] = [];
            let total = 0;
            for (const t of reply.traces) {
              offsets.push(total);
              total += t.ns.length;
            }
            return virtualTable({
              caption: 'Jump history',
              columns: [{ label: 'Algorithm' }, { label: 'from n', numeric: true }, { label: 'bucket', numeric: true }],
              rowCount: total,
              cell: (row, column) => {
                let i = offsets.length - 1;
                while (offsets[i]! > row) i--;
                const t = reply.traces[i]!;
                const j = row - offsets[i]!;
                return column === 0 ? t.algo : column === 1 ? String(t.ns[j]) : String(t.buckets[j]);
              },
              testid: 'trace-table',
            });
          },
        }),
      );
    }
    results.replaceChildren(...children);
  }

  function algorithmHead(algo: string): HTMLElement {
    return h('th', { scope: 'row' }, h('code', {}, algo), ' ', h('span', { class: 'muted small' }, algorithmTitle(context, algo)));
  }

  /** A cell with an algorithm's errors (its limit, a bad option), or null when it has none. */
  function errorCell(row: ComputeRow, colspan: number): HTMLElement | null {
    if (row.errors.length === 0) return null;
    return h('td', { colspan, class: 'field-error', 'data-testid': `error-${row.algo}` }, row.errors.join(' '));
  }

  function nodeRow(row: ComputeRow): HTMLElement {
    const placement = row.placement;
    if (!placement) return h('tr', {}, algorithmHead(row.algo), errorCell(row, 3) ?? h('td', { colspan: 3 }, 'No result.'));
    const how = isBucketCount(algorithmInfo(context, row.algo))
      ? 'indexes the list: nodes[bucket(key, n)]; removing a middle node renumbers the rest'
      : 'places on the nodes by name';
    return h(
      'tr',
      {},
      algorithmHead(row.algo),
      h('td', { class: 'big', 'data-testid': `node-${row.algo}` }, placement.node ?? ''),
      h('td', { class: 'num', 'data-testid': `bucket-${row.algo}` }, plain(placement.bucket)),
      errorCell(row, 1) ?? h('td', {}, how),
    );
  }

  function countRow(row: ComputeRow, reply: ComputeReply, n: number, showNodes: boolean): HTMLElement {
    const placement = row.placement;
    const columns = showNodes ? 3 : 2;
    if (!placement) return h('tr', {}, algorithmHead(row.algo), errorCell(row, columns) ?? h('td', { colspan: columns }, 'No result.'));
    const trace = reply.traces.find((t) => t.algo === row.algo);
    let jumps = 0;
    if (trace) for (const at of trace.ns) if (at <= n) jumps++;
    return h(
      'tr',
      {},
      algorithmHead(row.algo),
      h('td', { class: 'num big', 'data-testid': `bucket-${row.algo}` }, plain(placement.bucket)),
      ...(showNodes ? [h('td', { 'data-testid': `node-${row.algo}` }, placement.node !== undefined ? `node "${placement.node}"` : '—')] : []),
      errorCell(row, 1) ?? h('td', { class: 'num' }, trace ? String(jumps) : '— (no jump history)'),
    );
  }

  const examples = exampleLinks(context, [
    ['#view=compute&algo=jump,jumpback&key=42&n=100&trace=1000', 'the exercise’s key 42'],
    ['#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100', 'the largest key (the 64-bit trap)'],
    ['#view=compute&algo=jump,jump-guava,jumpback,jumpback-indep,modulo&key=%22alice%22&n=1000&trace=100000', 'a string key, all algorithms'],
    [`#view=compute&algo=ketama,rendezvous,maglev,jump&key=%22alice%22&nodes=${CACHE_NODES_LINK}`, 'which of 10 servers holds "alice"'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Compute: which bucket or node does a key land in?'),
    h('div', { class: 'inputs' }, scenario.root, fields.key.root, fields.n.root, fields.trace.root, picker),
    h('p', { class: 'hint' }, `Bucket counts 1..${MAX_N}; node lists up to ${grouped(largestNodeList(context))} nodes.`),
    examples,
    results,
  );
  void run();
  return { root, destroy: () => recompute.cancel() };
}
