// The playground's state in the URL fragment: the public entry.
//
// Two forms decode to the same State (schema.ts):
//  - the readable form people write by hand (readable.ts), e.g.
//      #view=resize&algo=ketama,rendezvous,jump&nodes=a,b,c,d&steps=-b
//  - the compact form for large state (compact.ts): #v=5&c=<crc32>&z=<payload>
// encodeFragment writes the readable form while it is short, the compact one
// otherwise. Every older link (compact v=1..4, readable links without the
// schema-5 parameters) still opens with the meaning it had.
//
// Algorithm names are not listed here: the caller passes the names the
// engine's algorithms() reports.

import { decodeCompact, encodeCompact } from './compact';
import { READABLE_LIMIT, decodeReadable, encodeReadable, splitParams } from './readable';
import { LinkError, SCHEMA_VERSION, STATE_FIELDS, type State, defaultState, fail, truncate } from './schema';

export {
  DEFAULT_NODES,
  DEFAULT_SCRIPT,
  DEFAULT_STATE,
  DEFAULT_STEPS,
  PROBLEM_IDS,
  SCHEMA_VERSION,
  THEMES,
  TOPOLOGY_KINDS,
  VIEWS,
  VIEW_FIELDS,
  defaultState,
  splitList,
  viewFields,
} from './schema';
export type { State, Theme, TopologyKind, View } from './schema';

export type DecodeResult =
  | { ok: true; state: State; form: 'empty' | 'readable' | 'canonical'; version: number }
  | { ok: false; error: string };

/**
 * Decodes a fragment (with or without the leading '#'). `knownAlgorithms`
 * are the algorithm names a link may select (the engine's algorithms()).
 * A link that has no meaning gives { ok: false, error } saying what is wrong
 * and what is allowed, and no state.
 */
export async function decodeFragment(fragment: string, knownAlgorithms: readonly string[]): Promise<DecodeResult> {
  try {
    return await decodeOrThrow(fragment.startsWith('#') ? fragment.slice(1) : fragment, knownAlgorithms);
  } catch (error) {
    if (error instanceof LinkError) return { ok: false, error: error.message };
    throw error;
  }
}

async function decodeOrThrow(fragment: string, known: readonly string[]): Promise<DecodeResult> {
  const pairs = splitParams(fragment);
  if (pairs.length === 0) return { ok: true, state: defaultState(), form: 'empty', version: SCHEMA_VERSION };
  const seen = new Set<string>();
  for (const [name] of pairs) {
    if (seen.has(name)) fail(`The link names "${truncate(name)}" twice.`);
    seen.add(name);
  }
  const params = new Map(pairs);
  if (params.has('z') || params.has('v')) {
    const { state, version } = await decodeCompact(params, known);
    return { ok: true, state, form: 'canonical', version };
  }
  return { ok: true, state: decodeReadable(params, known), form: 'readable', version: SCHEMA_VERSION };
}

/** The fragment (without '#') for a state: readable while it is short,
 *  compact for large state. */
export async function encodeFragment(state: State): Promise<string> {
  const readable = encodeReadable(state);
  if (readable.length <= READABLE_LIMIT) return readable;
  const compact = await encodeCompact(state);
  return compact.length < readable.length ? compact : readable;
}

/** True when `a` and `b` agree on every field. */
export function sameState(a: State, b: State): boolean {
  return STATE_FIELDS.every((field) =>
    field === 'algos' ? a.algos.join(',') === b.algos.join(',') : a[field] === b[field],
  );
}
