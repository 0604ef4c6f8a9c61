// Claims: the articles' checkable statements (the core's catalogue, the same
// as `jumphash reproduce`), one row each with its source, the published value,
// the value measured here, the tolerance and a verdict. "Run" runs one row,
// "Run all" every row one by one on the jobs lane with progress and Cancel
// (which terminates that worker). A link per claim opens its row.

import type { ClaimChart, ClaimInfo, ClaimResult } from 'jumphash-wasm';
import { CancelledError, engine } from '../engine/client';
import { progressPanel } from '../ui/controls';
import { h, prefersReducedMotion } from '../ui/dom';
import { type AppContext, type ViewInstance, figure, loadCharts } from './context';
import './claims.css';
import '../ui/badges.css';

/** Results of this visit, kept while the page is open, so switching views
 *  (or following a claim's link) does not throw measurements away. */
const results = new Map<string, ClaimResult | { error: string }>();

const KIND_TEXT: Record<ClaimInfo['kind'], string> = {
  deterministic: 'Deterministic: an exact value, equal or not.',
  statistical: 'Statistical: measured on a fixed list of keys, judged with the stated tolerance.',
  timing:
    'Timing: ratios of loop times measured in this browser, in one run; the published times come from the ' +
    "article's machine, so only ratios are compared.",
};

interface BadgeLook {
  icon: string;
  text: string;
  className: string;
}

const VERDICT_LOOK: Record<string, BadgeLook> = {
  reproduced: { icon: '✓', text: 'reproduced', className: 'badge-match' },
  differs: { icon: '✗', text: 'differs', className: 'badge-wrong-value' },
  'measured-only': { icon: '≈', text: 'measured only', className: 'badge-wrong-format' },
  error: { icon: '!', text: 'error', className: 'badge-wrong-value' },
  running: { icon: '…', text: 'running', className: 'badge-missing' },
  'not-run': { icon: '–', text: 'not run', className: 'badge-missing' },
};

function badge(verdict: string): HTMLElement {
  const look = VERDICT_LOOK[verdict] ?? VERDICT_LOOK['error']!;
  return h(
    'span',
    { class: `badge ${look.className}`, 'data-testid': 'claim-verdict', 'data-verdict': verdict },
    h('span', { class: 'badge-icon', 'aria-hidden': 'true' }, look.icon),
    look.text,
  );
}

/** The link that opens one claim's row. */
export function claimHref(id: string): string {
  return `#view=claims&claim=${id}`;
}

function chartSummary(chart: ClaimChart): string {
  const parts = chart.series.map((s) => {
    if (s.x.length === 0) return `${s.name}: no points`;
    let lo = Infinity;
    let hi = -Infinity;
    for (const y of s.y) {
      if (Number.isFinite(y)) {
        lo = Math.min(lo, y);
        hi = Math.max(hi, y);
      }
    }
    const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toPrecision(4));
    return `${s.name}: ${s.x.length} points, ${chart.xLabel} ${fmt(s.x[0]!)} to ${fmt(s.x[s.x.length - 1]!)}, ` +
      `${chart.yLabel} from ${fmt(lo)} to ${fmt(hi)}`;
  });
  return `${parts.join('; ')}.`;
}

function chartTable(chart: ClaimChart): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const s of chart.series) {
    for (let i = 0; i < s.x.length; i++) {
      rows.push(h('tr', {}, h('td', {}, s.name), h('td', {}, String(s.x[i])), h('td', {}, String(s.y[i]))));
    }
  }
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Series'), h('th', { scope: 'col' }, chart.xLabel),
      h('th', { scope: 'col' }, chart.yLabel))),
    h('tbody', {}, ...rows),
  );
}

function chartFigure(id: string, chart: ClaimChart): HTMLElement {
  return figure({
    title: chart.title,
    summary: chartSummary(chart),
    testid: `claim-chart-${id}`,
    draw: async (container) => {
      const charts = await loadCharts();
      return charts.xyChart(container, {
        xLabel: chart.xLabel,
        yLabel: chart.yLabel,
        step: chart.step,
        logX: chart.logX,
        series: chart.series.map((s) => ({ label: s.name, xs: s.x, ys: s.y })),
      });
    },
    table: () => chartTable(chart),
  });
}

