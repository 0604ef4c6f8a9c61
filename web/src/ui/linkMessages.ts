// What the page says about links, built only when there is something to
// say (a link that could not be opened or lost a value, a scenario too large
// for a link, repaired text): loaded on first use, so pages whose links are
// fine never download it.

import type { DroppedValue, LinkResult } from '../url';
import { repairedMessage, tooLargeMessage } from '../url/messages';
import { h } from './dom';

/** A banner's content, with its sentence about the address bar: `now`
 *  while the address bar holds the link as opened, `rewritten` once the
 *  page has rewritten the fragment. */
export interface BannerContent {
  parts: (Node | string)[];
  address?: { now: string; rewritten: string };
}

/**
 * The banner for a link (`initial`: the one the page opened with; `later`:
 * one navigated to) or a file that loaded nothing, with `error` (testid
 * "error") saying why.
 */
export function failedBanner(kind: 'initial' | 'later' | 'file', error: string): BannerContent {
  const parts = [
    h('strong', {}, kind === 'file' ? 'This file could not be imported. ' : 'This link could not be opened. '),
    h('span', { 'data-testid': 'error' }, error),
    kind === 'initial' ? ' Showing the default scenario instead.' : ' The page still shows what it showed before.',
  ];
  if (kind === 'file') return { parts };
  return {
    parts,
    address: {
      now: ' The address bar still holds the link you opened; the page replaces it when you change something.',
      rewritten: ' The page has since replaced that link in the address bar with the scenario shown.',
    },
  };
}

/** The banner for a link or file that loaded without `dropped` (one list
 *  item per value, testid "dropped-<field>", its message testid "error"). */
export function droppedBanner(source: 'link' | 'file', dropped: readonly DroppedValue[]): BannerContent {
  const items = dropped.map((drop) =>
    h(
      'li',
      { 'data-testid': `dropped-${drop.field}` },
      h('code', {}, drop.field),
      ': ',
      h('span', { 'data-testid': 'error' }, drop.message),
    ),
  );
  const parts = [
    h('strong', {}, `Part of this ${source} could not be used. `),
    h('span', {}, `The rest of the ${source} was loaded; ${dropped.length === 1 ? 'this value was' : 'these values were'} not:`),
    h('ul', { class: 'dropped', 'data-testid': 'dropped' }, ...items),
  ];
  if (source === 'file') return { parts };
  return {
    parts,
    address: {
      now: 'The address bar still holds the link as you opened it; the page rewrites it without these values when you change something.',
      rewritten: 'The page has since rewritten the link in the address bar without these values.',
    },
  };
}

export interface NoticeOptions {
  /** Offered as an "Export file" button when given. */
  exportScenario?: (() => void) | undefined;
  /** The state shown was exported as a file and has not changed since. */
  exported: boolean;
  /** The address bar holds no fragment. */
  addressEmpty: boolean;
}

/**
 * The notice's paragraphs for a write's result: the scenario is not in the
 * link (too large: testid "link-too-large"), and each field whose invalid
 * UTF-16 the link carries as U+FFFD (testid "link-repaired-<field>").
 */
export function noticeParts(result: LinkResult, options: NoticeOptions): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (!result.ok) {
    const exportButton = options.exportScenario
      ? h('button', { type: 'button', class: 'secondary', 'data-testid': 'notice-export' }, 'Export file')
      : null;
    const run = options.exportScenario;
    if (exportButton && run) exportButton.addEventListener('click', () => run());
    parts.push(
      h(
        'p',
        { 'data-testid': 'link-too-large' },
        h('strong', {}, 'Not in the link. '),
        tooLargeMessage(result),
        options.exportScenario ? ': Export it as a file to keep it.' : '.',
        options.addressEmpty
          ? ' The address bar holds no scenario: reloading the page opens the default one, not this.'
          : ' The address bar still holds an earlier link: reloading the page or sharing the address opens that, not this.',
        options.exported ? ' You have exported it as a file.' : '',
        exportButton ? ' ' : '',
        exportButton,
      ),
    );
  }
  for (const repair of result.repaired) {
    parts.push(h('p', { 'data-testid': `link-repaired-${repair.field}` }, repairedMessage(repair)));
  }
  return parts;
}
