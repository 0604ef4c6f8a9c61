// "Check my output": a student's output beside the script's, line by line,
// with a verdict badge on every line and, on a wrong line, the classic mistake
// that reproduces it (the core's checker, the same report as `jumphash check`).
//
// The pasted output lives only in this module (kept across view switches in
// this tab); it is never written into the state or a link.

import type { CheckDiagnosis, CheckLine } from 'jumphash-wasm';
import { EngineError, engine } from '../engine/client';
import type { CheckReply } from '../engine/protocol';
import { download, grouped, h, prefersReducedMotion, uniqueId } from '../ui/dom';

/** The student's output, in memory only (never in the URL). */
let studentOutput = '';

/** Largest file read from a drop or the picker (the checker reads at most 10^6 lines). */
export const MAX_OUTPUT_FILE_BYTES = 64 * 1024 * 1024;
/** Outputs up to this many lines are shown whole; longer ones show the differences with context. */
export const SHOW_ALL_LINES = 600;
/** Lines of context around each difference in a long output. */
const CONTEXT = 2;
/** Most differences shown in the page (the downloaded report has all). */
export const MAX_SHOWN_PROBLEMS = 300;

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
  textarea.value = studentOutput;
  textarea.addEventListener('input', () => {
    studentOutput = textarea.value;
  });
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void check();
    }
  });
  const error = h('p', { class: 'field-error', id: errorId, 'aria-live': 'polite' });
  const dropNote = h('p', { class: 'drop-note', 'aria-hidden': 'true' }, 'Drop the file to check it');
  const dropZone = h(
    'div',
    { class: 'drop-zone', 'data-testid': 'check-drop' },
    h('label', { for: inputId }, 'Your program’s output'),
    textarea,
    dropNote,
  );
  const fileInput = h('input', {
    type: 'file',
    id: fileId,
    accept: '.txt,.out,.output,.log,text/plain',
    'data-testid': 'check-file',
  });
  const checkButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'check' }, 'Check my output', h('kbd', {}, 'Ctrl+Enter'));
  const clearButton = h('button', { type: 'button', class: 'secondary' }, 'Clear');
  const reportButton = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Download the report');
  const result = h('div', { class: 'check-result', 'data-testid': 'check-result' });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });

  let generation = 0;
  let last: CheckReply | null = null;
  let revealedAll = options.revealed();
  /** Expected lines the student asked to see one by one (problem mode). */
  const revealedLines = new Set<number>();

  function setError(message: string | null): void {
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

  async function check(output?: string): Promise<void> {
    const current = ++generation;
    setError(null);
    if (output === undefined) studentOutput = textarea.value;
    result.replaceChildren(h('p', { class: 'muted' }, 'Checking…'));
    live.textContent = 'Checking…';
    try {
      const reply = await engine.quick.request({ kind: 'check', script: options.script(), output: output ?? studentOutput });
      if (current !== generation) return;
      last = reply;
      reportButton.disabled = false;
      render(reply, true);
    } catch (failure) {
      if (current !== generation) return;
      result.replaceChildren();
      live.textContent = '';
      const message = failure instanceof Error ? failure.message : String(failure);
      if (failure instanceof EngineError && failure.field !== 'output' && failure.field !== undefined) {
        result.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
      } else setError(message);
    }
  }

  async function readFile(file: File): Promise<void> {
    setError(null);
    if (file.size > MAX_OUTPUT_FILE_BYTES) {
      setError(`The file ${file.name} has ${grouped(file.size)} bytes; the checker reads files up to ${grouped(MAX_OUTPUT_FILE_BYTES)} bytes.`);
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (failure) {
      setError(`The file ${file.name} could not be read: ${String(failure)}`);
      return;
    }
    textarea.value = text;
    studentOutput = text;
    await check();
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
    if (!file) return; // dropped text: the textarea's own behaviour inserts it
    event.preventDefault();
    void readFile(file);
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) void readFile(file);
    fileInput.value = '';
  });
  checkButton.addEventListener('click', () => void check());
  function clear(message?: string): void {
    generation++;
    last = null;
    reportButton.disabled = true;
    setError(null);
    result.replaceChildren(...(message ? [h('p', { class: 'muted' }, message)] : []));
    live.textContent = '';
  }
  clearButton.addEventListener('click', () => {
    textarea.value = '';
    studentOutput = '';
    clear();
    textarea.focus();
  });
  reportButton.addEventListener('click', () => {
    if (last) download('jumphash-check.txt', last.text);
  });

  // ---- the report ----

  function render(reply: CheckReply, scroll: boolean): void {
    const problems = reply.lines.filter((line) => line.verdict !== 'match');
    const summaryText = `checked: ${grouped(reply.matching)} of ${grouped(reply.expectedLines)} lines match`;
    const summary = h(
      'p',
      { class: reply.allMatch ? 'check-summary ok' : 'check-summary bad', 'data-testid': 'check-summary' },
      h('span', { class: 'summary-icon', 'aria-hidden': 'true' }, reply.allMatch ? '✓' : '✗'),
      ' ',
      summaryText,
      reply.actualLines !== reply.expectedLines ? ` (your output has ${grouped(reply.actualLines)} line${reply.actualLines === 1 ? '' : 's'})` : '',
    );
    const counts = new Map<string, number>();
    for (const line of problems) counts.set(line.verdict, (counts.get(line.verdict) ?? 0) + 1);
    const countText = [...counts]
      .map(([verdict, count]) => `${grouped(count)} ${VERDICTS[verdict]?.text ?? verdict}`)
      .join(' · ');
    const parts: Node[] = [summary];
    if (reply.allMatch) {
      parts.push(h('p', { class: 'hint' }, 'Every line is exactly what the script prints, and there is no extra line.'));
    } else if (countText) {
      parts.push(h('p', { class: 'check-counts', 'data-testid': 'check-counts' }, countText));
    }
    if (reply.scriptErrors.length) {
      parts.push(
        h(
          'div',
          { class: 'check-script-errors', 'data-testid': 'check-script-errors' },
          h('p', {}, h('strong', {}, `⚠ The script itself has ${reply.scriptErrors.length} failing line${reply.scriptErrors.length === 1 ? '' : 's'}`), ': the expected output is what the other lines print.'),
          h('ul', {}, ...reply.scriptErrors.map((message) => h('li', { 'data-testid': 'error' }, message))),
        ),
      );
    }
    if (reply.alignedByPosition) {
      parts.push(h('p', { class: 'hint' }, 'Part of the outputs was too large to align by key; its lines were paired by position.'));
    }
    let firstProblem: HTMLElement | null = null;
    let goTo: HTMLButtonElement | null = null;
    if (problems.length) {
      const first = problems[0]!;
      goTo = h('button', { type: 'button', class: 'link', 'data-testid': 'check-first-mismatch' }, `Go to the first mismatch (${where(first)})`);
      parts.push(h('p', { class: 'check-nav' }, goTo));
    }
    if (reply.lines.length) {
      const { table, first, shownProblems } = buildTable(reply);
      firstProblem = first;
      parts.push(h('div', { class: 'check-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Line-by-line verdicts' }, table));
      if (shownProblems < problems.length) {
        parts.push(
          h('p', { class: 'hint' }, `The first ${grouped(shownProblems)} of ${grouped(problems.length)} differences are shown; Download the report for all of them.`),
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

  function buildTable(reply: CheckReply): { table: HTMLTableElement; first: HTMLElement | null; shownProblems: number } {
    const lines = reply.lines;
    // Which lines to show: all of a short output; of a long one, each
    // difference (the first MAX_SHOWN_PROBLEMS) with CONTEXT lines around it.
    const show = new Uint8Array(lines.length);
    let shownProblems = 0;
    if (lines.length <= SHOW_ALL_LINES) {
      show.fill(1);
      shownProblems = lines.filter((line) => line.verdict !== 'match').length;
    } else {
      for (let i = 0; i < lines.length && shownProblems < MAX_SHOWN_PROBLEMS; i++) {
        if (lines[i]!.verdict === 'match') continue;
        shownProblems++;
        for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) show[j] = 1;
      }
    }
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
    let hiddenRun = 0;
    const flushGap = () => {
      if (hiddenRun === 0) return;
      table.append(
        h('tbody', { class: 'check-gap' }, h('tr', {}, h('td', { colspan: 4 }, `⋯ ${grouped(hiddenRun)} matching line${hiddenRun === 1 ? '' : 's'} not shown`))),
      );
      hiddenRun = 0;
    };
    for (let i = 0; i < lines.length; i++) {
      if (!show[i]) {
        hiddenRun++;
        continue;
      }
      flushGap();
      const body = lineBody(lines[i]!, explained);
      if (!first && lines[i]!.verdict !== 'match') first = body;
      table.append(body);
    }
    flushGap();
    return { table, first, shownProblems };
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
    checkText: (output: string) => check(output),
    clear,
    destroy() {
      generation++;
    },
  };
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
