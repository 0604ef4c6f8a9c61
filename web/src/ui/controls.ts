// Labelled inputs with their error next to them, the algorithm picker, and
// the progress panel of long reports.

import { grouped, h, prefersReducedMotion, uniqueId } from './dom';
import type { Progress } from '../engine/client';

export interface FieldControl {
  root: HTMLElement;
  input: HTMLInputElement | HTMLTextAreaElement;
  setError(message: string | null): void;
  value(): string;
}

export function field(options: {
  label: string;
  name: string;
  value: string;
  hint?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'text';
  width?: 'narrow' | 'wide';
  onInput: (value: string) => void;
}): FieldControl {
  const id = uniqueId(`field-${options.name}`);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const input = options.multiline
    ? h('textarea', { id, name: options.name, rows: 2, spellcheck: 'false', autocomplete: 'off' })
    : h('input', {
        id,
        name: options.name,
        type: 'text',
        spellcheck: 'false',
        autocomplete: 'off',
        inputmode: options.inputMode === 'numeric' ? 'numeric' : undefined,
      });
  input.value = options.value;
  input.setAttribute('aria-describedby', options.hint ? `${hintId} ${errorId}` : errorId);
  input.addEventListener('input', () => options.onInput(input.value));
  const error = h('p', { class: 'field-error', id: errorId, 'aria-live': 'polite' });
  const root = h(
    'div',
    { class: `field ${options.width ?? ''}` },
    h('label', { for: id }, options.label),
    input,
    options.hint ? h('p', { class: 'hint', id: hintId }, options.hint) : null,
    error,
  );
  return {
    root,
    input,
    value: () => input.value,
    setError(message) {
      if (message) {
        error.textContent = message;
        error.dataset['testid'] = 'error';
        input.setAttribute('aria-invalid', 'true');
        root.classList.add('invalid');
      } else {
        error.textContent = '';
        delete error.dataset['testid'];
        input.removeAttribute('aria-invalid');
        root.classList.remove('invalid');
      }
    },
  };
}

/**
 * Checkboxes for the algorithms `names` (the engine's algorithms(), in its
 * order); keeps at least one selected. `titles` gives each name's tooltip.
 */
export function algorithmPicker(
  names: readonly string[],
  selected: string[],
  onChange: (algos: string[]) => void,
  titles: Map<string, string>,
) {
  const boxes = new Map<string, HTMLInputElement>();
  const error = h('p', { class: 'field-error', 'aria-live': 'polite' });
  const list = h('div', { class: 'algo-list' });
  const emit = () => {
    const algos = names.filter((name) => boxes.get(name)?.checked);
    if (algos.length === 0) {
      error.textContent = 'Select at least one algorithm.';
      error.dataset['testid'] = 'error';
      return;
    }
    error.textContent = '';
    delete error.dataset['testid'];
    onChange([...algos]);
  };
  for (const name of names) {
    const id = uniqueId(`algo-${name}`);
    const box = h('input', { type: 'checkbox', id, name: 'algo', value: name, onchange: emit });
    box.checked = selected.includes(name);
    boxes.set(name, box);
    list.append(
      h('label', { for: id, class: 'algo-option', title: titles.get(name) ?? name }, box, h('code', {}, name)),
    );
  }
  return h('fieldset', { class: 'algos' }, h('legend', {}, 'Algorithms'), list, error);
}

export interface ProgressPanel {
  root: HTMLElement;
  /**
   * Starts a run's progress with `label`. With `showAfterMs`, the panel
   * shows the run only once it is still going that many ms later (progress
   * reported meanwhile is drawn then), and until then keeps what it showed
   * (hidden, or the last run's closing message): a run that ends sooner
   * draws nothing. A panel showing a run still going (its Cancel on
   * screen, the run just replaced) shows the new one at once.
   */
  start(label: string, showAfterMs?: number): void;
  update(progress: Progress): void;
  /** Replaces the text while the bar stays as it is (work without a known total). */
  label(text: string): void;
  /**
   * Ends the run: the bar at the last progress reported (drawn or not), the
   * text `message` and Cancel hidden; with '' the whole panel is hidden.
   */
  finish(message: string): void;
  onCancel: (() => void) | null;
}

/**
 * Progress is drawn at most this often (ms); the first report of a run at
 * once. Each drawing costs a frame (style, layout, paint, composite), and
 * every worker reports 20 times a second: in a Chromium trace of a 10^8-key
 * resize on 2 workers, 17 such frames took 125 ms of the main thread's
 * 186 ms, time the two workers then lacked on a 2-core machine.
 */
export const PROGRESS_DRAW_EVERY_MS = 250;

/**
 * A progress bar, its text and Cancel, counting `unit`, as the text says:
 * "25.0% · 3 of 12 claims · jump-table" (a report's key lookups, the
 * Claims view's claims). Hidden, the panel keeps its place (an
 * empty row, as tall as when shown, at any width; style.css): showing it
 * mid-run, its text changing, or its closing message moves nothing below it
 * (a report, the console's output), which would otherwise jump down and
 * back up when the run ends.
 */
