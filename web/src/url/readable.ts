// The readable link form, the one people write by hand:
//
//   #view=compute&algo=jump,jumpback&key=18446744073709551615&n=100
//   #view=resize&algo=jump&from=10&to=12&keys=0..9999
//   #view=resize&algo=ketama,rendezvous,jump&nodes=a,b,c,d&steps=-b,+e*2
//   #view=exercise&script=<encodeURIComponent(script)>
//   #view=claims&claim=jump-key-42-history
//
// Parameters are `&`-separated `name=value` pairs, values percent-decoded
// with decodeURIComponent ("+" stays "+", so `key="a+b"` and `steps=+e*2`
// work). An unknown parameter or a value with no meaning (`theme=neon`, an
// unknown algorithm) is dropped and reported; the others load. Missing parameters take schema 5's defaults, which are those of
// every earlier schema for the fields those schemas knew: a readable link of
// any version opens with the meaning it had.
//
// Node fields (schema 5): `nodes`, `steps` and `opts` are lists (see
// splitList); the encoder writes their items separated by commas, and the
// decoder shows them one node per line, steps and options on one line.
// `topo=count|nodes` sets the topology; a link with `nodes=` or `steps=`
// and no `topo=` is on a node list. The encoder writes `nodes`/`steps` only
// on a node list, and `topo=` only when the other parameters do not imply it.

import {
  DEFAULT_STATE,
  DROPPED_FIELDS,
  type FieldChecks,
  LIST_FIELD_SEPARATOR,
  NODE_LIST_FIELDS,
  type State,
  assignField,
  defaultState,
  splitList,
  truncate,
  viewFields,
} from './schema';

/** Readable parameter name of each field. */
export const PARAM: Readonly<Record<keyof State, string>> = {
  view: 'view',
  algos: 'algo',
  key: 'key',
  n: 'n',
  trace: 'trace',
  from: 'from',
  to: 'to',
  keys: 'keys',
  script: 'script',
  problem: 'problem',
  topology: 'topo',
  nodes: 'nodes',
  steps: 'steps',
  opts: 'opts',
  claim: 'claim',
  lang: 'lang',
  code: 'code',
  theme: 'theme',
};
const FIELD_OF_PARAM = new Map<string, keyof State>(
  (Object.keys(PARAM) as (keyof State)[]).map((field) => [PARAM[field], field]),
);
/** Readable-form order of parameters. */
const PARAM_ORDER: readonly (keyof State)[] = [
  'view', 'algos', 'key', 'n', 'trace', 'from', 'to', 'topology', 'nodes', 'steps', 'opts', 'keys', 'problem',
  'claim', 'script', 'lang', 'code', 'theme',
];

/** Readable links longer than this are written in the compact form. */
export const READABLE_LIMIT = 400;

/** A parameter of a link: its name and value, percent-decoded, or `null`
 *  for a value that is not valid percent-encoding (`raw` keeps it as written). */
export interface LinkParam {
  name: string;
  value: string | null;
  raw: string;
}

/** Parameters of a compact link's envelope: when one of them is damaged the
 *  whole link is (decodeFragment loads nothing). */
export const ENVELOPE_PARAMS: readonly string[] = ['v', 'c', 'z'];

/**
 * Splits `a=1&b=2` without URLSearchParams's "+" -> space rule. A pair
 * whose value is not valid percent-encoding comes back with `value: null`;
 * a pair whose name is not valid percent-encoding is named as written.
 */
export function splitParams(fragment: string): LinkParam[] {
  const params: LinkParam[] = [];
  for (const part of fragment.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let name: string;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      params.push({ name: rawName, value: null, raw: part });
      continue;
    }
    let value: string | null;
    try {
      value = decodeURIComponent(rawValue);
    } catch {
      value = null;
    }
    params.push({ name, value, raw: part });
  }
  return params;
}

/** The message for a parameter that is not valid percent-encoding. */
export function percentEncodingMessage(param: LinkParam): string {
  return (
    `The link's "${truncate(param.name)}" is not valid percent-encoding ("${truncate(param.raw)}"): ` +
    'each % must begin a byte of UTF-8 text written as two hex digits, e.g. %22 for ". It was not used.'
  );
}

/** A list field's value as the page shows it: its items one per line (nodes)
 *  or on one line (steps, opts); text that does not split stays as it is. */
function listFromLink(field: keyof State, value: string): string {
  const items = splitList(value);
  return items === null ? value : items.join(LIST_FIELD_SEPARATOR[field]!);
}

/** A list field's items separated by commas; text that does not split stays as it is. */
function listToLink(text: string): string {
  const items = splitList(text);
  return items === null ? text : items.join(',');
}

/**
 * The state a readable link's parameters describe (percent-decoded, each
 * name at most once, every value valid percent-encoding). A parameter that
 * is unknown or whose value has no meaning is dropped and reported in
 * `checks.dropped`; every other parameter is loaded. Never throws.
 */
export function decodeReadable(params: Map<string, string>, checks: FieldChecks): State {
  const state = defaultState();
  for (const [name, value] of params) {
    if (DROPPED_FIELDS.includes(name)) continue;
    const field = FIELD_OF_PARAM.get(name);
    if (field === undefined) {
      checks.dropped.push({
        field: name,
        message:
          `Unknown link parameter "${truncate(name)}": expected ${PARAM_ORDER.map((f) => PARAM[f]).join(', ')}. ` +
          'It was not used.',
      });
      continue;
    }
    assignField(state, field, field in LIST_FIELD_SEPARATOR ? listFromLink(field, value) : value, checks, name);
  }
  if (!params.has(PARAM.topology) && NODE_LIST_FIELDS.some((field) => params.has(PARAM[field]))) {
    state.topology = 'nodes';
  }
  return state;
}

/** A field's value as a readable link writes it, before percent-encoding. */
function linkValue(state: Readonly<State>, field: keyof State): string {
  if (field === 'algos') return state.algos.join(',');
  if (field in LIST_FIELD_SEPARATOR) return listToLink(String(state[field]));
  return String(state[field]);
}

/**
 * The readable form of a state: the view's fields (for its topology) and
 * every field that differs from the default, in a fixed order. In a problem
 * the script is the problem's, so the link names the problem and not the
 * script. Node-list fields are written only on a node list.
 */
export function encodeReadable(state: State): string {
  const wanted = new Set<keyof State>(['view', ...viewFields(state)]);
  const values = new Map<keyof State, string>();
  for (const field of PARAM_ORDER) {
    if (field === 'topology') continue; // below: it may be implied
    if (field === 'script' && state.problem !== '') continue;
    if (NODE_LIST_FIELDS.includes(field) && state.topology !== 'nodes') continue;
    const value = linkValue(state, field);
    if (!wanted.has(field) && value === linkValue(DEFAULT_STATE, field)) continue;
    values.set(field, value);
  }
  const implied = NODE_LIST_FIELDS.some((field) => values.has(field)) ? 'nodes' : DEFAULT_STATE.topology;
  if (state.topology !== implied) values.set('topology', state.topology);
  return PARAM_ORDER.filter((field) => values.has(field))
    .map((field) => `${PARAM[field]}=${encodeValue(values.get(field)!)}`)
    .join('&');
}

/** encodeURIComponent, leaving the characters that are safe and readable in
 *  a fragment value (`,` `:` `/` `"` `+` `=`) as they are: the decoder splits
 *  a pair at its first '=' and does not read '+' as a space. */
function encodeValue(value: string): string {
  return encodeURIComponent(value)
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/')
    .replace(/%22/g, '"')
    .replace(/%2B/g, '+')
    .replace(/%3D/g, '=');
}
