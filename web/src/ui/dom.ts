// Tiny DOM helpers. User data reaches the DOM only as text: children that are
// strings become Text nodes; there is no innerHTML anywhere in the page.

type Child = Node | string | number | bigint | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = String(value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(element: Element): void {
  element.replaceChildren();
}

let uid = 0;
export function uniqueId(prefix: string): string {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** Plain digits (what the test contract reads). */
export function plain(value: number | bigint): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/**
 * One formatter for every grouped number: `toLocaleString('en-US')` makes a
 * new Intl.NumberFormat on each call, 13-30 µs in headless Chromium on this
 * project's VM against under 1 µs for format() (200 numbers each), and a
 * report prints dozens of numbers in the task that draws it.
 */
const GROUPED = new Intl.NumberFormat('en-US');

/** Grouped digits for reading ("1,234,567"), as `value.toLocaleString('en-US')` gives them. */
export function grouped(value: number | bigint): string {
  return GROUPED.format(value);
}

export function fixed(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toFixed(digits);
}

export function percent(part: number, whole: number, digits = 2): string {
  if (whole === 0) return '0%';
  return `${((part / whole) * 100).toFixed(digits)}%`;
}

/** Offers `text` as a file download. */
/** Saves text, or Blob parts (a streamed output never held as one string), as a file. */
export function download(filename: string, content: string | readonly Blob[], type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob(typeof content === 'string' ? [content] : [...content], { type: `${type};charset=utf-8` }));
  const link = h('a', { href: url, download: filename });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
