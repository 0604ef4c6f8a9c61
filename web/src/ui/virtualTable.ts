// A table that renders only the rows in view, so a million rows (loads per
// bucket, moved keys) cost the main thread as much as forty.

import { grouped, h } from './dom';

export interface VirtualTableOptions {
  caption: string;
  columns: { label: string; numeric?: boolean }[];
  rowCount: number;
  cell: (row: number, column: number) => string;
  /** Visible height in rows. */
  height?: number;
  testid?: string;
}

const ROW_HEIGHT = 26;
const OVERSCAN = 8;
/** Browsers cap an element's height near 2^24 px; past this many rows the
 *  table says so and the CSV download carries the rest. */
export const MAX_TABLE_ROWS = 500_000;

export function virtualTable(options: VirtualTableOptions): HTMLElement {
  const visibleRows = options.height ?? 12;
  const rowCount = Math.min(options.rowCount, MAX_TABLE_ROWS);
  const viewport = h('div', {
    class: 'vtable',
    tabindex: 0,
    role: 'region',
    'aria-label': `${options.caption} (scrollable)`,
    'data-testid': options.testid,
  });
  const headerCells = options.columns.map((column) =>
    h('th', { scope: 'col', class: column.numeric ? 'num' : undefined }, column.label),
  );
  const body = h('tbody');
  const table = h(
    'table',
    { 'aria-rowcount': rowCount + 1 },
    h('caption', { class: 'visually-hidden' }, options.caption),
    h('thead', {}, h('tr', { 'aria-rowindex': 1 }, ...headerCells)),
    body,
  );
  viewport.style.maxHeight = `${(visibleRows + 1) * ROW_HEIGHT + 4}px`;
  viewport.append(table);

  const note =
    options.rowCount > rowCount
      ? h('p', { class: 'hint' }, `The table lists the first ${grouped(rowCount)} of ${grouped(options.rowCount)} rows.`)
      : null;
  let first = -1;
  let last = -1;
  const render = () => {
    const top = Math.max(0, viewport.scrollTop - ROW_HEIGHT);
    // OVERSCAN rows each side of the rows in view, none above the first:
    // at the top, where every report's table opens, that is 8 rows fewer
    // to lay out in the frame that shows the report.
    const firstInView = Math.floor(top / ROW_HEIGHT);
    const start = Math.max(0, firstInView - OVERSCAN);
    const end = Math.min(rowCount, firstInView + visibleRows + OVERSCAN + 2);
    if (start === first && end === last) return;
    first = start;
    last = end;
    const rows: HTMLTableRowElement[] = [];
    if (start > 0) rows.push(spacer(start * ROW_HEIGHT, options.columns.length));
    for (let row = start; row < end; row++) {
      const tr = h('tr', { 'aria-rowindex': row + 2 });
      for (let column = 0; column < options.columns.length; column++) {
        tr.append(h('td', { class: options.columns[column]!.numeric ? 'num' : undefined }, options.cell(row, column)));
      }
      rows.push(tr);
    }
    if (end < rowCount) rows.push(spacer((rowCount - end) * ROW_HEIGHT, options.columns.length));
    body.replaceChildren(...rows);
  };
  viewport.addEventListener('scroll', () => requestAnimationFrame(render), { passive: true });
  render();
  return note ? h('div', {}, viewport, note) : viewport;
}

function spacer(height: number, columns: number): HTMLTableRowElement {
  const cell = h('td', { colspan: columns, class: 'spacer' });
  cell.style.height = `${height}px`;
  return h('tr', { 'aria-hidden': 'true' }, cell);
}
