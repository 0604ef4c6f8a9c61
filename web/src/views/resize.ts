// Resize: what moves when n goes from -> to (or along a chain), and where.
// Runs in the jobs worker with progress and Cancel; algorithms side by side
// on the same keys.

import { CancelledError, EngineError, engine, keySpec } from '../engine/client';
import type { ResizeReply, ResizeStep } from '../engine/protocol';
import { parseChain, parseCount, progressPanel } from '../ui/controls';
import { download, fixed, grouped, h, percent, plain } from '../ui/dom';
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
  stateField,
} from './context';
import { exampleLinks } from './compute';

/** Bucket counts of a resize: the core keeps one counter per bucket. */
export const MAX_RESIZE_BUCKETS = 1_000_000;
/** Moved keys kept for the list and the CSV. */
export const MOVED_SAMPLE_LIMIT = 200_000;
function describeStep(step: ResizeStep): string {
  return `${step.from} → ${step.to}`;
}

export function resizeView(context: AppContext): ViewInstance {
  const { state } = context;
  const progress = progressPanel();
  const results = h('div', { class: 'results' });
  let generation = 0;
  const rerun = debounce(() => void run(), 300);

  const fromField = countField(context, 'from', 'From n buckets', rerun);
  // Not numeric: a chain needs commas, which numeric keypads lack.
  const toField = stateField(context, 'to', { label: 'To n buckets', hint: 'Or a chain: 12, 11, 16', width: 'narrow' }, rerun);
  const keysField = reportKeysField(context, rerun);
  const picker = stateAlgorithmPicker(context, rerun);
  progress.onCancel = () => {
    engine.jobs.cancel();
  };

  async function run(): Promise<void> {
    const current = ++generation;
    engine.jobs.cancel();
    fromField.setError(null);
    toField.setError(null);
    keysField.setError(null);
    const from = parseCount(state.from, 'from', 1, MAX_RESIZE_BUCKETS);
    const chain = parseChain(state.to, 'to', 1, MAX_RESIZE_BUCKETS);
    if (typeof from === 'string') fromField.setError(from);
    if (typeof chain === 'string') toField.setError(chain);
    if (typeof from === 'string' || typeof chain === 'string') {
      results.replaceChildren();
      progress.finish('');
      return;
    }
    progress.start('Starting…');
    const started = performance.now();
    try {
      const reply = await engine.jobs.request(
        { kind: 'resize', algos: state.algos, keys: keySpec(state.keys), sizes: [from, ...chain], sampleLimit: MOVED_SAMPLE_LIMIT },
        (p) => {
          if (current === generation) progress.update(p);
        },
      );
      if (current !== generation) return;
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      progress.finish(
        reply.keyCount >= 1_000_000
          ? `Done: ${grouped(reply.keyCount)} keys × ${reply.steps.length} resize report(s) in ${seconds} s.`
          : '',
      );
      render(reply);
    } catch (error) {
      if (current !== generation) return;
      if (error instanceof CancelledError) {
        progress.finish('Cancelled. Change an input to run the report again.');
        results.replaceChildren(h('p', { class: 'muted' }, 'The report was cancelled; nothing is shown half-way.'));
        return;
      }
      progress.finish('');
      const message = error instanceof Error ? error.message : String(error);
      const target = error instanceof EngineError ? { keys: keysField, from: fromField, to: toField }[error.field as 'keys'] : undefined;
      if (target) {
        target.setError(message);
        results.replaceChildren();
      } else results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
    }
  }

  function render(reply: ResizeReply): void {
    const multiStep = reply.steps.some((s) => s !== reply.steps[0] && s.algorithm === reply.steps[0]!.algorithm);
    const summary = h(
      'table',
      { class: 'summary' },
      h('caption', {}, 'Moved keys against the fewest any scheme must move'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Algorithm'),
          h('th', { scope: 'col' }, 'Resize'),
          h('th', { scope: 'col', class: 'num' }, 'Keys'),
          h('th', { scope: 'col', class: 'num' }, 'Moved'),
          h('th', { scope: 'col', class: 'num' }, 'Moved fraction'),
          h('th', { scope: 'col', class: 'num' }, 'Minimum (expected)'),
          h('th', { scope: 'col', class: 'num' }, 'Moved / minimum'),
        ),
      ),
      h(
        'tbody',
        {},
        ...reply.steps.map((step, index) => {
          const stepIndex = reply.steps.slice(0, index).filter((s) => s.algorithm === step.algorithm).length;
          const movedId = stepIndex === 0 ? `moved-${step.algorithm}` : `moved-${step.algorithm}-${stepIndex}`;
          return h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, step.algorithm)),
            h('td', {}, describeStep(step)),
            h('td', { class: 'num', 'data-testid': index === 0 ? 'total-keys' : undefined }, plain(step.total)),
            h('td', { class: 'num big', 'data-testid': movedId }, plain(step.moved)),
            h('td', { class: 'num' }, percent(step.moved, step.total)),
            h('td', { class: 'num' }, fixed(step.minimumMovedExpected, 1)),
            h('td', { class: 'num' }, step.minimumMovedExpected > 0 ? `${fixed(step.moved / step.minimumMovedExpected, 2)}×` : '—'),
          );
        }),
      ),
    );
    const details = h('div', { class: 'cards' });
    const selector = multiStep ? stepSelector(reply, details) : null;
    results.replaceChildren(summary, ...(selector ? [selector] : []), details);
    showDetails(details, reply.steps.filter((s) => s.from === reply.steps[0]!.from && s.to === reply.steps[0]!.to));
  }

  function stepSelector(reply: ResizeReply, details: HTMLElement): HTMLElement {
    const pairs = [...new Map(reply.steps.map((s) => [describeStep(s), s])).keys()];
    const select = h('select', { id: 'resize-step' }, ...pairs.map((p) => h('option', { value: p }, p)));
    select.addEventListener('change', () => {
      showDetails(details, reply.steps.filter((s) => describeStep(s) === select.value));
    });
    return h('div', { class: 'field' }, h('label', { for: 'resize-step' }, 'Details for the step'), select);
  }

  function showDetails(container: HTMLElement, steps: ResizeStep[]): void {
    if (context.embedded) {
      container.replaceChildren();
      return;
    }
    container.replaceChildren(...steps.map((step) => stepCard(step)));
  }

  const examples = exampleLinks(context, [
    ['#view=resize&algo=jump,jumpback,modulo&from=10&to=12&keys=0..9999', '10 → 12 (the paper’s example)'],
    ['#view=resize&algo=jumpback,jumpback-indep&from=16&to=4&keys=random:600000:1', '16 → 4: JumpBackHash’s skewed flows'],
    ['#view=resize&algo=jump,jumpback&from=11&to=10&keys=0..99999', 'remove the top bucket'],
    ['#view=resize&algo=jump,jumpback&from=10&to=12,11,16&keys=random:100000:7', 'a chain 10, 12, 11, 16'],
    ['#view=resize&algo=jump,jumpback&from=10&to=12&keys=random:10000000:1', '10^7 random keys'],
  ]);

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Resize: what moves when the bucket count changes, and where?'),
    h('div', { class: 'inputs' }, fromField.root, toField.root, keysField.root, picker),
    h(
      'p',
      { class: 'hint' },
      `Bucket counts 1..${grouped(MAX_RESIZE_BUCKETS)}; the flow matrix is kept up to 4,194,304 cells; the first ${grouped(MOVED_SAMPLE_LIMIT)} moved keys are listed.`,
    ),
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

