// What the playground and the embed page share: decoding the fragment,
// keeping the URL in step with the state, and mounting views.
//
// Links never lose work: a link value with no meaning is dropped and named
// in the banner while the rest loads; a state the page cannot put in a link
// (too large, see encodeLink) is not written, and a persistent notice says
// so and offers a scenario file; the banner's words about the address bar
// are updated when the page rewrites it.

import type { AlgorithmInfo, LanguageWords, Limits } from 'jumphash-wasm';
import { engine } from './engine/client';
import { h } from './ui/dom';
import {
  type DecodeResult,
  type LinkResult,
  MAX_FIELD_LENGTH,
  MAX_LINK_LENGTH,
  type State,
  type View,
  decodeFragment,
  defaultState,
  encodeLink,
  sameState,
} from './url';
import type { BannerContent } from './ui/linkMessages';
import type { AppContext, ViewFactory, ViewInstance } from './views/context';

type LinkMessages = typeof import('./ui/linkMessages');

/** The page's words about links, loaded when there is something to say. */
const linkMessages = (): Promise<LinkMessages> => import('./ui/linkMessages');

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
  /** Where a bad link's (or imported file's) message goes. */
  banner: HTMLElement;
  /** Where the notices about the link go (too large for a link, text it
   *  carries repaired); created before `main` when absent. */
  notice?: HTMLElement;
  /** Saves the scenario as a file: offered in the too-large notice (the
   *  playground's Export); without it the notice offers none. */
  exportScenario?: () => void;
  onViewChange?: (view: View) => void;
  onStateWritten?: (fragment: string) => void;
}

export class App {
  state: State = defaultState();
  algorithms: AlgorithmInfo[] = [];
  language: LanguageWords = { commands: [], algorithms: [] };
  limits: Limits | null = null;
  version = '';
  private current: ViewInstance | null = null;
  private writtenFragment: string | null = null;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every navigation to a new fragment; a state write begun before it is dropped. */
  private loadGeneration = 0;
  /** Bumped by every write; a write that finishes after a newer one began is not applied. */
  private writeGeneration = 0;
  /** Bumped by every banner and notice shown; one whose messages arrive after a newer one is dropped. */
  private bannerGeneration = 0;
  private noticeGeneration = 0;
  /** The banner's sentence about the address bar, and what it becomes once the page rewrites the fragment. */
  private addressNote: { element: HTMLElement; rewritten: string } | null = null;
  /** What the last applied write found. */
  private lastLink: LinkResult | null = null;
  /** The last link made and the state it was made of (Copy link reuses it while the state is the same). */
  private encoded: { state: State; result: LinkResult } | null = null;
  /** A copy of the state last exported as a file (markExported). */
  private exportedState: State | null = null;
  /** True while the state is in neither the address bar nor an exported file. */
  private unsaved = false;
  private readonly notice: HTMLElement;

  constructor(private readonly options: AppOptions) {
    this.notice = options.notice ?? h('div', { class: 'banner link-notice', role: 'status', hidden: true });
    if (!options.notice) options.main.before(this.notice);
  }

  /** Longest text field a link carries: the core's limits table when the
   *  engine reports it (`link-field-chars`), else MAX_FIELD_LENGTH. */
  private maxFieldChars(): number {
    const fromCore = (this.limits as { maxLinkFieldChars?: unknown } | null)?.maxLinkFieldChars;
    return typeof fromCore === 'number' && fromCore > 0 ? fromCore : MAX_FIELD_LENGTH;
  }

  /** Longest link the page writes: the core's `link-chars` when the engine
   *  reports it, else MAX_LINK_LENGTH. */
  private maxLinkChars(): number {
    const fromCore = (this.limits as { maxLinkChars?: unknown } | null)?.maxLinkChars;
    return typeof fromCore === 'number' && fromCore > 0 ? fromCore : MAX_LINK_LENGTH;
  }

  private knownAlgorithms(): string[] {
    return this.algorithms.map((a) => a.name);
  }

  async start(): Promise<void> {
    // The link is decoded against the engine's algorithm names, so the engine answers first.
    const info = await engine.quick.request({ kind: 'info' });
    this.algorithms = info.algorithms;
    engine.reports.consistentAlgorithms = new Set(info.algorithms.filter((a) => a.consistent).map((a) => a.name));
    this.language = info.language;
    this.limits = info.limits;
    this.version = info.version;
    await this.loadFromLocation(true);
    await this.mount();
    void this.prepareLink();
    if (!this.options.embedded) {
      // A scenario in neither the address bar nor a file is lost by a reload: ask first.
      window.addEventListener('beforeunload', (event) => {
        if (!this.unsaved) return;
        event.preventDefault();
        event.returnValue = '';
      });
    }
    window.addEventListener('hashchange', (event) => {
      // The fragment navigated to, read from the event: a pending write of
      // the previous state may already have replaced location.hash.
      const fragment = new URL(event.newURL).hash.slice(1);
      if (fragment === this.writtenFragment) return;
      clearTimeout(this.writeTimer);
      const load = ++this.loadGeneration;
      void this.loadFromLocation(false, fragment).then(async (ok) => {
        if (!ok || load !== this.loadGeneration) return;
        await this.mount();
        void this.prepareLink();
      });
    });
  }


