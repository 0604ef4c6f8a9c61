// "Check my output": a student's output beside the script's, line by line,
// with a verdict badge on every line and, on a wrong line, the classic mistake
// that reproduces it (the core's checker, the same report as `jumphash check`).
//
// The pasted output lives only in this module (kept across view switches in
// this tab); it is never written into the state or a link. A large output (a
// file of 50 MB, a paste of 10^6 lines) is never put into the text box: it is
// kept as it came (a string, or the file itself, read only in the worker) and
// a summary stands in for the box (ui/largeTextBox.ts).
//
// Checks run in the text worker (ui/textLanes.ts), in a lane of their own:
// the Compute view and the console answer while a check runs, Cancel
// terminates that worker, and the page only receives what it shows (the
// counts and the shown lines, ui/checkDigest.ts). A check keeps running when
// the student switches to another view; coming back shows its result.

import './checker.css';
import '../ui/badges.css';
import type { CheckDiagnosis, CheckLine } from 'jumphash-wasm';
import { CancelledError, EngineError } from '../engine/client';
import type { CheckDigest } from '../ui/checkDigest';
import { download, grouped, h, prefersReducedMotion, uniqueId } from '../ui/dom';
import { LARGE_TEXT_CHARS } from '../ui/largeText';
import { type TextMeasure, formatBytes } from '../ui/textMeasure';
import { type LargeTextBox, largeTextBox } from '../ui/largeTextBox';
import { type TextSource, textLane } from '../ui/textLanes';
import { textBlob } from '../ui/textTransfer';

export { MAX_SHOWN_PROBLEMS, SHOW_ALL_LINES } from '../ui/checkDigest';

/** The student's output, in memory only (never in the URL): the box's text, or a file not read on this thread. */
let studentOutput: TextSource = '';

/** Checks of the box's output (Cancel terminates this lane's worker). */
const boxChecks = textLane();
/** Checks of a program's output (the workspace's report), apart from the box's. */
const programChecks = textLane();
/** The last outputs measured (size and lines), so that coming back to the view does not measure again. */
const measured = new Map<TextSource, TextMeasure>();
/** The output the box-check worker last measured and kept the text of (its next check reads no file). */
let keptInWorker: TextSource | null = null;

/**
 * Measures a large output in the box's check lane (one worker: starting a
 * worker costs the main thread about 40 ms), before any check of it; the
 * worker keeps a file's text for that check.
 */
async function measureOutput(source: TextSource): Promise<TextMeasure> {
  const known = measured.get(source);
  if (known) return known;
  const sent = await forWorker(source);
  keptInWorker = source;
  const measure = await boxChecks.request({ kind: 'measure', source: sent, keep: true });
  measured.set(source, measure);
  for (const key of measured.keys()) if (measured.size > 2) measured.delete(key);
  return measure;
}

/**
 * The box's last check, kept across view switches: it runs on when its
 * panel goes away, and the next panel shows its result (once).
 */
interface BoxCheck {
  script: string;
  source: TextSource;
  /** Lines of the output, when known (for "Checking 1,000,000 lines…"). */
  lines: number | null;
  promise: Promise<CheckDigest>;
  /** Cancel or Clear came first: a request not yet sent is not sent. */
  stopped: boolean;
  outcome: { digest: CheckDigest } | { error: unknown } | null;
  /** A panel has shown its outcome. */
  seen: boolean;
}
let boxCheck: BoxCheck | null = null;

/** Largest file read from a drop or the picker (the checker reads at most 10^6 lines). */
export const MAX_OUTPUT_FILE_BYTES = 64 * 1024 * 1024;

export const VERDICTS: Record<string, { icon: string; text: string }> = {
  match: { icon: '✓', text: 'match' },
  'wrong-value': { icon: '✗', text: 'wrong value' },
  'wrong-format': { icon: '¶', text: 'wrong format' },
  missing: { icon: '∅', text: 'missing' },
  extra: { icon: '+', text: 'extra' },
  'out-of-order': { icon: '⇅', text: 'out of order' },
};

