// A read-only text box for program output that may run to a megabyte:
// short text is one <pre> (selectable, searchable, as before); past
// VIRTUAL_FROM_LINES lines only the lines in view are laid out, so a
// streamed run never costs the main thread a layout of 90,000 lines.
// Used by the Exercise console and the workspace.
//
// Appended text is indexed (its line starts found) a slice per frame, at
// most INDEX_CHARS_PER_FRAME characters: a megabyte of output arriving at
// once (90,000 lines) took one frame of 60-70 ms to index on a busy 2-core
// machine (a Chromium trace of e2e/stream.spec.ts); in slices each frame
// stays a few milliseconds and the text shows as it is indexed.

import { h } from './dom';

/** Up to this many lines the whole text is laid out; beyond, only what is in view. */
export const VIRTUAL_FROM_LINES = 3000;
/** Lines laid out above and below the visible ones while scrolling. */
const OVERSCAN = 40;
/** Fallback line height (px) when the style cannot be measured. */
const DEFAULT_LINE_HEIGHT = 18;
/** Characters indexed per frame (line starts found); the rest waits for the next frames. */
export const INDEX_CHARS_PER_FRAME = 1 << 17;

export interface VirtualText {
  /** The scroll box (focusable: arrows and Page Down scroll it). */
  root: HTMLElement;
  /** The <pre> holding the laid-out lines (all of them when short). */
  pre: HTMLPreElement;
  /** Appends text; laid out over the next frames. */
  append(text: string): void;
  /** Replaces all the text (laid out at once when short, else over the next frames). */
  set(text: string): void;
  /** Lines laid out so far (a last line without '\n' counts). */
  readonly lineCount: number;
  destroy(): void;
}

export function virtualText(options: { label: string; testid: string; className?: string }): VirtualText {
  const pre = h('pre', { 'data-testid': options.testid }) as HTMLPreElement;
  const spacer = h('div', { class: 'vtext-spacer' }, pre);
  const root = h('div', { class: `vtext ${options.className ?? ''}`.trim(), tabindex: 0, role: 'region', 'aria-label': options.label, 'aria-busy': 'false' }, spacer);

  let text = '';
  /** Offsets where each line starts in text[0, indexed); starts[0] = 0. */
  let starts: number[] = [0];
  /** Characters of `text` indexed and shown; the rest is indexed over the next frames. */
  let indexed = 0;
  let laidOut = -1; // text length laid out in small mode
  let frame = 0;
  let lineHeight = 0;
  let virtual = false;
  let window: [number, number] = [-1, -1];

  function lines(): number {
    return indexed === 0 ? 0 : text.charCodeAt(indexed - 1) === 10 ? starts.length - 1 : starts.length;
  }

  /** Indexes up to `budget` more characters of `text` (to the end of a line when it can). */
  function index(budget: number): void {
    const stop = Math.min(text.length, indexed + budget);
    let at = text.indexOf('\n', indexed);
    while (at !== -1 && at < stop) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
    // Stop after the last whole line within the budget, unless the text ends
    // first or one line alone is longer than the budget.
    const last = starts[starts.length - 1]!;
    indexed = stop === text.length || last <= indexed ? stop : last;
  }

  function render(): void {
    frame = 0;
    index(INDEX_CHARS_PER_FRAME);
    const busy = indexed < text.length;
    if (busy) schedule();
    // Busy while some text is not laid out yet (assistive technology, and tests, wait for it).
    if (root.getAttribute('aria-busy') !== String(busy)) root.setAttribute('aria-busy', String(busy));
    const shown = text.slice(0, indexed);
    const count = lines();
    if (count <= VIRTUAL_FROM_LINES) {
      if (virtual) {
        virtual = false;
        root.classList.remove('virtual');
        spacer.style.height = '';
        pre.style.transform = '';
      }
      if (laidOut !== indexed) {
        pre.textContent = shown;
        laidOut = indexed;
      }
      return;
    }
    if (!virtual) {
      virtual = true;
      root.classList.add('virtual');
      window = [-1, -1];
      laidOut = -1;
    }
    if (!lineHeight) lineHeight = Number.parseFloat(getComputedStyle(pre).lineHeight) || DEFAULT_LINE_HEIGHT;
    spacer.style.height = `${count * lineHeight}px`;
    const visible = Math.ceil((root.clientHeight || 400) / lineHeight);
    const first = Math.max(0, Math.floor(root.scrollTop / lineHeight) - OVERSCAN);
    const last = Math.min(count, first + visible + 2 * OVERSCAN);
    if (window[0] === first && window[1] === last) return;
    window = [first, last];
    pre.style.transform = `translateY(${first * lineHeight}px)`;
    pre.textContent = shown.slice(starts[first], last < starts.length ? starts[last] : indexed);
  }

  function schedule(): void {
    if (!frame) frame = requestAnimationFrame(render);
    if (root.getAttribute('aria-busy') !== 'true' && text.length > indexed) root.setAttribute('aria-busy', 'true');
  }

  root.addEventListener('scroll', () => {
    if (virtual) schedule();
  });

  return {
    root,
    pre,
    append(more) {
      if (!more) return;
      text += more;
      // The visible window may need the new lines.
      window = [-1, -1];
      schedule();
    },
    set(all) {
      text = all;
      starts = [0];
      indexed = 0;
      laidOut = -1;
      window = [-1, -1];
      root.scrollTop = 0;
      if (frame) cancelAnimationFrame(frame);
      render();
    },
    get lineCount() {
      return lines();
    },
    destroy() {
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
