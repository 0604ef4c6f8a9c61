// The page's sentences about link writes (encodeLink, wellFormedState):
// kept apart from the codec so that a page whose links are fine never
// downloads them (the embed page's budget).

import type { LinkResult, RepairedText } from './index';
import type { State } from './schema';

/** What each field is, for messages about the state ("the key list is ...
 *  characters"). */
export const FIELD_LABELS: Readonly<Record<keyof State, string>> = {
  view: 'view',
  algos: 'algorithm list',
  key: 'key',
  n: 'bucket count',
  trace: 'trace limit',
  from: 'bucket count before',
  to: 'bucket count after',
  keys: 'key list',
  script: 'exercise script',
  problem: 'problem',
  topology: 'topology',
  nodes: 'node list',
  steps: 'node edits',
  opts: 'algorithm options',
  claim: 'claim',
  lang: 'program language',
  code: 'shared program',
  theme: 'theme',
};

/** "This scenario is too large for a link (N characters, limit M)", or
 *  with the field over the per-field limit named; no final period. */
export function tooLargeMessage(result: Extract<LinkResult, { ok: false }>): string {
  const length = result.length.toLocaleString('en-US');
  const limit = result.limit.toLocaleString('en-US');
  return result.field === null
    ? `This scenario is too large for a link (${length} characters, limit ${limit})`
    : `This scenario is too large for a link (its ${FIELD_LABELS[result.field]} is ${length} characters, limit ${limit} per field)`;
}

/** What a link (or file) carries instead of a field's invalid UTF-16. */
export function repairedMessage(repair: RepairedText): string {
  return (
    `The ${FIELD_LABELS[repair.field]} holds invalid UTF-16 text (${repair.replaced} lone surrogate` +
    `${repair.replaced === 1 ? '' : 's'}, the first at character ${(repair.first + 1).toLocaleString('en-US')}), ` +
    'which no link can carry: the link has U+FFFD (�) in its place.'
  );
}