export interface CheckerOptions {
  /** The script being checked against (the editor's text, or the problem's). */
  script(): string;
  /** Moves the editor to a script line (absent when the script is not editable). */
  focusScriptLine?: (line: number) => void;
  /** Problem mode: expected lines stay hidden until the student asks. */
  problem: boolean;
  /** Tells whether the student has asked to see the whole expected output. */
  revealed(): boolean;
  /**
   * Only the report: no box to paste into. The workspace checks its own
   * program's output with `checkText` and shows the report under it.
   */
  reportOnly?: boolean;
}

export interface CheckerPanel {
  root: HTMLElement;
  /** Shows or hides the expected column (problem mode's "Show expected output"). */
  setRevealed(revealed: boolean): void;
  /** Checks this output (a program's, not the box's) and shows the report. */
  checkText(output: string): Promise<void>;
  /** Removes the report (the program is running again). */
  clear(message?: string): void;
  destroy(): void;
}

/** The summary of a large output: "1,000,000 lines pasted, 25.3 MB" or "out.txt: 1,000,000 lines, 25.3 MB". */
export function outputSummary(lines: number, bytes: number, fileName: string | null): string {
  const counted = `${grouped(lines)} line${lines === 1 ? '' : 's'}`;
  return fileName !== null ? `${fileName}: ${counted}, ${formatBytes(bytes)}` : `${counted} pasted, ${formatBytes(bytes)}`;
}

/** Starts the box-check worker when the page is next idle (it loads the checker only on the first check). */
function warmBoxChecks(): void {
  requestIdleCallback(() => boxChecks.warm(), { timeout: 3000 });
}

function isLargeSource(source: TextSource): boolean {
  return typeof source === 'string' ? source.length > LARGE_TEXT_CHARS : source.size > LARGE_TEXT_CHARS;
}

/** What to send a worker for `source`: a large string as a Blob (no task copies it whole: ui/textTransfer.ts). */
async function forWorker(source: TextSource): Promise<TextSource> {
  return typeof source === 'string' && source.length > LARGE_TEXT_CHARS ? textBlob(source) : source;
}

