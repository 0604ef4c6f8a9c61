// One scaffold for the report views (Resize, Balance, Compare): a request on
// the jobs lane with the progress panel and Cancel, the engine's errors shown
// next to the field they blame (the view's own fields or the scenario
// control's nodes / steps / opts) or else in the results area, the previous
// report kept but marked out of date while a new one runs (shown once it
// has run BUSY_SHOWN_AFTER_MS: a shorter run draws nothing), and destroy.
// A report of a million keys or more closes the panel with how long it took
// and on how many workers; the cards under a report load on first use
// (lazyCards). Each view supplies only how to build its request, how to
// render a reply and what it counted.

import { CancelledError, EngineError, engine } from '../engine/client';
import type { Field, ReplyMap, Request } from '../engine/protocol';
import { type FieldControl, type ProgressPanel, progressPanel } from '../ui/controls';
import { h } from '../ui/dom';
import type { ScenarioControl } from '../ui/scenario';
import { debounce } from './context';

/** The kinds of request a report view runs on the jobs lane. */
export type ReportKind = 'resize' | 'load' | 'compare';
export type ReportRequest<K extends ReportKind> = Extract<Request, { kind: K }>;

export interface ReportViewOptions<K extends ReportKind> {
  /**
   * The view's fields by the request field an engine error blames (keys, n,
   * from, to, ...). Read at every run, so the view may fill the object after
   * this call (its fields need `rerun`, which this call makes).
   */
  fields: Partial<Record<Field, FieldControl>>;
  /** The node-list control, when the view has one (read at every run): it shows errors blamed on nodes / steps / opts. */
  scenario?: () => ScenarioControl | undefined;
  /**
   * Checks the inputs and builds the request. Errors are already cleared when
   * it is called; on bad input it shows them (setError / showError) and
   * returns null: no request runs and the results area empties. It may
   * answer later (a promise), e.g. while a pasted key list is prepared in a
   * worker; a newer run or Cancel makes its answer be ignored.
   */
  build(): ReportRequest<K> | null | Promise<ReportRequest<K> | null>;
  /** Shows a reply; `request` is the request it answers; `seconds` the wall time it took. */
  render(reply: ReplyMap[K], request: ReportRequest<K>, seconds: number): void;
  /**
   * What a report of at least DONE_SHOWN_FROM_KEYS keys counted, for the
   * progress panel's closing message ("Done in 0.58 s on 2 workers: " and
   * this, e.g. "10,000,000 keys × 2 resize report(s)"); without it, or for
   * a shorter report, the panel closes empty.
   */
  summary?(reply: ReplyMap[K]): string;
  /** Milliseconds of quiet after an edit before the report runs again (default 300). */
  delay?: number;
  /** The progress text after Cancel (default: how to run it again). */
  cancelledText?: string;
}

export interface ReportView {
  /** The progress bar with its Cancel button; place it above `results` (it keeps its place while hidden). */
  progress: ProgressPanel;
  /** Where the report (or its error) appears. */
  results: HTMLElement;
  /** Runs the report again after `delay` ms of quiet (give it to the fields' onInput). */
  rerun: { (): void; cancel(): void };
  /** Runs the report now (cancelling any running one). */
  run(): Promise<void>;
  /** Stops the running report and every pending rerun; later replies are ignored. */
  destroy(): void;
}

/**
 * Milliseconds a run goes on before the page shows it (the out-of-date
 * note, the progress panel); `aria-busy` is set at once. A shorter run
 * draws no frame until its report: on 2 cores, the workers share them with
 * the page, and in Chromium traces of a 2-worker resize over
 * `random:10000000:1` (83-98 ms), the browser's threads other than the
 * workers were busy 46-71 ms of it, the main thread 20-31 (a 10 ms frame
 * for the note, 5.6 ms for the first progress); 14-26 ms with the delay.
 * A delay up to about 1 s keeps the reader's flow of thought without any
 * sign of it (J. Nielsen, Usability Engineering, 1993).
 */
export const BUSY_SHOWN_AFTER_MS = 200;

/**
 * Keys a report counts at least for the progress panel to say, once it is
 * done, how long it took and on how many workers (ReportViewOptions.summary):
 * a shorter one is done before a reader would wonder.
 */
export const DONE_SHOWN_FROM_KEYS = 1_000_000;

/** The text of the note above a report that no longer matches the inputs. */
export const OUT_OF_DATE_TEXT = 'Out of date: the inputs changed and a new report is running…';

/**
 * Marks the report in `results` out of date (or current again): a visible
 * note first in the area (drawn over the report's top corner, so that the
 * report does not move), `aria-busy` for screen readers and `data-stale`
 * for styling. Does nothing to an empty area.
 */
export function markOutOfDate(results: HTMLElement, outOfDate: boolean): void {
  const note = results.querySelector(':scope > .out-of-date');
  if (!outOfDate) {
    note?.remove();
    results.removeAttribute('aria-busy');
    results.removeAttribute('data-stale');
    return;
  }
  if (results.childElementCount === 0 || note) return;
  results.setAttribute('aria-busy', 'true');
  results.setAttribute('data-stale', '');
  results.prepend(h('p', { class: 'out-of-date hint', role: 'status', 'data-testid': 'out-of-date' }, OUT_OF_DATE_TEXT));
}

/** Shows an error in the results area (messages no field owns). */
export function resultsError(results: HTMLElement, message: string): void {
  markOutOfDate(results, false);
  results.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error', role: 'alert' }, message));
}

