// The "Try:" row of example links under a view's inputs (none in the embed
// page, which shows one fixed scenario).

import { h } from '../../ui/dom';
import type { AppContext } from '../context';

/** One example: a link's fragment (`#view=…`) and what it shows, in words. */
export type ExampleLink = [href: string, text: string];

/** The "Try:" row of example links; null in the embed page. */
export function exampleLinks(context: AppContext, links: ExampleLink[]): HTMLElement | null {
  if (context.embedded) return null;
  return h(
    'div',
    { class: 'examples' },
    h('span', {}, 'Try: '),
    ...links.map(([href, text]) => h('a', { href, class: 'example' }, text)),
  );
}

/** Ten memcached-style servers cache-1 .. cache-10, comma-separated (the presets' cluster, as a link writes it). */
export const CACHE_NODES_LINK = Array.from({ length: 10 }, (_, i) => `cache-${i + 1}`).join(',');
