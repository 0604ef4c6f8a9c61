// One card of the Resize view: one algorithm over one step, on bucket counts
// or on a node list. Moved against the fewest possible, loads before and
// after (chart and table), the old -> new flow matrix (the migration plan,
// as a table and a CSV download) and the moved keys.

import type { AlgorithmInfo } from 'jumphash-wasm';
import type { ReportedResize, ResizeOutcome } from '../../engine/protocol';
import { download, fixed, grouped, h, percent } from '../../ui/dom';
import { virtualTable } from '../../ui/virtualTable';
import { figure, loadCharts } from '../context';
import { type FlowCell, type FlowLabels, alignedLoads, flowCells, flowCsv, flowLabels, flowMatrix, loadBefore, movedCount, movedCsv, movedLine, movingCells, rowFlows } from './flows';
import { renumbered } from './renumbered';

/** Matrices up to this many nodes on a side are drawn as a full table; larger ones list their flows. */
export const FULL_MATRIX_SIDE = 24;

export interface CardOptions {
  info: AlgorithmInfo | undefined;
  /** The most moved keys the view asked the core to keep. */
  sampleLimit: number;
  /** A short name for files: the step's position, e.g. "step-1". */
  stepTag: string;
}

/** A card for one outcome; an algorithm's error shows in its own card only. */
export function outcomeCard(outcome: ResizeOutcome, options: CardOptions): HTMLElement {
  const heading = h('h3', {}, h('code', {}, outcome.algorithm), ` ${outcome.label}`);
  if (!outcome.result) {
    return h(
      'article',
      { class: 'card', 'data-testid': `card-${outcome.algorithm}` },
      heading,
      h('p', { class: 'field-error', 'data-testid': `card-error-${outcome.algorithm}` }, outcome.error ?? 'No result.'),
    );
  }
  const result = outcome.result;
  const onNodes = result.nodesBefore !== null;
  const parts: (HTMLElement | null)[] = [heading, movedSentence(outcome, result)];
  parts.push(removedNote(outcome, result));
  if (renumbered(options.info, result)) parts.push(renumberNote(outcome, result));
  parts.push(onNodes ? nodeLoadsFigure(outcome, result) : bucketLoadsFigure(outcome, result));
  parts.push(onNodes ? nodeFlows(outcome, result, options) : bucketFlows(outcome, result, options));
  parts.push(movedList(outcome, result, options));
  return h('article', { class: 'card', 'data-testid': `card-${outcome.algorithm}` }, ...parts);
}

function movedSentence(outcome: ResizeOutcome, result: ReportedResize): HTMLElement {
  const ratio = result.minimumMovedExpected > 0 ? ` (${fixed(result.moved / result.minimumMovedExpected, 2)}× the fewest)` : '';
  return h(
    'p',
    {},
    `${grouped(result.moved)} of ${grouped(result.total)} keys move (${percent(result.moved, result.total)}); `,
    `the fewest any scheme must move is about ${grouped(Math.round(result.minimumMovedExpected))}${ratio}.`,
  );
}

/** On a removal: how many keys the removed node held (what must move under this algorithm). */
function removedNote(outcome: ResizeOutcome, result: ReportedResize): HTMLElement | null {
  if (!result.nodesBefore || !outcome.label.startsWith('-')) return null;
  const name = outcome.label.slice(1);
  const held = loadBefore(result, name);
  if (held === null) return null;
  const extra = result.moved - held;
  return h(
    'p',
    {},
    h('code', {}, name),
    ' held ',
    h('span', { 'data-testid': `removed-load-${outcome.algorithm}` }, String(held)),
    ` keys before: they must move. ${extra > 0 ? `${grouped(extra)} keys of surviving nodes moved as well.` : 'No other key moved.'}`,
  );
}

/** The honest note for a bucket-count algorithm that indexes a node list. */
function renumberNote(outcome: ResizeOutcome, result: ReportedResize): HTMLElement {
  const call = `servers[${outcome.algorithm}(key, n)]`;
  const ratio = fixed(result.moved / Math.max(1, result.minimumMovedExpected), 1);
  let text: string;
  if (outcome.label.startsWith('-')) {
    const name = outcome.label.slice(1);
    const index = result.nodesBefore!.findIndex((node) => node.name === name);
    const after = result.nodesBefore!.length - index - 1;
    text =
      `${call} renumbers every node after the removed one: the ${after} node${after === 1 ? '' : 's'} after ${name} ` +
      `each take the index of the one before, so keys follow indices, not names: ${grouped(result.moved)} keys move, ` +
      `${ratio}× the fewest possible. A node-set algorithm (or removing only the last node) avoids this.`;
  } else {
    text =
      `${call} places keys by position in the list, not by name: this change moved ${grouped(result.moved)} keys, ` +
      `${ratio}× the fewest possible.`;
  }
  return h('p', { class: 'banner', role: 'note', 'data-testid': `renumbers-${outcome.algorithm}` }, text);
}

