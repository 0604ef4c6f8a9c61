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
//
// Links never lose work: a value with no meaning is dropped and named while
// the rest loads (DecodeResult.dropped); only a damaged link loads nothing.
// encodeLink refuses to write a link the page would refuse to open (a field
// over the per-field limit) or a browser would drop (a URL over
// MAX_LINK_LENGTH), and never throws on invalid UTF-16: lone surrogates
// become U+FFFD and are reported. Scenario files (file.ts) carry what does
// not fit in a link.

/** The compact form's code (compact.ts with its byte helpers), loaded on
 *  first use: most links are readable, and the embed page's first load
 *  stays within its budget. */
const compactForm = () => import('./compact');
import { ENVELOPE_PARAMS, READABLE_LIMIT, decodeReadable, encodeReadable, percentEncodingMessage, splitParams } from './readable';
import {
  type DroppedValue,
  LinkError,
  MAX_FIELD_LENGTH,
  MAX_LINK_LENGTH,
  SCHEMA_VERSION,
  STATE_FIELDS,
  type State,
  TEXT_FIELDS,
  defaultState,
  fail,
  linkChecks,
  truncate,
  wellFormed,
} from './schema';

export {
  DEFAULT_NODES,
  DEFAULT_SCRIPT,
  DEFAULT_STATE,
  DEFAULT_STEPS,
  MAX_FIELD_LENGTH,
  MAX_LINK_LENGTH,
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
export type { DroppedValue, State, Theme, TopologyKind, View } from './schema';

export type DecodeResult =
  | {
      ok: true;
      state: State;
      form: 'empty' | 'readable' | 'canonical' | 'file';
      version: number;
      /** Values not used as given (the field kept its default) or repaired, with why; [] when none. */
      dropped: DroppedValue[];
    }
  | { ok: false; error: string };

export interface DecodeOptions {
  /** Longest text field accepted, in UTF-16 code units (default MAX_FIELD_LENGTH). */
  maxFieldChars?: number;
}

/**
 * Decodes a fragment (with or without the leading '#'). `knownAlgorithms`
 * are the algorithm names a link may select (the engine's algorithms()).
 * A value with no meaning (an unknown parameter, view, theme, algorithm,
 * problem...) is dropped: its field keeps the default, `dropped` says what
 * was wrong and what is allowed, and the rest loads. A damaged link (bad
 * checksum, truncated or future-version payload) gives { ok: false, error }
 * and no state.
 */
export async function decodeFragment(
  fragment: string,
  knownAlgorithms: readonly string[],
  options: DecodeOptions = {},
): Promise<DecodeResult> {
  try {
    return await decodeOrThrow(
      fragment.startsWith('#') ? fragment.slice(1) : fragment,
      knownAlgorithms,
      options.maxFieldChars ?? MAX_FIELD_LENGTH,
    );
  } catch (error) {
    if (error instanceof LinkError) return { ok: false, error: error.message };
    throw error;
  }
}

async function decodeOrThrow(fragment: string, known: readonly string[], maxFieldChars: number): Promise<DecodeResult> {
  const checks = linkChecks(known, maxFieldChars);
  const all = splitParams(fragment);
  if (all.length === 0) {
    return { ok: true, state: defaultState(), form: 'empty', version: SCHEMA_VERSION, dropped: [] };
  }
  const count = new Map<string, number>();
  for (const { name } of all) count.set(name, (count.get(name) ?? 0) + 1);
  const params = new Map<string, string>();
  for (const param of all) {
    const envelope = ENVELOPE_PARAMS.includes(param.name);
    if (count.get(param.name)! > 1) {
      if (envelope) fail(`The link names "${param.name}" twice: it is corrupted.`);
      if (param === all.find((p) => p.name === param.name)) {
        checks.dropped.push({
          field: param.name,
          message: `The link names "${truncate(param.name)}" twice: neither value was used.`,
        });
      }
    } else if (param.value === null) {
      if (envelope) fail(`The link is corrupted: "${truncate(param.raw)}" is not valid percent-encoding.`);
      checks.dropped.push({ field: param.name, message: percentEncodingMessage(param) });
    } else {
      params.set(param.name, param.value);
    }
  }
  const compact = all.some((param) => param.name === 'v' || param.name === 'z');
  if (compact) {
    const { state, version } = await (await compactForm()).decodeCompact(params, checks);
    return { ok: true, state, form: 'canonical', version, dropped: checks.dropped };
  }
  return { ok: true, state: decodeReadable(params, checks), form: 'readable', version: SCHEMA_VERSION, dropped: checks.dropped };
}

/** A text field whose lone surrogates were replaced by U+FFFD
 *  (messages.ts: repairedMessage says so). */
export interface RepairedText {
  field: keyof State;
  /** How many code units were replaced, >= 1. */
  replaced: number;
  /** Index of the first, 0-based, in UTF-16 code units. */
  first: number;
}

/**
 * `state` with lone surrogates (invalid UTF-16) in its text fields replaced
 * by U+FFFD, and the fields that had any. The state itself is not changed.
 */
export function wellFormedState(state: State): { state: State; repaired: RepairedText[] } {
  const out: State = { ...state, algos: [...state.algos] };
  const repaired: RepairedText[] = [];
  for (const field of TEXT_FIELDS) {
    const { text, replaced, first } = wellFormed(state[field]);
    if (replaced === 0) continue;
    (out as unknown as Record<string, string>)[field] = text;
    repaired.push({ field, replaced, first });
  }
  return { state: out, repaired };
}

/** The fragment (without '#') of a well-formed state: readable while it is
 *  short, compact for large state. */
async function fragmentOf(state: State, readable = encodeReadable(state)): Promise<string> {
  if (readable.length <= READABLE_LIMIT) return readable;
  const compact = await (await compactForm()).encodeCompact(state);
  return compact.length < readable.length ? compact : readable;
}

/** The fragment (without '#') for a state: readable while it is short,
 *  compact for large state. Lone surrogates become U+FFFD (see
 *  wellFormedState); no length limit is applied (see encodeLink). */
export async function encodeFragment(state: State): Promise<string> {
  return fragmentOf(wellFormedState(state).state);
}

/** The bounds encodeLink checks. */
export interface LinkBounds {
  /** Characters of the URL before the fragment, '#' included (e.g. location.href up to '#', plus 1). */
  prefixLength: number;
  /** Longest text field a link may carry (default MAX_FIELD_LENGTH: what decodeFragment accepts). */
  maxFieldChars?: number;
  /** Longest whole URL (default MAX_LINK_LENGTH). */
  maxLinkChars?: number;
}

export type LinkResult =
  | {
      ok: true;
      /** The fragment, without '#'. */
      fragment: string;
      /** Fields whose lone surrogates the link carries as U+FFFD. */
      repaired: RepairedText[];
    }
  | {
      ok: false;
      /** The too-long field's length, or the whole URL's, in characters. */
      length: number;
      /** The limit it is over. */
      limit: number;
      /** The field over the per-field limit, or null when the whole URL is too long. */
      field: keyof State | null;
      /** The page says so with messages.ts: tooLargeMessage. */
      repaired: RepairedText[];
    };

/**
 * The link of `state`, or why there is none: a state with a text field
 * longer than a link may carry (the page would refuse to open it) or whose
 * URL would be longer than `maxLinkChars` (Chromium drops it) gives
 * { ok: false } with the length and the limit. Never throws.
 */
export async function encodeLink(state: State, bounds: LinkBounds): Promise<LinkResult> {
  const maxFieldChars = bounds.maxFieldChars ?? MAX_FIELD_LENGTH;
  const maxLinkChars = bounds.maxLinkChars ?? MAX_LINK_LENGTH;
  const oversized = TEXT_FIELDS.filter((field) => state[field].length > maxFieldChars);
  if (oversized.length > 0) {
    // Decided without encoding the oversized text (10^6 pasted keys cost the
    // main thread a quarter of a second to encode): with each such field
    // replaced by a stand-in longer than any readable link, the readable form
    // is still short only when it does not carry those fields.
    const probe: State = { ...state, algos: [...state.algos] };
    for (const field of oversized) (probe as unknown as Record<string, string>)[field] = 'x'.repeat(READABLE_LIMIT + 1);
    const { state: cleanProbe, repaired } = wellFormedState(probe);
    if (encodeReadable(cleanProbe).length > READABLE_LIMIT) {
      // A long link may be compact, which carries every field: each must fit.
      const field = oversized[0]!;
      return { ok: false, length: state[field].length, limit: maxFieldChars, field, repaired };
    }
  }
  const { state: clean, repaired } = wellFormedState(state);
  const readable = encodeReadable(clean);
  const fragment = readable.length <= READABLE_LIMIT ? readable : await fragmentOf(clean, readable);
  const length = bounds.prefixLength + fragment.length;
  if (length > maxLinkChars) {
    return {
      ok: false,
      length,
      limit: maxLinkChars,
      field: null,
      repaired,
    };
  }
  return { ok: true, fragment, repaired };
}

/** True when `a` and `b` agree on every field. */
export function sameState(a: State, b: State): boolean {
  return STATE_FIELDS.every((field) =>
    field === 'algos' ? a.algos.join(',') === b.algos.join(',') : a[field] === b[field],
  );
}
