// What the playground and the embed page share: decoding the fragment,
// keeping the URL in step with the state, and mounting views.

import type { AlgorithmInfo, LanguageWords } from 'jumphash-wasm';
import { engine } from './engine/client';
import { h } from './ui/dom';
import { type State, type View, decodeFragment, defaultState, encodeFragment } from './urlState';
import { balanceView } from './views/balance';
import { compareView } from './views/compare';
import { computeView } from './views/compute';
import type { AppContext, ViewFactory, ViewInstance } from './views/context';
import { exerciseView } from './views/exercise';
import { resizeView } from './views/resize';

export const VIEW_FACTORIES: Record<View, ViewFactory> = {
  compute: computeView,
  resize: resizeView,
  balance: balanceView,
  exercise: exerciseView,
  compare: compareView,
};

export const VIEW_LABELS: Record<View, string> = {
  compute: 'Compute',
  resize: 'Resize',
  balance: 'Balance',
  exercise: 'Exercise console',
  compare: 'Compare',
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
    const [info] = await Promise.all([engine.quick.request({ kind: 'info' }), this.loadFromLocation(true)]);
    this.algorithms = info.algorithms;
    this.language = info.language;
    this.version = info.version;
    this.mount();
    window.addEventListener('hashchange', (event) => {
      // The fragment navigated to, read from the event: a pending write of
      // the previous state may already have replaced location.hash.
      const fragment = new URL(event.newURL).hash.slice(1);
      if (fragment === this.writtenFragment) return;
      clearTimeout(this.writeTimer);
      const load = ++this.loadGeneration;
      void this.loadFromLocation(false, fragment).then((ok) => {
        if (ok && load === this.loadGeneration) this.mount();
      });
    });
  }


  /** Decodes `fragment` (default: location.hash); on a bad link shows why and keeps what was there. */
  private async loadFromLocation(initial: boolean, fragment = location.hash.slice(1)): Promise<boolean> {
    const load = this.loadGeneration;
    const result = await decodeFragment(`#${fragment}`);
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

  mount(): void {
    this.current?.destroy();
    this.current = VIEW_FACTORIES[this.state.view](this.context());
    this.options.main.replaceChildren(this.current.root);
    this.options.onViewChange?.(this.state.view);
  }

  show(view: View): void {
    if (view === this.state.view) return;
    this.state.view = view;
    this.mount();
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