function loadStats(loads: ArrayLike<number>, present?: boolean[]): string {
  let min = Infinity;
  let max = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < loads.length; i++) {
    if (present && !present[i]) continue;
    const v = loads[i]!;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    count++;
  }
  return count === 0 ? 'none' : `min ${min}, max ${max}, mean ${fixed(sum / count, 1)}`;
}

/** "0 = a, 1 = b, …" for the first few positions of the chart's axis. */
function positions(labels: string[]): string {
  const shown = labels.slice(0, 4).map((name, i) => `${i} = ${name}`);
  if (labels.length > 4) shown.push(`…, ${labels.length - 1} = ${labels[labels.length - 1]}`);
  return shown.join(', ');
}

function nodeLoadsFigure(outcome: ResizeOutcome, result: ReportedResize): HTMLElement {
  const aligned = alignedLoads(result);
  const title = `Keys per node before and after ${outcome.label}`;
  return figure({
    title,
    summary:
      `Bars before, line after; the axis is the node's position in list order (nodes added by the step last): ` +
      `${positions(aligned.labels)}. ` +
      `Before (${result.from} nodes): ${loadStats(aligned.before, aligned.present.before)}. ` +
      `After (${result.to} nodes): ${loadStats(aligned.after, aligned.present.after)}.`,
    draw: async (container) => (await loadCharts()).beforeAfterChart(container, aligned.before, aligned.after),
    table: () =>
      virtualTable({
        caption: `${title}, ${outcome.algorithm}`,
        columns: [{ label: 'node' }, { label: 'before', numeric: true }, { label: 'after', numeric: true }, { label: 'change', numeric: true }],
        rowCount: aligned.labels.length,
        testid: `loads-${outcome.algorithm}`,
        cell: (row, column) => {
          const before = aligned.present.before[row] ? aligned.before[row]! : null;
          const after = aligned.present.after[row] ? aligned.after[row]! : null;
          switch (column) {
            case 0:
              return aligned.labels[row]!;
            case 1:
              return before === null ? '— (added)' : String(before);
            case 2:
              return after === null ? '— (removed)' : String(after);
            default: {
              const change = (after ?? 0) - (before ?? 0);
              return change > 0 ? `+${change}` : String(change);
            }
          }
        },
      }),
  });
}

function bucketLoadsFigure(outcome: ResizeOutcome, result: ReportedResize): HTMLElement {
  const title = `Keys per bucket before (${result.from}) and after (${result.to})`;
  return figure({
    title,
    summary: `Before: ${loadStats(result.loadsBefore)}. After: ${loadStats(result.loadsAfter)}.`,
    draw: async (container) => (await loadCharts()).beforeAfterChart(container, result.loadsBefore, result.loadsAfter),
    table: () =>
      virtualTable({
        caption: `Keys per bucket, ${outcome.algorithm}: ${outcome.label}`,
        columns: [{ label: 'bucket', numeric: true }, { label: `before (${result.from})`, numeric: true }, { label: `after (${result.to})`, numeric: true }],
        rowCount: Math.max(result.from, result.to),
        cell: (row, column) =>
          column === 0
            ? String(row)
            : column === 1
              ? row < result.from ? String(result.loadsBefore[row]) : '—'
              : row < result.to ? String(result.loadsAfter[row]) : '—',
      }),
  });
}

/**
 * The flow matrix's Download CSV button; null when the matrix was not kept.
 * The CSV is made on click: for a dense matrix (modulo 1000 -> 1001, about
 * a million non-zero cells) it took about 260 ms of the page's main thread
 * in a Chromium trace, which every report paid when the card was drawn.
 */
