import type { AlgorithmInfo, LanguageWords, Limits } from 'jumphash-wasm';
import type { State } from '../url';
import { type FieldControl, algorithmPicker, field } from '../ui/controls';
import { grouped, h } from '../ui/dom';

export interface AppContext {
  state: State;
  algorithms: AlgorithmInfo[];
  /** The command language's words (commands, every algorithm name), from the core. */
  language: LanguageWords;
  /** The core's limits table (the package's limits()). */
  limits: Limits;
  titles: Map<string, string>;
  /** Call after changing `state`: the URL follows. */
  changed(): void;
  /** Switches to another view (presets of one view may open another). */
  show(view: State['view']): void;
  /** Compact, read-mostly rendering (embed.html). */
  embedded: boolean;
}

export interface ViewInstance {
  root: HTMLElement;
  destroy(): void;
}

export type ViewFactory = (context: AppContext) => ViewInstance;

type Charts = typeof import('../ui/charts');
let charts: Promise<Charts> | null = null;

/**
 * The charts module (uPlot and our charts), loaded once. The first chart
 * is drawn a task after the module has run: evaluating it took 35 ms and
 * the first chart's drawing 68 ms on a slow CI machine, one 105 ms task
 * when they ran together.
 */
export function loadCharts(): Promise<Charts> {
  charts ??= import('../ui/charts').then(
    (module) => new Promise<Charts>((resolve) => setTimeout(() => resolve(module), 0)),
    (error: unknown) => {
      charts = null; // a later chart tries again
      throw error;
    },
  );
  return charts;
}

/**
 * A chart with its caption, a text summary for everyone (and for screen
 * readers, since the canvas itself is hidden from them) and its data table.
 */
export function figure(options: {
  title: string;
  summary: string;
  draw: (container: HTMLElement) => Promise<unknown> | unknown;
  table: () => HTMLElement;
  testid?: string;
}): HTMLElement {
  const chart = h('div', { class: 'chart', 'aria-hidden': 'true' });
  const details = h('details', { class: 'data-table' }, h('summary', {}, `Data table: ${options.title}`));
  let tableBuilt = false;
  details.addEventListener('toggle', () => {
    if (details.open && !tableBuilt) {
      tableBuilt = true;
      details.append(options.table());
    }
  });
  const root = h(
    'figure',
    { class: 'figure', 'data-testid': options.testid },
    h('figcaption', {}, options.title),
    h('p', { class: 'chart-summary' }, options.summary),
    chart,
    details,
  );
  // Draw once the figure is in the document (uPlot needs the width), one
  // chart per task so that a view with several charts never blocks the main
  // thread for long.
  scheduleDraw(async () => {
    if (!chart.isConnected) return;
    try {
      await options.draw(chart);
    } catch (error) {
      chart.replaceChildren(h('p', { class: 'field-error' }, `The chart failed: ${String(error)}`));
    }
  });
  return root;
}

const drawQueue: (() => Promise<void>)[] = [];
let draining = false;

function scheduleDraw(draw: () => Promise<void>): void {
  drawQueue.push(draw);
  if (draining) return;
  draining = true;
  const next = () => {
    const job = drawQueue.shift();
    if (!job) {
      draining = false;
      return;
    }
    requestAnimationFrame(() => {
      void job().finally(() => setTimeout(next, 0));
    });
  };
  setTimeout(next, 0);
}

/** Runs `task` `delay` ms after the last call (input debouncing). */
export function debounce(task: () => void, delay: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    clearTimeout(timer);
    timer = setTimeout(task, delay);
  };
  run.cancel = () => clearTimeout(timer);
  return run;
}

/** Keys in one key set (the core's limit). */
export const MAX_KEYS = 1_000_000_000;

export function keysHint(): string {
  return (
    'Keys, ranges A..B and random:COUNT:SEED, separated by spaces; paste a list if you like. ' +
    `At most ${grouped(MAX_KEYS)} keys; 10^7 keys take a few seconds per algorithm here.`
  );
}

/** The State fields a view edits as text. */
export type TextStateField = 'key' | 'n' | 'trace' | 'from' | 'to' | 'keys';

/**
 * A text field bound to `state[name]`: an edit updates the state and the
 * link, then calls `rerun`. `options` are field()'s presentation options.
 */
export function stateField(
  context: AppContext,
  name: TextStateField,
  options: Omit<Parameters<typeof field>[0], 'name' | 'value' | 'onInput'>,
  rerun: () => void,
): FieldControl {
  return field({
    ...options,
    name,
    value: context.state[name],
    onInput: (value) => {
      context.state[name] = value;
      context.changed();
      rerun();
    },
  });
}

/** A narrow numeric field bound to `state[name]` (bucket counts). */
export function countField(context: AppContext, name: TextStateField, label: string, rerun: () => void,
                           hint?: string): FieldControl {
  return stateField(context, name, { label, hint, inputMode: 'numeric', width: 'narrow' }, rerun);
}

/** The Keys field of the report views, bound to state.keys. */
export function reportKeysField(context: AppContext, rerun: () => void): FieldControl {
  return stateField(context, 'keys', { label: 'Keys', multiline: true, width: 'wide', hint: keysHint() }, rerun);
}

/** The algorithm checkboxes bound to state.algos: a change updates the link, then calls `rerun`. */
export function stateAlgorithmPicker(context: AppContext, rerun: () => void): ReturnType<typeof algorithmPicker> {
  return algorithmPicker(
    context.algorithms.map((info) => info.name),
    context.state.algos,
    (algos) => {
      context.state.algos = algos;
      context.changed();
      rerun();
    },
    context.titles,
  );
}