  /**
   * Decodes `fragment` (default: location.hash). A damaged link loads
   * nothing and the banner says why; a link with values that have no
   * meaning loads without them and the banner names each.
   */
  private async loadFromLocation(initial: boolean, fragment = location.hash.slice(1)): Promise<boolean> {
    const load = this.loadGeneration;
    const result = await decodeFragment(`#${fragment}`, this.knownAlgorithms(), { maxFieldChars: this.maxFieldChars() });
    if (load !== this.loadGeneration) return false; // a newer navigation wins
    if (!result.ok) {
      void this.showBanner((m) => m.failedBanner(initial ? 'initial' : 'later', result.error));
      return false;
    }
    void this.showBanner(result.dropped.length > 0 ? (m) => m.droppedBanner('link', result.dropped) : null);
    this.state = result.state;
    this.writtenFragment = fragment;
    if (location.hash.slice(1) !== fragment) history.replaceState(history.state, '', `#${fragment}`);
    return true;
  }

  /**
   * Shows what `make` builds in the banner (null: hides it). Its sentence
   * about the address bar becomes the `rewritten` one when the page
   * rewrites the fragment (addressBarRewritten), or already has since.
   */
  private async showBanner(make: ((messages: LinkMessages) => BannerContent) | null): Promise<void> {
    const generation = ++this.bannerGeneration;
    const banner = this.options.banner;
    this.addressNote = null;
    if (make === null) {
      banner.hidden = true;
      banner.replaceChildren();
      return;
    }
    const hash = location.hash;
    const { parts, address } = make(await linkMessages());
    if (generation !== this.bannerGeneration) return; // a newer banner won
    banner.replaceChildren(...parts);
    if (address) {
      const rewritten = location.hash !== hash;
      const element = h('span', { 'data-testid': 'address-bar' }, rewritten ? address.rewritten : address.now);
      banner.append(element);
      if (!rewritten) this.addressNote = { element, rewritten: address.rewritten };
    }
    banner.hidden = false;
  }

  /** Called when the page has changed the fragment: the banner stops saying it did not. */
  private addressBarRewritten(): void {
    if (!this.addressNote) return;
    this.addressNote.element.textContent = this.addressNote.rewritten;
    this.addressNote = null;
  }

  /**
   * Loads a scenario file's text (Export's JSON): checked as a link is; a
   * file that is not a scenario loads nothing; bad values are dropped and
   * named. Returns what was read.
   */
  async importScenario(text: string): Promise<DecodeResult> {
    // Loaded on first use: the embed page never imports a file.
    const { readScenarioFile } = await import('./url/file');
    const result = readScenarioFile(text, this.knownAlgorithms());
    if (!result.ok) {
      await this.showBanner((m) => m.failedBanner('file', result.error));
      return result;
    }
    clearTimeout(this.writeTimer);
    this.loadGeneration++; // a write of the previous state must not land after this one
    await this.showBanner(result.dropped.length > 0 ? (m) => m.droppedBanner('file', result.dropped) : null);
    this.state = result.state;
    await this.mount();
    await this.writeNow();
    return result;
  }

  /** Tells the page the current state was saved as a file (Export). */
  markExported(): void {
    this.exportedState = { ...this.state, algos: [...this.state.algos] };
    if (this.lastLink) void this.showNotice(this.lastLink);
  }

  private context(): AppContext {
    return {
      state: this.state,
      algorithms: this.algorithms,
      language: this.language,
      limits: this.limits!,
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

  /**
   * Writes the state into the URL now, when it fits in a link, and returns
   * what was found: the fragment, or why there is none. A state too large
   * for a link is not written (the address bar keeps what it held) and the
   * notice says so.
   */
  async writeNow(): Promise<LinkResult> {
    clearTimeout(this.writeTimer);
    const load = this.loadGeneration;
    const write = ++this.writeGeneration;
    const result = await this.encode();
    // A navigation or a newer write since this one began owns the URL now.
    if (load !== this.loadGeneration || write !== this.writeGeneration) return result;
    if (result.ok) {
      if (result.fragment !== location.hash.slice(1)) {
        this.writtenFragment = result.fragment;
        history.replaceState(history.state, '', `#${result.fragment}`);
        this.addressBarRewritten();
      }
      this.options.onStateWritten?.(result.fragment);
    }
    void this.showNotice(result);
    return result;
  }

  /** The link of the current state, remembered with a copy of the state it was made of. */
  private async encode(): Promise<LinkResult> {
    const state: State = { ...this.state, algos: [...this.state.algos] };
    const prefixLength = location.href.length - location.hash.length + 1;
    const result = await encodeLink(state, { prefixLength, maxFieldChars: this.maxFieldChars(), maxLinkChars: this.maxLinkChars() });
    this.encoded = { state, result };
    return result;
  }

  /** Makes the link of a state just loaded, without touching the address
   *  bar, so that Copy link can answer at once. */
  private async prepareLink(): Promise<void> {
    if (this.options.embedded || this.currentLink()) return;
    const load = this.loadGeneration;
    const result = await this.encode();
    if (load === this.loadGeneration && this.currentLink() === result) void this.showNotice(result);
  }

  /** The link of the current state when it is already made (by the last
   *  write, or after loading), else null: then call writeNow. */
  currentLink(): LinkResult | null {
    return this.encoded && sameState(this.encoded.state, this.state) ? this.encoded.result : null;
  }

  /** The notice about the last write: too large for a link, text repaired. */
  private async showNotice(result: LinkResult): Promise<void> {
    const generation = ++this.noticeGeneration;
    this.lastLink = result;
    const exported = this.exportedState !== null && sameState(this.exportedState, this.state);
    this.unsaved = !result.ok && !exported;
    if (result.ok && result.repaired.length === 0) {
      this.notice.hidden = true;
      this.notice.replaceChildren();
      return;
    }
    const parts = (await linkMessages()).noticeParts(result, {
      exportScenario: this.options.exportScenario,
      exported,
      addressEmpty: location.hash.length <= 1,
    });
    if (generation !== this.noticeGeneration) return; // a newer write's notice won
    this.notice.replaceChildren(...parts);
    this.notice.hidden = parts.length === 0;
  }
}
