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
// work). Missing parameters take schema 5's defaults, which are those of
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
  LIST_FIELD_SEPARATOR,
  NODE_LIST_FIELDS,
  type State,
  assignField,
  defaultState,
  fail,
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

/** Splits `a=1&b=2` without URLSearchParams's "+" -> space rule. */
export function splitParams(fragment: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of fragment.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName);
      value = decodeURIComponent(rawValue);
    } catch {
      fail(`The link is corrupted: "${truncate(part)}" is not valid percent-encoding.`);
    }
    pairs.push([name, value]);
  }
  return pairs;
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
 * The state a readable link's parameters describe (names percent-decoded,
 * each at most once); `known` are the algorithm names. Throws LinkError.
 */
export function decodeReadable(params: Map<string, string>, known: readonly string[]): State {
  const state = defaultState();
  for (const [name, value] of params) {
    if (DROPPED_FIELDS.includes(name)) continue;
    const field = FIELD_OF_PARAM.get(name);
    if (field === undefined) {
      fail(
        `Unknown link parameter "${truncate(name)}": expected ${PARAM_ORDER.map((f) => PARAM[f]).join(', ')}.`,
      );
    }
    assignField(state, field, field in LIST_FIELD_SEPARATOR ? listFromLink(field, value) : value, known);
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
