// A read-only text box for program output that may run to a megabyte:
// short text is one <pre> (selectable, searchable, as before); past
// VIRTUAL_FROM_LINES lines only the lines in view are laid out, so a
// streamed run never costs the main thread a layout of 90,000 lines.
// Used by the Exercise console and the workspace.

import { h } from './dom';

/** Up to this many lines the whole text is laid out; beyond, only what is in view. */
export const VIRTUAL_FROM_LINES = 3000;
/** Lines laid out above and below the visible ones while scrolling. */
const OVERSCAN = 40;
/** Fallback line height (px) when the style cannot be measured. */
const DEFAULT_LINE_HEIGHT = 18;

export interface VirtualText {
  /** The scroll box (focusable: arrows and Page Down scroll it). */
  root: HTMLElement;
  /** The <pre> holding the laid-out lines (all of them when short). */
  pre: HTMLPreElement;
  /** Appends text; laid out on the next frame. */
  append(text: string): void;
  /** Replaces all the text. */
  set(text: string): void;
  /** Lines so far (a last line without '\n' counts). */
  readonly lineCount: number;
  destroy(): void;
}

export function virtualText(options: { label: string; testid: string; className?: string }): VirtualText {
  const pre = h('pre', { 'data-testid': options.testid }) as HTMLPreElement;
  const spacer = h('div', { class: 'vtext-spacer' }, pre);
  const root = h('div', { class: `vtext ${options.className ?? ''}`.trim(), tabindex: 0, role: 'region', 'aria-label': options.label }, spacer);

  let text = '';
  /** Offsets where each line starts; starts[0] = 0. */
  let starts: number[] = [0];
  let laidOut = -1; // text length laid out in small mode
  let frame = 0;
  let lineHeight = 0;
  let virtual = false;
  let window: [number, number] = [-1, -1];

  function lines(): number {
    return text.length === 0 ? 0 : text.endsWith('\n') ? starts.length - 1 : starts.length;
  }

  function index(from: number): void {
    for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  }

  function render(): void {
    frame = 0;
    const count = lines();
    if (count <= VIRTUAL_FROM_LINES) {
      if (virtual) {
        virtual = false;
        root.classList.remove('virtual');
        spacer.style.height = '';
        pre.style.transform = '';
      }
      if (laidOut !== text.length) {
        pre.textContent = text;
        laidOut = text.length;
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
    pre.textContent = text.slice(starts[first], last < starts.length ? starts[last] : text.length);
  }

  function schedule(): void {
    if (!frame) frame = requestAnimationFrame(render);
  }

  root.addEventListener('scroll', () => {
    if (virtual) schedule();
  });

  return {
    root,
    pre,
    append(more) {
      if (!more) return;
      const from = text.length;
      text += more;
      index(from);
      // The visible window may need the new lines.
      window = [-1, -1];
      schedule();
    },
    set(all) {
      text = all;
      starts = [0];
      index(0);
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