function csvButton(outcome: ResizeOutcome, result: ReportedResize, options: CardOptions): HTMLElement | null {
  if (!result.flowCells) return null;
  const button = h('button', { type: 'button', class: 'secondary', 'data-testid': `flow-csv-${outcome.algorithm}` }, 'Download CSV');
  button.setAttribute('aria-label', `Download CSV of the flow matrix, ${outcome.algorithm} ${outcome.label}`);
  button.addEventListener('click', () => download(`flows-${outcome.algorithm}-${options.stepTag}.csv`, flowCsv(result)!, 'text/csv'));
  return button;
}

/** The migration plan on a node list: the full matrix when small, the moving flows always. */
function nodeFlows(outcome: ResizeOutcome, result: ReportedResize, options: CardOptions): HTMLElement {
  const section = h('section', { class: 'moved' }, h('h4', {}, 'Migration plan: who sends how many keys to whom'));
  const cells = flowCells(result);
  if (!cells) {
    section.append(h('p', { class: 'muted' }, 'The old → new matrix is not kept above 4,194,304 cells; the moved keys below still name their nodes.'));
    return section;
  }
  const labels = flowLabels(result);
  const moving = movingCells(cells);
  const senders = new Set(moving.map((cell) => cell.source)).size;
  const receivers = new Set(moving.map((cell) => cell.destination)).size;
  section.append(
    h(
      'p',
      { class: 'hint' },
      moving.length === 0
        ? 'No key moved. '
        : `${grouped(moving.length)} flows: ${senders} node${senders === 1 ? ' sends' : 's send'} keys to ${receivers}. The CSV lists every non-zero cell (staying keys on a node’s own row): `,
      csvButton(outcome, result, options),
    ),
  );
  if (result.from <= FULL_MATRIX_SIDE && result.to <= FULL_MATRIX_SIDE) section.append(fullMatrix(outcome, result, labels));
  if (moving.length > 0) {
    section.append(
      h('p', { class: 'hint' }, 'Every moving flow, the largest first:'),
      virtualTable({
        caption: `Moving flows, largest first, ${outcome.algorithm}: ${outcome.label}`,
        columns: [{ label: 'from (before)' }, { label: 'to (after)' }, { label: 'keys', numeric: true }, { label: 'share of moved', numeric: true }],
        rowCount: moving.length,
        height: 8,
        testid: `flows-${outcome.algorithm}`,
        cell: (row, column) => flowCell(moving[row]!, column, labels, result.moved),
      }),
    );
  }
  return section;
}

function flowCell(cell: FlowCell, column: number, labels: FlowLabels, moved: number): string {
  switch (column) {
    case 0:
      return labels.before(cell.source);
    case 1:
      return labels.after(cell.destination);
    case 2:
      return String(cell.keys);
    default:
      return percent(cell.keys, moved, 1);
  }
}

/** Rows: nodes before; columns: nodes after. Moving cells bold, staying keys muted, zeros empty. */
function fullMatrix(outcome: ResizeOutcome, result: ReportedResize, { before, after }: FlowLabels): HTMLElement {
  const flows = flowMatrix(result)!;
  const labels = { before: Array.from({ length: result.from }, (_, i) => before(i)), after: Array.from({ length: result.to }, (_, i) => after(i)) };
  const staying = new Set<number>();
  for (const cell of flowCells(result)!) if (cell.stays) staying.add(cell.source * result.to + cell.destination);
  const caption = `Keys from each node before (rows) to each node after (columns), ${outcome.algorithm}: ${outcome.label}`;
  const table = h(
    'table',
    { class: 'summary compare', 'data-testid': `flow-matrix-${outcome.algorithm}` },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'from \\ to'), ...labels.after.map((name) => h('th', { scope: 'col', class: 'num' }, name)))),
    h(
      'tbody',
      {},
      ...labels.before.map((name, source) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, name),
          ...labels.after.map((_, destination) => {
            const at = source * result.to + destination;
            const keys = flows[at]!;
            if (keys === 0) return h('td', { class: 'num' });
            return staying.has(at)
              ? h('td', { class: 'num muted', title: 'staying keys' }, String(keys))
              : h('td', { class: 'num' }, h('strong', {}, String(keys)));
          }),
        ),
      ),
    ),
  );
  // Compact cells (names on one line); the matrix scrolls both ways inside the card.
  for (const cell of table.querySelectorAll<HTMLElement>('th, td')) {
    cell.style.whiteSpace = 'nowrap';
    cell.style.padding = '0.15rem 0.4rem';
  }
  const scroller = h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `${caption} (scrollable)` }, table);
  const title = h('p', { class: 'hint' }, 'Old node (row) → new node (column): moving keys in bold, a surviving node’s staying keys muted.');
  scroller.style.maxHeight = '30rem';
  scroller.style.overflowY = 'auto';
  return h('div', {}, title, scroller);
}