interface Row {
  claim: ClaimInfo;
  root: HTMLElement;
  run: HTMLButtonElement;
  show(result: ClaimResult | { error: string } | 'running' | undefined): void;
}

export function claimsView(context: AppContext): ViewInstance {
  const status = h('p', { class: 'muted', 'data-testid': 'claims-status', 'aria-live': 'polite' }, 'Loading the claims…');
  const runAll = h('button', { type: 'button', 'data-testid': 'run-all', disabled: true }, 'Run all');
  const progress = progressPanel('claims');
  const summary = h('p', { 'data-testid': 'claims-summary', 'aria-live': 'polite' });
  const list = h('ol', { class: 'claims-list', 'data-testid': 'claims-list' });
  const root = h(
    'section',
    { class: 'view claims-view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title', tabindex: -1 }, 'Claims of the articles, measured here'),
    h(
      'p',
      {},
      'The papers and articles behind jumphash make checkable claims: a jump table, a moved fraction, a ' +
        'chi-square, a memory figure, a speed ratio. Each row states one, with its source and the published ' +
        'value; Run measures it in this browser (the same catalogue and code as ',
      h('code', {}, 'jumphash reproduce'),
      ') and gives a verdict. Timing claims are ratios measured in this browser, not times.',
    ),
    h('div', { class: 'actions' }, runAll),
    progress.root,
    status,
    summary,
    list,
  );

  const rows: Row[] = [];
  let destroyed = false;
  let runningAll = false;

  function updateSummary(): void {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const r = results.get(row.claim.id);
      const key = r === undefined ? 'not run' : 'error' in r ? 'error' : r.verdict;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const order = ['reproduced', 'differs', 'measured-only', 'error', 'not run'];
    const parts = order.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k.replace('-', ' ')}`);
    summary.textContent = rows.length ? `${rows.length} claims: ${parts.join(', ')}.` : '';
  }

  function makeRow(claim: ClaimInfo): Row {
    const verdictCell = h('span', { class: 'claim-verdict' });
    const measured = h('dd', { 'data-testid': 'claim-measured' });
    const time = h('span', { class: 'muted', 'data-testid': 'claim-time' });
    const chartSlot = h('div', { class: 'claim-chart' });
    const run = h('button', { type: 'button', class: 'secondary', 'data-testid': 'claim-run',
      'aria-label': `Run ${claim.id}` }, 'Run');
    const link = h('a', { href: claimHref(claim.id), 'data-testid': 'claim-link',
      'aria-label': `Link to ${claim.id}` }, 'Link');
    const head = h(
      'div',
      { class: 'claim-head' },
      h('h3', { class: 'claim-id' }, h('code', {}, claim.id)),
      verdictCell,
      run,
      link,
    );
    const details = h(
      'dl',
      { class: 'claim-fields' },
      h('dt', {}, 'Source'), h('dd', { 'data-testid': 'claim-source' }, claim.source),
      h('dt', {}, 'Published'), h('dd', { 'data-testid': 'claim-published' }, claim.published),
      h('dt', {}, 'Measured here'), measured,
      h('dt', {}, 'Tolerance'), h('dd', {}, claim.tolerance),
      h('dt', {}, 'Method'), h('dd', {}, claim.method),
      h('dt', {}, 'Kind'), h('dd', {}, KIND_TEXT[claim.kind]),
    );
    const rootEl = h(
      'li',
      { class: 'claim-row', id: `claim-${claim.id}`, 'data-testid': 'claim-row', 'data-claim': claim.id,
        'data-kind': claim.kind, tabindex: -1 },
      head,
      h('p', { class: 'claim-statement', 'data-testid': 'claim-statement' }, claim.statement),
      details,
      time,
      chartSlot,
    );
    const row: Row = {
      claim,
      root: rootEl,
      run,
      show(result) {
        if (result === undefined) {
          verdictCell.replaceChildren(badge('not-run'));
          measured.textContent = 'not measured yet: press Run';
          time.textContent = '';
          chartSlot.replaceChildren();
        } else if (result === 'running') {
          verdictCell.replaceChildren(badge('running'));
          measured.textContent = 'measuring…';
        } else if ('error' in result) {
          verdictCell.replaceChildren(badge('error'));
          measured.textContent = result.error;
          time.textContent = '';
          chartSlot.replaceChildren();
        } else {
          verdictCell.replaceChildren(badge(result.verdict));
          measured.textContent = result.measured;
          time.textContent = `Measured in ${(result.milliseconds / 1000).toFixed(2)} s in this browser.`;
          chartSlot.replaceChildren(result.chart ? chartFigure(claim.id, result.chart) : '');
        }
      },
    };
    run.addEventListener('click', () => void runOne(row));
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      select(claim.id, true);
    });
    row.show(results.get(claim.id));
    return row;
  }

  /** Highlights the claim's row, scrolls it into view and puts its id in the link. */
  function select(id: string, userAction: boolean): void {
    const target = rows.find((r) => r.claim.id === id);
    for (const row of rows) row.root.classList.toggle('selected', row === target);
    if (!target) {
      status.textContent = `No claim has the id "${id}" (the link may come from a newer version); the ids are: ` +
        `${rows.map((r) => r.claim.id).join(', ')}.`;
      status.setAttribute('role', 'alert');
      return;
    }
    target.root.setAttribute('aria-current', 'true');
    for (const row of rows) if (row !== target) row.root.removeAttribute('aria-current');
    target.root.scrollIntoView({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    target.root.focus({ preventScroll: true });
    if (userAction && context.state.claim !== id) {
      context.state.claim = id;
      context.changed();
    }
  }

  function setBusy(busy: boolean): void {
    runAll.disabled = busy;
    for (const row of rows) row.run.disabled = busy;
  }

  /** Runs one claim on the jobs lane; false when cancelled. */
  async function measure(row: Row): Promise<boolean> {
    row.show('running');
    try {
      const result = await engine.jobs.request({ kind: 'runClaim', id: row.claim.id });
      results.set(row.claim.id, result);
    } catch (error) {
      if (error instanceof CancelledError) {
        row.show(results.get(row.claim.id));
        return false;
      }
      results.set(row.claim.id, { error: error instanceof Error ? error.message : String(error) });
    }
    if (destroyed) return false;
    row.show(results.get(row.claim.id));
    updateSummary();
    return true;
  }

  async function runOne(row: Row): Promise<void> {
    setBusy(true);
    progress.start(`Running ${row.claim.id}…`);
    const done = await measure(row);
    if (destroyed) return;
    progress.finish(done ? '' : 'Cancelled: the claim was not measured.');
    setBusy(false);
  }

  async function runEvery(): Promise<void> {
    setBusy(true);
    runningAll = true;
    const started = performance.now();
    const total = rows.length;
    progress.start('Starting…');
    let completed = 0;
    for (const row of rows) {
      // The claims measured so far, and the one being measured.
      progress.update({ done: completed, total, phase: row.claim.id });
      if (!(await measure(row)) || destroyed || !runningAll) break;
      completed += 1;
    }
    if (destroyed) return;
    progress.update({ done: completed, total, phase: '' }); // the bar's end (finish below shows it)
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    progress.finish(
      completed === total
        ? `Ran all ${total} claims in ${seconds} s.`
        : `Cancelled after ${completed} of ${total} claims; the rows not run keep their earlier results.`,
    );
    root.dataset['runAll'] = completed === total ? 'done' : 'cancelled';
    runningAll = false;
    setBusy(false);
  }

  runAll.addEventListener('click', () => void runEvery());
  progress.onCancel = () => {
    runningAll = false;
    engine.jobs.cancel();
  };

  void (async () => {
    try {
      const claims = await engine.jobs.request({ kind: 'claimsList' });
      if (destroyed) return;
      for (const claim of claims) rows.push(makeRow(claim));
      list.replaceChildren(...rows.map((r) => r.root));
      status.textContent = '';
      updateSummary();
      setBusy(false);
      root.dataset['ready'] = 'true';
      if (context.state.claim) select(context.state.claim, false);
    } catch (error) {
      if (destroyed) return;
      status.textContent = `The claims could not be loaded (${error instanceof Error ? error.message : String(error)}); ` +
        'reload the page to try again.';
      status.setAttribute('role', 'alert');
    }
  })();

  return {
    root,
    destroy() {
      destroyed = true;
      runningAll = false;
      engine.jobs.cancel();
    },
  };
}