function stepCard(step: ResizeStep): HTMLElement {
  const title = `${step.algorithm}: ${describeStep(step)}`;
  const worst = worstFlow(step);
  const parts: HTMLElement[] = [
    h('h3', {}, h('code', {}, step.algorithm), ` ${describeStep(step)}`),
    h(
      'p',
      {},
      `${grouped(step.moved)} of ${grouped(step.total)} keys move (${percent(step.moved, step.total)}); `,
      `the fewest possible is about ${grouped(Math.round(step.minimumMovedExpected))}.`,
    ),
    figure({
      title: `Keys per bucket before (${step.from}) and after (${step.to})`,
      summary: loadsSummary(step),
      draw: async (container) => (await loadCharts()).beforeAfterChart(container, step.loadsBefore, step.loadsAfter),
      table: () =>
        virtualTable({
          caption: `Keys per bucket, ${title}`,
          columns: [{ label: 'bucket', numeric: true }, { label: `before (${step.from})`, numeric: true }, { label: `after (${step.to})`, numeric: true }],
          rowCount: Math.max(step.from, step.to),
          cell: (row, column) =>
            column === 0 ? String(row) : column === 1 ? (row < step.from ? String(step.loadsBefore[row]) : '—') : row < step.to ? String(step.loadsAfter[row]) : '—',
        }),
    }),
  ];
  if (step.flows) {
    const flows = step.flows;
    parts.push(
      figure({
        title: `Where the keys went: source bucket → destination bucket`,
        summary:
          worst === null
            ? 'No key moved.'
            : `Largest per-source chi-square: ${fixed(worst.chi, 1)} on ${worst.dof} degrees of freedom (bucket ${worst.source}; about ${worst.dof} expected when the moved keys spread uniformly).`,
        draw: async (container) => {
          const charts = await loadCharts();
          if (step.from * step.to > charts.MAX_HEATMAP_CELLS) {
            container.replaceChildren(
              h('p', { class: 'muted' }, `The heat map draws at most ${grouped(charts.MAX_HEATMAP_CELLS)} cells; this matrix has ${grouped(step.from * step.to)}. The table has every source.`),
            );
            return;
          }
          charts.flowHeatmap(container, flows, step.from, step.to, (source) => {
            const dof = step.flowDof[source]!;
            return dof > 0 ? step.flowChiSquare[source]! / dof : null;
          });
        },
        table: () =>
          virtualTable({
            caption: `Flows per source bucket, ${title}`,
            columns: [
              { label: 'source', numeric: true },
              { label: 'moved out', numeric: true },
              { label: 'chi-square', numeric: true },
              { label: 'dof', numeric: true },
              { label: 'destinations (bucket: keys)' },
            ],
            rowCount: step.from,
            cell: (row, column) => {
              switch (column) {
                case 0:
                  return String(row);
                case 1:
                  return String(step.flowMovedOut[row]);
                case 2:
                  return fixed(step.flowChiSquare[row]!, 2);
                case 3:
                  return String(step.flowDof[row]);
                default: {
                  const out: string[] = [];
                  for (let d = 0; d < step.to && out.length < 12; d++) {
                    const count = flows[row * step.to + d]!;
                    if (count > 0 && d !== row) out.push(`${d}: ${count}`);
                  }
                  return out.join(', ');
                }
              }
            },
          }),
      }),
    );
  } else {
    parts.push(h('p', { class: 'muted' }, 'The source → destination matrix is not kept above 4,194,304 cells.'));
  }
  parts.push(movedList(step));
  return h('article', { class: 'card' }, ...parts);
}