export function checkerPanel(options: CheckerOptions): CheckerPanel {
  const inputId = uniqueId('check-output');
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const fileId = uniqueId('check-file');

  const textarea = h('textarea', {
    id: inputId,
    name: 'output',
    rows: 6,
    spellcheck: 'false',
    autocomplete: 'off',
    'data-testid': 'check-output',
    'aria-describedby': `${hintId} ${errorId}`,
  });
  /** Lines of the held output, once measured (for the status while checking). */
  let measuredLines: { source: TextSource; lines: number } | null = null;
  const box: LargeTextBox | null = options.reportOnly
    ? null
    : largeTextBox({
        textarea,
        initial: studentOutput,
        downloadName: 'my-output.txt',
        testid: 'check-output-summary',
        label: 'Your program’s output',
        async describe(source) {
          const measure = await measureOutput(source);
          measuredLines = { source, lines: measure.lines };
          if (boxCheck?.source === source && boxCheck.outcome === null && boxCheck.lines === null) {
            boxCheck.lines = measure.lines;
            refreshChecking?.();
          }
          return outputSummary(measure.lines, measure.bytes, source instanceof File ? source.name : null);
        },
        onChange(source) {
          studentOutput = source;
        },
      });
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      checkBox();
    }
  });
  const error = h('p', { class: 'field-error', id: errorId, 'aria-live': 'polite' });
  const dropNote = h('p', { class: 'drop-note', 'aria-hidden': 'true' }, 'Drop the file to check it');
  const dropZone = h(
    'div',
    { class: 'drop-zone', 'data-testid': 'check-drop' },
    h('label', { for: inputId }, 'Your program’s output'),
    textarea,
    box?.summary ?? null,
    dropNote,
  );
  const fileInput = h('input', {
    type: 'file',
    id: fileId,
    accept: '.txt,.out,.output,.log,text/plain',
    'data-testid': 'check-file',
  });
  const checkButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'check' }, 'Check my output', h('kbd', {}, 'Ctrl+Enter'));
  const cancelButton = h('button', { type: 'button', class: 'secondary', 'data-testid': 'check-cancel', hidden: true }, 'Cancel the check');
  const clearButton = h('button', { type: 'button', class: 'secondary' }, 'Clear');
  const reportButton = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Download the report');
  const result = h('div', { class: 'check-result', 'data-testid': 'check-result' });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });

  /** Bumped by each check this panel starts or shows, by Clear and by destroy: older outcomes are ignored. */
  let generation = 0;
  let last: CheckDigest | null = null;
  let revealedAll = options.revealed();
  /** Expected lines the student asked to see one by one (problem mode). */
  const revealedLines = new Set<number>();
  /** This panel waits for a check of a program's output. */
  let programPending = false;

  function setError(message: string | null): void {
    if (options.reportOnly) {
      // No box to mark: the message goes where the report goes.
      if (message) result.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
      return;
    }
    if (message) {
      error.textContent = message;
      error.dataset['testid'] = 'error';
      textarea.setAttribute('aria-invalid', 'true');
      dropZone.classList.add('invalid');
    } else {
      error.textContent = '';
      delete error.dataset['testid'];
      textarea.removeAttribute('aria-invalid');
      dropZone.classList.remove('invalid');
    }
  }

  function showChecking(text: string): void {
    result.replaceChildren(h('p', { class: 'muted', 'data-testid': 'check-status' }, text));
    live.textContent = text;
  }

  /** Shows a check's failure: the output's problem next to the box, others in the report area. */
  function showFailure(failure: unknown): void {
    result.replaceChildren();
    live.textContent = '';
    if (failure instanceof CancelledError) {
      showChecking('The check was cancelled: nothing is shown half-way. Check again when you are ready.');
      return;
    }
    const message = failure instanceof Error ? failure.message : String(failure);
    if (failure instanceof EngineError && failure.field !== 'output' && failure.field !== undefined) {
      result.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
    } else setError(message);
  }

  function showOutcome(entry: BoxCheck, scroll: boolean): void {
    entry.seen = true;
    cancelButton.hidden = true;
    const outcome = entry.outcome!;
    if (entry.script !== options.script()) {
      showChecking('Your last check was against another script; check again to check against this one.');
      return;
    }
    if ('digest' in outcome) {
      last = outcome.digest;
      reportButton.disabled = false;
      render(outcome.digest, scroll);
    } else showFailure(outcome.error);
  }

  /** Rewrites the running check's status (once its output's lines are counted). */
  let refreshChecking: (() => void) | null = null;

  /** Shows `entry` running, then its outcome (unless this panel has moved on). */
  function follow(entry: BoxCheck, resumed: boolean): void {
    const current = ++generation;
    refreshChecking = () => {
      if (current !== generation || entry.outcome !== null) return;
      const lines = entry.lines === null ? null : `${grouped(entry.lines)} line${entry.lines === 1 ? '' : 's'}`;
      showChecking(
        resumed
          ? `Still checking your output${lines ? ` (${lines})` : ''}: the check you started before leaving this view runs on…`
          : `Checking ${lines ?? 'your output'}…`,
      );
    };
    refreshChecking();
    cancelButton.hidden = false;
    const settle = () => {
      if (current !== generation || boxCheck !== entry) return;
      showOutcome(entry, true);
    };
    entry.promise.then(settle, settle);
  }

  /** Stops the box's running check, if any (its worker is terminated). */
  function stopBoxCheck(): void {
    if (!boxCheck || boxCheck.outcome !== null) return;
    boxCheck.stopped = true;
    boxChecks.cancel();
  }

  /** Checks the box's output (the text or the file it holds). */
  function checkBox(): void {
    if (!box) return;
    setError(null);
    const source = box.value();
    studentOutput = source;
    stopBoxCheck(); // the new check replaces a running one
    const script = options.script();
    const promise = forWorker(source).then((output) => {
      if (entry.stopped) throw new CancelledError();
      const measuredHere = keptInWorker === source;
      keptInWorker = null;
      return boxChecks.request({ kind: 'check', script, output, measured: measuredHere });
    });
    const entry: BoxCheck = {
      script,
      source,
      lines: measuredLines?.source === source ? measuredLines.lines : null,
      promise,
      stopped: false,
      outcome: null,
      seen: false,
    };
    boxCheck = entry;
    promise.then(
      (digest) => {
        entry.outcome = { digest };
      },
      (failure: unknown) => {
        entry.outcome = { error: failure };
      },
    ).finally(() => {
      // A large check grew the worker's memory, which WebAssembly never gives
      // back: a fresh worker takes the next check.
      if (isLargeSource(source)) {
        boxChecks.release();
        warmBoxChecks();
      }
    });
    follow(entry, false);
  }

  /** Checks a program's output (the workspace's) and shows the report. */
  async function checkText(output: string): Promise<void> {
    const current = ++generation;
    setError(null);
    showChecking('Checking…');
    programPending = true;
    try {
      const digest = await programChecks.request({ kind: 'check', script: options.script(), output: await forWorker(output) });
      if (current !== generation) return;
      last = digest;
      reportButton.disabled = false;
      render(digest, true);
    } catch (failure) {
      if (current !== generation) return;
      showFailure(failure);
    } finally {
      if (current === generation) programPending = false;
      if (output.length > LARGE_TEXT_CHARS) programChecks.release();
    }
  }

  async function readFile(file: File): Promise<void> {
    if (!box) return;
    setError(null);
    if (file.size > MAX_OUTPUT_FILE_BYTES) {
      setError(`The file ${file.name} has ${grouped(file.size)} bytes; the checker reads files up to ${grouped(MAX_OUTPUT_FILE_BYTES)} bytes.`);
      return;
    }
    if (file.size > LARGE_TEXT_CHARS) {
      // Not read here: the worker reads it when it checks.
      box.set(file, 'file');
    } else {
      let text: string;
      try {
        text = await file.text();
      } catch (failure) {
        setError(`The file ${file.name} could not be read: ${String(failure)}`);
        return;
      }
      box.set(text, 'file');
    }
    studentOutput = box.value();
    checkBox();
  }

  // Drop a file anywhere on the box (the textarea included).
  let dragDepth = 0;
  dropZone.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    dragDepth++;
    dropZone.classList.add('dragging');
  });
  dropZone.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  dropZone.addEventListener('dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) dropZone.classList.remove('dragging');
  });
  dropZone.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    dragDepth = 0;
    dropZone.classList.remove('dragging');
    if (!file) return; // dropped text: the box inserts it (a large text becomes a summary)
    event.preventDefault();
    void readFile(file);
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) void readFile(file);
    fileInput.value = '';
  });
  checkButton.addEventListener('click', () => checkBox());
  cancelButton.addEventListener('click', () => {
    stopBoxCheck();
    cancelButton.hidden = true;
  });
  function clear(message?: string): void {
    generation++;
    last = null;
    reportButton.disabled = true;
    cancelButton.hidden = true;
    setError(null);
    result.replaceChildren(...(message ? [h('p', { class: 'muted' }, message)] : []));
    live.textContent = '';
  }
  clearButton.addEventListener('click', () => {
    // The output being checked is gone: so is its check, and the text the worker kept.
    stopBoxCheck();
    boxCheck = null;
    if (keptInWorker !== null && !boxChecks.busy) boxChecks.release();
    keptInWorker = null;
    box?.set('');
    studentOutput = '';
    clear();
    textarea.focus();
  });
  reportButton.addEventListener('click', () => {
    if (last) download('jumphash-check.txt', [last.report]);
  });

  // ---- the report ----

  function render(digest: CheckDigest, scroll: boolean): void {
    const summaryText = `checked: ${grouped(digest.matching)} of ${grouped(digest.expectedLines)} lines match`;
    const summary = h(
      'p',
      { class: digest.allMatch ? 'check-summary ok' : 'check-summary bad', 'data-testid': 'check-summary' },
      h('span', { class: 'summary-icon', 'aria-hidden': 'true' }, digest.allMatch ? '✓' : '✗'),
      ' ',
      summaryText,
      digest.actualLines !== digest.expectedLines ? ` (your output has ${grouped(digest.actualLines)} line${digest.actualLines === 1 ? '' : 's'})` : '',
    );
    const countText = digest.counts
      .map(([verdict, count]) => `${grouped(count)} ${VERDICTS[verdict]?.text ?? verdict}`)
      .join(' · ');
    const parts: Node[] = [summary];
    if (digest.allMatch) {
      parts.push(h('p', { class: 'hint' }, 'Every line is exactly what the script prints, and there is no extra line.'));
    } else if (countText) {
      parts.push(h('p', { class: 'check-counts', 'data-testid': 'check-counts' }, countText));
    }
    if (digest.scriptErrors.length) {
      parts.push(
        h(
          'div',
          { class: 'check-script-errors', 'data-testid': 'check-script-errors' },
          h('p', {}, h('strong', {}, `⚠ The script itself has ${digest.scriptErrors.length} failing line${digest.scriptErrors.length === 1 ? '' : 's'}`), ': the expected output is what the other lines print.'),
          h('ul', {}, ...digest.scriptErrors.map((message) => h('li', { 'data-testid': 'error' }, message))),
        ),
      );
    }
    if (digest.alignedByPosition) {
      parts.push(h('p', { class: 'hint' }, 'Part of the outputs was too large to align by key; its lines were paired by position.'));
    }
    let firstProblem: HTMLElement | null = null;
    let goTo: HTMLButtonElement | null = null;
    const first = digest.rows.find((row): row is CheckLine => typeof row !== 'number' && row.verdict !== 'match');
    if (first) {
      goTo = h('button', { type: 'button', class: 'link', 'data-testid': 'check-first-mismatch' }, `Go to the first mismatch (${where(first)})`);
      parts.push(h('p', { class: 'check-nav' }, goTo));
    }
    if (digest.rows.length) {
      const built = buildTable(digest);
      firstProblem = built.first;
      parts.push(h('div', { class: 'check-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Line-by-line verdicts' }, built.table));
      if (digest.shownProblems < digest.problems) {
        parts.push(
          h('p', { class: 'hint' }, `The first ${grouped(digest.shownProblems)} of ${grouped(digest.problems)} differences are shown; Download the report for all of them.`),
        );
      }
    }
    result.replaceChildren(...parts);
    live.textContent = `${summaryText}.${countText ? ` ${countText}.` : ''}`;
    const target = firstProblem;
    if (target && goTo) {
      goTo.addEventListener('click', () => {
        target.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
        target.focus({ preventScroll: true });
      });
    }
    if (scroll && target) {
      // After layout: bring the first mismatch into view (inside the table's
      // own scroll box and the page), without moving keyboard focus.
      requestAnimationFrame(() => {
        if (target.isConnected) target.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
      });
    }
  }

  function buildTable(digest: CheckDigest): { table: HTMLTableElement; first: HTMLElement | null } {
    const explained = new Set<string>();
    const table = h(
      'table',
      { class: 'check-table', 'data-testid': 'check-table' },
      h('caption', { class: 'visually-hidden' }, 'Each expected line with its verdict and your line'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', class: 'num' }, 'Line'),
          h('th', { scope: 'col' }, 'Verdict'),
          h('th', { scope: 'col' }, 'Expected output'),
          h('th', { scope: 'col' }, 'Your output'),
        ),
      ),
    );
    let first: HTMLElement | null = null;
    for (const row of digest.rows) {
      if (typeof row === 'number') {
        table.append(
          h('tbody', { class: 'check-gap' }, h('tr', {}, h('td', { colspan: 4 }, `⋯ ${grouped(row)} matching line${row === 1 ? '' : 's'} not shown`))),
        );
        continue;
      }
      const body = lineBody(row, explained);
      if (!first && row.verdict !== 'match') first = body;
      table.append(body);
    }
    return { table, first };
  }

  function lineBody(line: CheckLine, explained: Set<string>): HTMLElement {
    const verdict = VERDICTS[line.verdict] ?? { icon: '?', text: line.verdict };
    const isExtra = line.verdict === 'extra';
    const body = h('tbody', {
      class: `check-line verdict-${line.verdict}`,
      'data-verdict': line.verdict,
      'data-testid': isExtra ? `check-extra-${line.actualLine}` : `check-line-${line.expectedLine}`,
      tabindex: line.verdict === 'match' ? undefined : -1,
    });
    const badge = h(
      'span',
      { class: `badge badge-${line.verdict}`, 'data-testid': 'verdict' },
      h('span', { class: 'badge-icon', 'aria-hidden': 'true' }, verdict.icon),
      ` ${verdict.text}`,
    );
    const expectedCell = h('td', { class: 'check-text expected' });
    fillExpected(expectedCell, line);
    const actualCell = h('td', { class: 'check-text actual' });
    if (line.verdict === 'missing') {
      actualCell.append(h('span', { class: 'absent' }, '(no line)'));
    } else {
      actualCell.append(visibleText(line.actual, line.verdict === 'wrong-format' || line.formatProblem !== ''));
      if (line.actualLine !== line.expectedLine) {
        actualCell.append(h('span', { class: 'line-ref' }, ` your line ${grouped(line.actualLine)}`));
      }
    }
    body.append(
      h(
        'tr',
        { class: 'check-row' },
        h('th', { scope: 'row', class: 'num' }, isExtra ? h('span', { class: 'visually-hidden' }, 'extra, ') : null, isExtra ? '+' : grouped(line.expectedLine)),
        h('td', {}, badge),
        expectedCell,
        actualCell,
      ),
    );
    if (line.verdict !== 'match') body.append(h('tr', { class: 'check-detail' }, h('td', { colspan: 4 }, ...details(line, explained))));
    return body;
  }

  function fillExpected(cell: HTMLElement, line: CheckLine): void {
    if (line.verdict === 'extra') {
      cell.replaceChildren(h('span', { class: 'absent' }, '(no expected line)'));
      return;
    }
    // A matching line is the student's own text: showing it gives nothing away.
    if (!options.problem || revealedAll || line.verdict === 'match' || revealedLines.has(line.expectedLine)) {
      cell.classList.remove('masked');
      cell.replaceChildren(visibleText(line.expected, false));
      return;
    }
    // Problem mode: the expected text is not put into the page until asked.
    cell.classList.add('masked');
    const children: (Node | string)[] = [h('span', { class: 'hidden-text' }, 'hidden')];
    {
      const show = h(
        'button',
        { type: 'button', class: 'link reveal-line', 'aria-label': `Show expected line ${line.expectedLine}` },
        'Show',
      );
      show.addEventListener('click', () => {
        revealedLines.add(line.expectedLine);
        fillExpected(cell, line);
        cell.closest('tbody')?.focus({ preventScroll: true });
      });
      children.push(' ', show);
    }
    cell.replaceChildren(...children);
  }

  function details(line: CheckLine, explained: Set<string>): Node[] {
    const out: Node[] = [];
    if (line.scriptLine) {
      const label = `script line ${line.scriptLine}`;
      const ref: Node = options.focusScriptLine
        ? h('button', { type: 'button', class: 'link', onclick: () => options.focusScriptLine?.(line.scriptLine) }, label)
        : document.createTextNode(label);
      out.push(h('p', { class: 'check-where' }, isExtraWhere(line), ref, line.command ? ': ' : '', line.command ? h('code', {}, line.command) : null));
    }
    if (line.formatProblem) out.push(h('p', { class: 'format-problem' }, h('strong', {}, 'Format: '), `${line.formatProblem}.`));
    if (line.diagnoses.length === 0 && line.verdict === 'wrong-value') {
      out.push(h('p', { class: 'muted' }, 'No known mistake gives exactly this value: recompute this line by hand, step by step.'));
    }
    for (const diagnosis of line.diagnoses) out.push(diagnosisBlock(diagnosis, explained));
    return out;
  }

  const api = {
    setRevealed(revealed: boolean) {
      revealedAll = revealed;
      if (last) render(last, false);
    },
    checkText,
    clear,
    destroy() {
      generation++;
      box?.destroy();
      // A program's check belongs to its run, which goes with the panel; the
      // box's check runs on, and the next panel shows its outcome.
      if (programPending) programChecks.cancel();
    },
  };
  // Starting a worker takes the main thread about 40 ms: start the box's
  // check worker while the page is idle, not when the student checks.
  if (!options.reportOnly) warmBoxChecks();
  // Back from another view: the check started there runs on or has finished.
  if (!options.reportOnly && boxCheck && !boxCheck.seen) {
    if (boxCheck.outcome === null) follow(boxCheck, true);
    else showOutcome(boxCheck, true);
  }
  if (options.reportOnly) {
    return { root: h('div', { class: 'checker report-only' }, live, result, h('div', { class: 'toolbar' }, reportButton)), ...api };
  }
  return {
    root: h(
      'section',
      { class: 'checker', 'aria-labelledby': 'checker-title' },
      h('h3', { id: 'checker-title' }, 'Check my output'),
      h(
        'p',
        { class: 'hint', id: hintId },
        'Paste what your program printed for this script, drop the file onto the box, or choose it. Your output stays in this tab: it is never put into a link.',
      ),
      dropZone,
      error,
      h(
        'div',
        { class: 'toolbar' },
        checkButton,
        cancelButton,
        h('span', { class: 'file-pick' }, h('label', { for: fileId }, 'Or check a file:'), fileInput),
        clearButton,
        reportButton,
      ),
      live,
      result,
    ),
    ...api,
  };
}