export function reportView<K extends ReportKind>(options: ReportViewOptions<K>): ReportView {
  // Neither sign of a run moves the report: the panel keeps its place and
  // the note is drawn over the report's top corner (style.css), so the
  // report does not jump down 200 ms into a run and back when it ends.
  const progress = progressPanel();
  const results = h('div', { class: 'results' });
  let generation = 0;

  function clearErrors(): void {
    for (const control of Object.values(options.fields)) control?.setError(null);
    options.scenario?.()?.clearErrors();
  }

  function showFieldError(blamed: Field | undefined, message: string): boolean {
    const control = blamed ? options.fields[blamed] : undefined;
    if (control) {
      control.setError(message);
      return true;
    }
    return options.scenario?.()?.showError(blamed, message) ?? false;
  }

  /** Set while a run waits BUSY_SHOWN_AFTER_MS to mark the report out of date. */
  let noteTimer = 0;

  /**
   * A run started: `aria-busy` now, the note and `label` in the progress
   * panel once it has run BUSY_SHOWN_AFTER_MS. Each call sets a User Timing
   * mark, `jumphash:run`, before it arms either delay (DevTools shows it;
   * e2e/long.spec.ts measures the delays from the run's first).
   */
  function markRunning(label: string): void {
    performance.mark('jumphash:run');
    progress.start(label, BUSY_SHOWN_AFTER_MS);
    if (results.childElementCount === 0 || noteTimer) return;
    results.setAttribute('aria-busy', 'true');
    noteTimer = window.setTimeout(() => {
      noteTimer = 0;
      markOutOfDate(results, true);
    }, BUSY_SHOWN_AFTER_MS);
  }

  /** No run is going: the report shown (or the message) is current. */
  function markCurrent(): void {
    if (noteTimer) clearTimeout(noteTimer);
    noteTimer = 0;
    markOutOfDate(results, false);
  }

  function showCancelled(): void {
    markCurrent();
    progress.finish(options.cancelledText ?? 'Cancelled. Change an input to run the report again.');
    results.replaceChildren(h('p', { class: 'muted' }, 'The report was cancelled; nothing is shown half-way.'));
  }

  function showError(error: unknown): void {
    markCurrent();
    progress.finish('');
    const message = error instanceof Error ? error.message : String(error);
    const blamed = error instanceof EngineError ? error.field : undefined;
    if (showFieldError(blamed, message)) results.replaceChildren();
    else resultsError(results, message);
  }

  /** Set while a run waits for its request (build's promise): Cancel then stops the run itself. */
  let preparing = false;
  progress.onCancel = () => {
    engine.reports.cancel();
    if (preparing) {
      preparing = false;
      generation++;
      showCancelled();
    }
  };

  async function run(): Promise<void> {
    const current = ++generation;
    performance.clearMarks('jumphash:run'); // this run's marks only, not every run's since the page loaded
    engine.reports.cancel();
    clearErrors();
    let request: ReportRequest<K> | null;
    try {
      const built = options.build();
      if (built instanceof Promise) {
        markRunning('Reading the keys…');
        preparing = true;
        try {
          request = await built;
        } finally {
          if (current === generation) preparing = false;
        }
        if (current !== generation) return;
      } else request = built;
    } catch (error) {
      if (current !== generation) return;
      if (error instanceof CancelledError) showCancelled();
      else showError(error);
      return;
    }
    if (!request) {
      markCurrent();
      results.replaceChildren();
      progress.finish('');
      return;
    }
    markRunning('Starting…');
    const started = performance.now();
    try {
      const reply = await engine.reports.request(request, (p) => {
        if (current === generation) progress.update(p);
      });
      if (current !== generation) return;
      const seconds = (performance.now() - started) / 1000;
      const { keyCount = 0, workers } = reply as { keyCount?: number; workers?: number };
      const summary = keyCount >= DONE_SHOWN_FROM_KEYS ? options.summary?.(reply as ReplyMap[K]) : undefined;
      progress.finish(summary ? `Done in ${seconds.toFixed(2)} s${workers ? ` on ${workers} workers` : ''}: ${summary}.` : '');
      markCurrent();
      options.render(reply as ReplyMap[K], request, seconds);
    } catch (error) {
      if (current !== generation) return;
      if (error instanceof CancelledError) showCancelled();
      else showError(error);
    }
  }

  const rerun = debounce(() => void run(), options.delay ?? 300);
  return {
    progress,
    results,
    rerun,
    run,
    destroy() {
      rerun.cancel();
      generation++;
      engine.reports.cancel();
      markCurrent();
      progress.finish('');
    },
  };
}

// The cards under a report (the Resize and Balance views': charts, tables,
// downloads) load their code on first use: the embed page never shows them
// and keeps its first load small (web/scripts/budget.mjs).

/**
 * A function that fills `container` with `draw(module)` once `load()`'s
 * module is in, the first call starting the load. A later call wins over an
 * earlier one still waiting. A failed load says so in `container` (naming
 * `what`) and is tried again at the next call.
 */
export function lazyCards<M>(
  load: () => Promise<M>,
  what: string,
): (container: HTMLElement, draw: (module: M) => HTMLElement[]) => void {
  let module: Promise<M> | undefined;
  let calls = 0;
  return (container, draw) => {
    const call = ++calls;
    module ??= load();
    module.then(
      (loaded) => {
        if (call === calls) container.replaceChildren(...draw(loaded));
      },
      (error: unknown) => {
        module = undefined;
        if (call === calls) container.replaceChildren(h('p', { class: 'field-error' }, `The ${what} could not be loaded (${String(error)}); change an input to try again.`));
      },
    );
  };
}