/** Bucket counts: the heat map with the per-source chi-square, as before, and the CSV. */
function bucketFlows(outcome: ResizeOutcome, result: ReportedResize, options: CardOptions): HTMLElement {
  if (!result.flowCells) return h('p', { class: 'muted' }, 'The source → destination matrix is not kept above 4,194,304 cells.');
  const { movedOut, chiSquare, degreesOfFreedom } = result.flowBalance;
  let worst: { source: number; chi: number; dof: number } | null = null;
  for (let source = 0; source < degreesOfFreedom.length; source++) {
    const chi = chiSquare[source]!, dof = degreesOfFreedom[source]!;
    if (dof <= 0) continue;
    if (!worst || chi / dof > worst.chi / worst.dof) worst = { source, chi, dof };
  }
  const title = `${outcome.algorithm}: ${outcome.label}`;
  return h(
    'div',
    {},
    figure({
      title: 'Where the keys went: source bucket → destination bucket',
      summary:
        worst === null
          ? 'No key moved.'
          : `Largest per-source chi-square: ${fixed(worst.chi, 1)} on ${worst.dof} degrees of freedom (bucket ${worst.source}; about ${worst.dof} expected when the moved keys spread uniformly).`,
      draw: async (container) => {
        const charts = await loadCharts();
        if (result.from * result.to > charts.MAX_HEATMAP_CELLS) {
          container.replaceChildren(
            h('p', { class: 'muted' }, `The heat map draws at most ${grouped(charts.MAX_HEATMAP_CELLS)} cells; this matrix has ${grouped(result.from * result.to)}. The table has every source.`),
          );
          return;
        }
        charts.flowHeatmap(container, flowMatrix(result)!, result.from, result.to, (source) => {
          const dof = degreesOfFreedom[source] ?? 0;
          return dof > 0 ? chiSquare[source]! / dof : null;
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
          rowCount: result.from,
          cell: (row, column) => {
            switch (column) {
              case 0:
                return String(row);
              case 1:
                return String(movedOut[row] ?? 0);
              case 2:
                return fixed(chiSquare[row] ?? 0, 2);
              case 3:
                return String(degreesOfFreedom[row] ?? 0);
              default: {
                const out: string[] = [];
                for (const [d, count] of rowFlows(result, row)) {
                  if (d !== row) out.push(`${d}: ${count}`);
                  if (out.length === 12) break;
                }
                return out.join(', ');
              }
            }
          },
        }),
    }),
    h('p', { class: 'hint' }, 'The flow matrix, one row per non-zero cell: ', csvButton(outcome, result, options)),
  );
}

function movedList(outcome: ResizeOutcome, result: ReportedResize, options: CardOptions): HTMLElement {
  const labels = flowLabels(result);
  const count = movedCount(result.sample);
  const note =
    count < result.moved
      ? `The first ${grouped(count)} of ${grouped(result.moved)} moved keys, in key order (the list keeps at most ${grouped(options.sampleLimit)}).`
      : `All ${grouped(result.moved)} moved keys, in key order.`;
  const csv = h('button', { type: 'button', class: 'secondary', 'data-testid': `moved-csv-${outcome.algorithm}` }, 'Download CSV');
  csv.setAttribute('aria-label', `Download CSV of the moved keys, ${outcome.algorithm} ${outcome.label}`);
  csv.addEventListener('click', () => download(`moved-${outcome.algorithm}-${options.stepTag}.csv`, movedCsv(result), 'text/csv'));
  const unit = result.nodesBefore ? 'node' : 'bucket';
  return h(
    'section',
    { class: 'moved' },
    h('h4', {}, 'Moved keys'),
    h('p', { class: 'hint' }, note, ' ', csv),
    count > 0
      ? virtualTable({
          caption: `Moved keys, ${outcome.algorithm} ${outcome.label}`,
          columns: [{ label: `<key>: <old ${unit}> -> <new ${unit}>` }],
          rowCount: count,
          cell: (row) => movedLine(result, labels, row),
          height: 8,
          testid: `moved-list-${outcome.algorithm}`,
        })
      : h('p', { class: 'muted' }, 'No key moved.'),
  );
}
