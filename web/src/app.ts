// What the playground and the embed page share: decoding the fragment,
// keeping the URL in step with the state, and mounting views.

import type { AlgorithmInfo, LanguageWords } from 'jumphash-wasm';
import { engine } from './engine/client';
import { h } from './ui/dom';
import { type State, type View, decodeFragment, defaultState, encodeFragment } from './url';
import type { AppContext, ViewFactory, ViewInstance } from './views/context';

/**
 * Each view is a chunk of its own, loaded when first shown: an embed shows
 * one view, so it downloads only that one (the embed page's 120 KB budget).
 */
export const VIEW_FACTORIES: Record<View, () => Promise<ViewFactory>> = {
  compute: () => import('./views/compute').then((m) => m.computeView),
  resize: () => import('./views/resize').then((m) => m.resizeView),
  balance: () => import('./views/balance').then((m) => m.balanceView),
  exercise: () => import('./views/exercise').then((m) => m.exerciseView),
  compare: () => import('./views/compare').then((m) => m.compareView),
  claims: () => import('./views/claims').then((m) => m.claimsView),
};

export const VIEW_LABELS: Record<View, string> = {
  compute: 'Compute',
  resize: 'Resize',
  balance: 'Balance',
  exercise: 'Exercise console',
  compare: 'Compare',
  claims: 'Claims',
};

export interface AppOptions {
  embedded: boolean;
  main: HTMLElement;
  /** Where a bad link's message goes. */
  banner: HTMLElement;
  onViewChange?: (view: View) => void;
  onStateWritten?: (fragment: string) => void;
}

export class App {
  state: State = defaultState();
  algorithms: AlgorithmInfo[] = [];
  language: LanguageWords = { commands: [], algorithms: [] };
  version = '';
  private current: ViewInstance | null = null;
  private writtenFragment: string | null = null;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every navigation to a new fragment; a state write begun before it is dropped. */
  private loadGeneration = 0;

  constructor(private readonly options: AppOptions) {}

  async start(): Promise<void> {
    // The link is decoded against the engine's algorithm names, so the engine answers first.
    const info = await engine.quick.request({ kind: 'info' });
    this.algorithms = info.algorithms;
    this.language = info.language;
    this.version = info.version;
    await this.loadFromLocation(true);
    await this.mount();
    window.addEventListener('hashchange', (event) => {
      // The fragment navigated to, read from the event: a pending write of
      // the previous state may already have replaced location.hash.
      const fragment = new URL(event.newURL).hash.slice(1);
      if (fragment === this.writtenFragment) return;
      clearTimeout(this.writeTimer);
      const load = ++this.loadGeneration;
      void this.loadFromLocation(false, fragment).then((ok) => {
        if (ok && load === this.loadGeneration) void this.mount();
      });
    });
  }


  /** Decodes `fragment` (default: location.hash); on a bad link shows why and keeps what was there. */
  private async loadFromLocation(initial: boolean, fragment = location.hash.slice(1)): Promise<boolean> {
    const load = this.loadGeneration;
    const result = await decodeFragment(`#${fragment}`, this.algorithms.map((a) => a.name));
    if (load !== this.loadGeneration) return false; // a newer navigation wins
    if (!result.ok) {
      this.options.banner.replaceChildren(
        h('strong', {}, 'This link could not be opened. '),
        h('span', { 'data-testid': 'error' }, result.error),
        h(
          'span',
          {},
          initial
            ? ' Showing the default scenario instead; the link in the address bar is unchanged.'
            : ' The page still shows what it showed before.',
        ),
      );
      this.options.banner.hidden = false;
      return false;
    }
    this.options.banner.hidden = true;
    this.options.banner.replaceChildren();
    this.state = result.state;
    this.writtenFragment = fragment;
    if (location.hash.slice(1) !== fragment) history.replaceState(history.state, '', `#${fragment}`);
    return true;
  }

  private context(): AppContext {
    return {
      state: this.state,
      algorithms: this.algorithms,
      language: this.language,
      titles: new Map(this.algorithms.map((a) => [a.name, `${a.title} — ${a.paper}`])),
      changed: () => this.scheduleWrite(),
      show: (view) => this.show(view),
      embedded: this.options.embedded,
    };
  }

  /** Bumped by every mount; a view whose chunk arrives after a newer mount is dropped. */
  private mountGeneration = 0;

  /** Shows state.view (loading its chunk the first time). */
  async mount(): Promise<void> {
    const generation = ++this.mountGeneration;
    const view = this.state.view;
    let factory: ViewFactory;
    try {
      factory = await VIEW_FACTORIES[view]();
    } catch (error) {
      if (generation !== this.mountGeneration) return;
      this.current?.destroy();
      this.current = null;
      this.options.main.replaceChildren(
        h('p', { class: 'field-error', role: 'alert' },
          `The ${view} view could not be loaded (${String(error)}); reload the page to try again.`),
      );
      return;
    }
    if (generation !== this.mountGeneration) return;
    this.current?.destroy();
    this.current = factory(this.context());
    this.options.main.replaceChildren(this.current.root);
    this.options.onViewChange?.(view);
  }

  show(view: View): void {
    if (view === this.state.view) return;
    this.state.view = view;
    void this.mount();
    this.scheduleWrite();
  }

  private scheduleWrite(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = setTimeout(() => void this.writeNow(), 150);
  }

  /** Writes the state into the URL now and returns the fragment. */
  async writeNow(): Promise<string> {
    clearTimeout(this.writeTimer);
    const load = this.loadGeneration;
    const promise = encodeFragment(this.state).then((fragment) => {
      // A navigation since this write began owns the URL now.
      if (load !== this.loadGeneration) return fragment;
      if (fragment !== location.hash.slice(1)) {
        this.writtenFragment = fragment;
        history.replaceState(history.state, '', `#${fragment}`);
      }
      this.options.onStateWritten?.(fragment);
      return fragment;
    });
    return promise;
  }
}