function loadsSummary(step: ResizeStep): string {
  const stats = (loads: Float64Array) => {
    let min = Infinity;
    let max = 0;
    let sum = 0;
    for (const v of loads) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    return `min ${min}, max ${max}, mean ${fixed(sum / loads.length, 1)}`;
  };
  return `Before: ${stats(step.loadsBefore)}. After: ${stats(step.loadsAfter)}.`;
}

function worstFlow(step: ResizeStep): { source: number; chi: number; dof: number } | null {
  let worst: { source: number; chi: number; dof: number } | null = null;
  for (let s = 0; s < step.flowDof.length; s++) {
    const dof = step.flowDof[s]!;
    if (dof <= 0) continue;
    const chi = step.flowChiSquare[s]!;
    if (!worst || chi / dof > worst.chi / worst.dof) worst = { source: s, chi, dof };
  }
  return worst;
}

function movedLine(step: ResizeStep, labels: Map<number, string>, i: number): string {
  const key = labels.get(i) ?? step.sampleValues[i]!.toString();
  return `${key}: ${step.sampleOld[i]} -> ${step.sampleNew[i]}`;
}

function movedList(step: ResizeStep): HTMLElement {
  const labels = new Map(step.sampleLabels);
  const count = step.sampleValues.length;
  const note =
    count < step.moved
      ? `The first ${grouped(count)} of ${grouped(step.moved)} moved keys, in key order (the list keeps at most ${grouped(MOVED_SAMPLE_LIMIT)}).`
      : `All ${grouped(step.moved)} moved keys, in key order.`;
  const csv = h('button', { type: 'button', class: 'secondary' }, 'Download CSV');
  csv.addEventListener('click', () => {
    const lines = ['key,old_bucket,new_bucket'];
    for (let i = 0; i < count; i++) {
      const key = labels.get(i);
      const keyText = key === undefined ? step.sampleValues[i]!.toString() : `"${key.replace(/"/g, '""')}"`;
      lines.push(`${keyText},${step.sampleOld[i]},${step.sampleNew[i]}`);
    }
    download(`moved-${step.algorithm}-${step.from}-to-${step.to}.csv`, `${lines.join('\n')}\n`, 'text/csv');
  });
  return h(
    'section',
    { class: 'moved' },
    h('h4', {}, 'Moved keys'),
    h('p', { class: 'hint' }, note, ' ', csv),
    count > 0
      ? virtualTable({
          caption: `Moved keys, ${step.algorithm} ${describeStep(step)}`,
          columns: [{ label: '<key>: <old> -> <new>' }],
          rowCount: count,
          cell: (row) => movedLine(step, labels, row),
          height: 8,
          testid: `moved-list-${step.algorithm}`,
        })
      : h('p', { class: 'muted' }, 'No key moved.'),
  );
}