function isExtraWhere(line: CheckLine): string {
  return line.verdict === 'extra' ? 'Next to the output of ' : 'Printed by ';
}

function where(line: CheckLine): string {
  return line.verdict === 'extra' ? `your line ${grouped(line.actualLine)}, extra` : `expected line ${grouped(line.expectedLine)}, ${VERDICTS[line.verdict]?.text ?? line.verdict}`;
}

/** One diagnosis: the identifier and this line's evidence always; the
 *  explanation and the fix open the first time the identifier appears, and
 *  behind "Why, and the fix" after that. */
function diagnosisBlock(diagnosis: CheckDiagnosis, explained: Set<string>): HTMLElement {
  const head = h('p', { class: 'diagnosis-head' }, h('code', { class: 'diagnosis-id' }, diagnosis.id), ` ${diagnosis.detail}`);
  const explanation = h('p', {}, diagnosis.explanation);
  const fix = h('p', { class: 'fix' }, h('strong', {}, 'Fix: '), diagnosis.fix);
  const firstTime = !explained.has(diagnosis.id);
  explained.add(diagnosis.id);
  return h(
    'div',
    { class: 'diagnosis', 'data-diagnosis': diagnosis.id },
    head,
    firstTime ? explanation : h('details', {}, h('summary', {}, 'Why, and the fix'), explanation, fix),
    firstTime ? fix : null,
  );
}

/** The text with its tabs and spaces made visible when the format is in
 *  question (a tab as ⇥, each space as ·), as text nodes only. */
function visibleText(text: string, showSpaces: boolean): Node {
  const code = h('code', {});
  if (!showSpaces) {
    code.textContent = text === '' ? '(empty line)' : text;
    return code;
  }
  if (text === '') {
    code.textContent = '(empty line)';
    return code;
  }
  let plain = '';
  const flush = () => {
    if (plain) code.append(plain);
    plain = '';
  };
  for (const char of text) {
    if (char === '\t' || char === ' ') {
      flush();
      code.append(
        h(
          'span',
          { class: char === '\t' ? 'ws ws-tab' : 'ws', title: char === '\t' ? 'a tab' : 'a space' },
          h('span', { 'aria-hidden': 'true' }, char === '\t' ? '→' : '·'),
          h('span', { class: 'visually-hidden' }, char === '\t' ? ' [tab] ' : ' '),
        ),
      );
    } else plain += char;
  }
  flush();
  return code;
}
