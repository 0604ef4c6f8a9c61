// Compute: which bucket does this key land in, under each algorithm, and how
// did it get there (the TRACE report as a step chart and a table).

import { CancelledError, EngineError, engine } from '../engine/client';
import type { ComputeReply, Field } from '../engine/protocol';
import { field, parseCount, type FieldControl } from '../ui/controls';
import { h, plain } from '../ui/dom';
import { virtualTable } from '../ui/virtualTable';
import { type AppContext, type ViewInstance, debounce, figure, loadCharts, stateAlgorithmPicker } from './context';

const MAX_N = 2147483647;
/** Steps of the jump-history chart (modulo changes bucket at almost every n). */
const MAX_CHART_STEPS = 100_000;

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

  async function run(): Promise<void> {
    const current = ++generation;
    for (const control of Object.values(fields)) control?.setError(null);
    const n = parseCount(state.n, 'bucket count', 1, MAX_N);
    const traceMax = parseCount(state.trace, 'history limit', 1, MAX_N);
    let bad = false;
    if (typeof n === 'string') {
      fields.n?.setError(n);
      bad = true;
    }
    if (typeof traceMax === 'string') {
      fields.trace?.setError(traceMax);
      bad = true;
    }
    if (bad || typeof n === 'string' || typeof traceMax === 'string') {
      results.replaceChildren();
      return;
    }
    try {
      const reply = await engine.quick.request({ kind: 'compute', algos: state.algos, key: state.key, n, traceMax });
      if (current !== generation) return;
      render(reply, n, traceMax);
    } catch (error) {
      if (current !== generation || error instanceof CancelledError) return;
      const message = error instanceof Error ? error.message : String(error);
      const target = error instanceof EngineError && error.field ? fields[error.field] : undefined;
      if (target) target.setError(message);
      else results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
      if (target) results.replaceChildren();
    }
  }

  function render(reply: ComputeReply, n: number, traceMax: number): void {
    const hex = `0x${reply.value.toString(16).padStart(16, '0')}`;
    const table = h(
      'table',
      { class: 'summary' },
      h('caption', {}, `Bucket of key ${reply.label} among ${n} buckets`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Algorithm'), h('th', { scope: 'col', class: 'num' }, 'Bucket'), h('th', { scope: 'col' }, 'Jumps up to n'))),
      h(
        'tbody',
        {},
        ...reply.buckets.map(({ algo, bucket }) => {
          const ns = reply.traces.find((t) => t.algo === algo)?.ns ?? new Float64Array();
          let jumps = 0;
          for (const at of ns) if (at <= n) jumps++;
          return h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, algo), ' ', h('span', { class: 'muted small' }, shortTitle(context, algo))),
            h('td', { class: 'num big', 'data-testid': `bucket-${algo}` }, plain(bucket)),
            h('td', { class: 'num' }, String(jumps)),
          );
        }),
      ),
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
    const children: HTMLElement[] = [keyLine, table];
    if (!context.embedded) {
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
                h('p', { class: 'muted' }, `${points.toLocaleString('en-US')} steps are too many to draw (at most ${MAX_CHART_STEPS.toLocaleString('en-US')}); the data table has them all.`),
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

  const examples = exampleLinks(context, [
    ['#view=compute&algo=jump,jumpback&key=42&n=100&trace=1000', 'the exercise’s key 42'],
    ['#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100', 'the largest key (the 64-bit trap)'],
    ['#view=compute&algo=jump,jump-guava,jumpback,jumpback-indep,modulo&key=%22alice%22&n=1000&trace=100000', 'a string key, all algorithms'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Compute: which bucket does a key land in?'),
    h('div', { class: 'inputs' }, fields.key.root, fields.n.root, fields.trace.root, picker),
    examples,
    results,
  );
  void run();
  return { root, destroy: () => recompute.cancel() };
}

function shortTitle(context: AppContext, algo: string): string {
  return context.algorithms.find((a) => a.name === algo)?.title ?? '';
}

function exampleLink(href: string, text: string): HTMLAnchorElement {
  return h('a', { href, class: 'example' }, text);
}

/** The "Try:" row of example links ([href, text] pairs); none in the embed page. */
export function exampleLinks(context: AppContext, links: [href: string, text: string][]): HTMLElement | null {
  if (context.embedded) return null;
  return h('div', { class: 'examples' }, h('span', {}, 'Try: '), ...links.map(([href, text]) => exampleLink(href, text)));
}