export function progressPanel(unit = 'key lookups'): ProgressPanel {
  const bar = h('progress', { max: 1, value: 0, 'aria-label': 'Progress' });
  const text = h('span', { class: 'progress-text', 'aria-live': 'polite' });
  const cancel = h('button', { type: 'button', class: 'secondary', 'data-testid': 'cancel' }, 'Cancel');
  const root = h('div', { class: 'progress-panel', hidden: true, 'data-testid': 'progress' }, bar, cancel, text);
  /** The newest report not drawn yet, when a drawing is scheduled. */
  let latest: Progress | null = null;
  let timer = 0;
  let drawnAt = -Infinity;
  /** Set while a start waits to show the panel (start's showAfterMs), with the label it will show. */
  let showTimer = 0;
  let pendingLabel = '';
  const draw = (progress: Progress) => {
    // A User Timing mark per drawing (DevTools shows them; e2e/long.spec.ts counts them).
    drawnAt = performance.mark('jumphash:progress').startTime;
    bar.max = progress.total; // a total of 0 leaves it as it was (HTML takes a positive max only)
    bar.value = progress.done;
    const pct = progress.total ? ((progress.done / progress.total) * 100).toFixed(1) : '0';
    // The share first, then the counts, then which report: where the
    // panel is short of room, the text is cut from its end (style.css).
    text.textContent = `${pct}% · ${grouped(progress.done)} of ${grouped(progress.total)} ${unit} · ${progress.phase}`;
  };
  /** Drops a scheduled drawing and a pending show (start's showAfterMs): the text is about to say something newer. */
  const forget = () => {
    if (timer) clearTimeout(timer);
    if (showTimer) clearTimeout(showTimer);
    timer = 0;
    showTimer = 0;
    latest = null;
  };
  const show = (label: string) => {
    root.hidden = false;
    // Indeterminate (an animated bar) until the first report, unless the
    // reader asked for reduced motion: then a still, empty bar.
    if (prefersReducedMotion()) bar.value = 0;
    else bar.removeAttribute('value');
    text.textContent = label;
    cancel.hidden = false;
    cancel.disabled = false;
  };
  const panel: ProgressPanel = {
    root,
    onCancel: null,
    start(label, showAfterMs = 0) {
      const running = !root.hidden && !cancel.hidden;
      forget();
      drawnAt = -Infinity;
      performance.clearMarks('jumphash:progress'); // the marks of this run only, not of every run since the page loaded
      if (running || showAfterMs <= 0) {
        show(label);
        return;
      }
      pendingLabel = label;
      showTimer = window.setTimeout(() => {
        showTimer = 0;
        const reported = latest;
        latest = null;
        show(pendingLabel);
        if (reported) draw(reported);
      }, showAfterMs);
    },
    update(progress) {
      if (showTimer) {
        latest = progress;
        return;
      }
      const wait = drawnAt + PROGRESS_DRAW_EVERY_MS - performance.now();
      if (wait <= 0 && !timer) {
        draw(progress);
        return;
      }
      latest = progress;
      timer ||= window.setTimeout(() => {
        timer = 0;
        if (latest) draw(latest);
        latest = null;
      }, Math.max(0, Math.ceil(wait))); // setTimeout would drop the fraction
    },
    label(label) {
      if (showTimer) {
        pendingLabel = label;
        latest = null;
        return;
      }
      forget();
      text.textContent = label;
    },
    finish(message) {
      // The bar shows the last progress reported, drawn or not (its text
      // gives way to the message): no mark, as no drawing of its own.
      if (latest) {
        bar.max = latest.total;
        bar.value = latest.done;
      }
      forget();
      cancel.hidden = true;
      // Hidden, the text is emptied too: the panel keeps its place, and
      // would keep the last run's text and its height.
      text.textContent = message;
      root.hidden = !message;
    },
  };
  cancel.addEventListener('click', () => panel.onCancel?.());
  return panel;
}

/** Checks a count typed by the user: plain digits in min..max. */
export function parseCount(text: string, what: string, min: number, max: number): number | string {
  const trimmed = text.trim();
  const message = `${what} must be an integer in ${min}..${max} (got '${trimmed}')`;
  if (!/^[0-9]+$/.test(trimmed)) return message;
  if (trimmed.replace(/^0+/, '').length > 10) return message;
  const value = Number(trimmed); // counts only (at most 10 digits): exact in a double
  if (value < min || value > max) return message;
  return value;
}

/** Parses "12" or "12, 11, 16" (also "12 11 16", "12 -> 11 -> 16"). */
export function parseChain(text: string, what: string, min: number, max: number): number[] | string {
  const parts = text
    .split(/\s*(?:,|->|→|\s)\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return `${what} must be an integer in ${min}..${max} (got '')`;
  if (parts.length > 16) return `${what}: at most 16 steps in a chain`;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseCount(part, what, min, max);
    if (typeof value === 'string') return value;
    values.push(value);
  }
  return values;
}
