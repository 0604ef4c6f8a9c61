// The playground's state and how it lives in the URL fragment.
//
// Two forms decode to the same State:
//
//  - the readable form people write by hand, e.g.
//      #view=compute&algo=jump,jumpback&key=18446744073709551615&n=100
//      #view=resize&algo=jump&from=10&to=12&keys=0..9999
//      #view=exercise&script=<encodeURIComponent(script)>
//    Parameters are `&`-separated `name=value` pairs, values percent-decoded
//    with decodeURIComponent ("+" stays "+", so `key="a+b"` works).
//    Missing parameters take the defaults of SCHEMA_VERSION below.
//
//  - the compact canonical form for large state (pasted key lists, long
//    scripts): `#v=<schema>&c=<crc32>&z=<payload>`.
//      v=1  z = base64url(UTF-8 JSON)                  (first format; no checksum)
//      v=2  z = base64url(deflate-raw(UTF-8 JSON)), c = CRC-32 of the JSON, 8 hex
//      v=3  as v=2; the state had `output` (a student's output to check)
//      v=4  as v=2; no `output`, the state gains `problem` (a problem set's id)
//    The encoder writes v=4; every version keeps its decoder and a test. A
//    field a version does not know is an error in a link of that version.
//
// A link never carries a student's output: links are for sharing a problem,
// and an output is the student's own work. The `output` field of v=3 links
// (and a readable `output=` parameter, which the v=3 page wrote) is read and
// dropped, so those links still open, without the output.
//
// Every field value is kept as the text the user typed (a key, n, a key list):
// the views validate them and show errors next to the field, so a bad value in
// a link is shown, not silently replaced. The codec itself rejects only what
// has no meaning at all (unknown view, unknown algorithm, unknown parameter,
// corrupted or future-version payload) and then returns an error and no state:
// nothing is loaded half-way.

export const SCHEMA_VERSION = 4;

export const VIEWS = ['compute', 'resize', 'balance', 'exercise', 'compare'] as const;
export type View = (typeof VIEWS)[number];

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Ids of the exercise's problem sets (web/src/views/problems.ts has their
 *  scripts and texts): the exercise console opens them with the expected
 *  output hidden until the student asks for it. */
export const PROBLEM_IDS = ['key-42', 'largest-key', 'resize-10-12', 'trace-42', 'strings', 'exercise'] as const;

/** The algorithm names of the core's registry, in its order. */
export const ALGORITHM_NAMES = ['jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo'] as const;

export interface State {
  view: View;
  /** Selected algorithms (registry names), at least one. */
  algos: string[];
  /** Compute: the key as typed (decimal, 0x hex or "string"). */
  key: string;
  /** Compute and Balance: the bucket count as typed. */
  n: string;
  /** Compute: largest bucket count of the jump history. */
  trace: string;
  /** Resize: bucket count before. */
  from: string;
  /** Resize: bucket count after, or a comma-separated chain "12, 11, 16". */
  to: string;
  /** Resize, Balance, Compare: the key set in the KEYS syntax. */
  keys: string;
  /** Exercise console: the script. */
  script: string;
  /** Exercise console: a problem set's id (one of PROBLEM_IDS), or '' for the
   *  free console. In a problem the page supplies the script. (schema 4) */
  problem: string;
  /** Embed page theme. */
  theme: Theme;
}

export const DEFAULT_SCRIPT = [
  '# The exercise: jump hash, its reports, and the 64-bit trap',
  'HASH 42 100',
  'HASH 18446744073709551615 100',
  'KEYS 0..9',
  'BUCKETS 10',
  'MOVED 10 12',
  'LOAD 4',
  'TRACE 42 800',
  '',
].join('\n');

/** Schema 4's defaults (those of schema 1 and 2 plus `problem`). Changing one changes what old readable links mean:
 *  that needs a new schema version and a decoder for the old one. */
export const DEFAULT_STATE: Readonly<State> = Object.freeze({
  view: 'compute',
  algos: ['jump', 'jumpback'],
  key: '42',
  n: '100',
  trace: '1000',
  from: '10',
  to: '12',
  keys: '0..9999',
  script: DEFAULT_SCRIPT,
  problem: '',
  theme: 'auto',
});

export function defaultState(): State {
  return { ...DEFAULT_STATE, algos: [...DEFAULT_STATE.algos] };
}

/** Which fields each view shows; they are always written to a readable link. */
export const VIEW_FIELDS: Record<View, (keyof State)[]> = {
  compute: ['algos', 'key', 'n', 'trace'],
  resize: ['algos', 'from', 'to', 'keys'],
  balance: ['algos', 'n', 'keys'],
  exercise: ['script'],
  compare: ['from', 'to', 'n', 'keys'],
};

/** Readable parameter name of each field. */
const PARAM: Record<keyof State, string> = {
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
  theme: 'theme',
};
const FIELD_OF_PARAM = new Map<string, keyof State>(
  (Object.keys(PARAM) as (keyof State)[]).map((field) => [PARAM[field], field]),
);
/** Readable-form order of parameters. */
const PARAM_ORDER: (keyof State)[] = ['view', 'algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'problem', 'script', 'theme'];
/** Fields that old links may carry and that are read and dropped: `output`
 *  (v=3 and the readable links the v=3 page wrote) is a student's work and
 *  is never taken from, or put into, a link. */
const DROPPED_FIELDS: readonly string[] = ['output'];
/** Fields each canonical schema version knows. */
const FIELDS_OF_VERSION: Record<number, readonly string[]> = {
  1: ['view', 'algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'theme'],
  2: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script'],
  3: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'output'],
  4: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'problem'],
};

/** Longest text field accepted from a link (a pasted key list may be long). */
export const MAX_FIELD_LENGTH = 1_000_000;
/** Readable links longer than this are written in the canonical form. */
export const READABLE_LIMIT = 400;

export type DecodeResult =
  | { ok: true; state: State; form: 'empty' | 'readable' | 'canonical'; version: number }
  | { ok: false; error: string };

/** Thrown inside the decoder; turned into { ok: false }. */
class LinkError extends Error {}

function fail(message: string): never {
  throw new LinkError(message);
}

/** Splits `a=1&b=2` without URLSearchParams's "+" -> space rule. */
function splitParams(fragment: string): [string, string][] {
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

function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function checkView(value: unknown): View {
  if (typeof value !== 'string' || !(VIEWS as readonly string[]).includes(value)) {
    fail(`Unknown view "${truncate(String(value))}": expected one of ${VIEWS.join(', ')}.`);
  }
  return value as View;
}

function checkTheme(value: unknown): Theme {
  if (typeof value !== 'string' || !(THEMES as readonly string[]).includes(value)) {
    fail(`Unknown theme "${truncate(String(value))}": expected one of ${THEMES.join(', ')}.`);
  }
  return value as Theme;
}

function checkProblem(value: unknown): string {
  if (value === '') return '';
  if (typeof value !== 'string' || !(PROBLEM_IDS as readonly string[]).includes(value)) {
    fail(`Unknown problem "${truncate(String(value))}": expected one of ${PROBLEM_IDS.join(', ')}.`);
  }
  return value;
}

function checkAlgos(names: string[], known: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    if (!known.includes(name)) {
      fail(`Unknown algorithm "${truncate(raw)}": expected ${known.join(', ')}.`);
    }
    if (!out.includes(name)) out.push(name);
  }
  if (out.length === 0) fail('The link selects no algorithm: give at least one, e.g. algo=jump.');
  return out;
}

function checkText(field: string, value: unknown): string {
  if (typeof value !== 'string') fail(`The link is corrupted: field "${field}" is not text.`);
  if (value.length > MAX_FIELD_LENGTH) {
    fail(`The link's "${field}" is longer than ${MAX_FIELD_LENGTH} characters.`);
  }
  return value;
}

function parseVersion(text: string): number {
  if (!/^[0-9]{1,6}$/.test(text)) fail(`The link's schema version "${truncate(text)}" is not a number.`);
  return Number(text);
}

function futureVersionMessage(version: number): string {
  return (
    `This link was made by a newer version of the playground (link schema ${version}); ` +
    `this page reads schema 1 to ${SCHEMA_VERSION}. Open it in the current playground.`
  );
}

/** Decodes a fragment (with or without the leading '#'). */
export async function decodeFragment(
  fragment: string,
  knownAlgorithms: readonly string[] = ALGORITHM_NAMES,
): Promise<DecodeResult> {
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
  if (params.has('z') || params.has('v')) return decodeCanonical(params, known);
  return { ok: true, state: decodeReadable(params, known), form: 'readable', version: SCHEMA_VERSION };
}

function decodeReadable(params: Map<string, string>, known: readonly string[]): State {
  const state = defaultState();
  for (const [name, value] of params) {
    if (DROPPED_FIELDS.includes(name)) continue;
    const field = FIELD_OF_PARAM.get(name);
    if (field === undefined) {
      fail(
        `Unknown link parameter "${truncate(name)}": expected ${PARAM_ORDER.map((f) => PARAM[f]).join(', ')}.`,
      );
    }
    assignField(state, field, value, known);
  }
  return state;
}

function assignField(state: State, field: keyof State, value: unknown, known: readonly string[]): void {
  switch (field) {
    case 'view':
      state.view = checkView(value);
      break;
    case 'theme':
      state.theme = checkTheme(value);
      break;
    case 'problem':
      state.problem = checkProblem(value);
      break;
    case 'algos':
      if (typeof value === 'string') state.algos = checkAlgos(value.split(','), known);
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        state.algos = checkAlgos(value as string[], known);
      } else fail('The link is corrupted: "algos" is not a list of names.');
      break;
    default:
      state[field] = checkText(field, value);
  }
}

async function decodeCanonical(params: Map<string, string>, known: readonly string[]): Promise<DecodeResult> {
  const versionText = params.get('v');
  if (versionText === undefined) fail('The link has a payload (z=) but no schema version (v=): it is incomplete.');
  const version = parseVersion(versionText);
  if (version > SCHEMA_VERSION) fail(futureVersionMessage(version));
  if (version < 1) fail(`The link's schema version ${version} does not exist.`);
  for (const name of params.keys()) {
    if (!['v', 'z', 'c', 'theme', 'view'].includes(name)) {
      fail(`Unknown parameter "${truncate(name)}" in a compact link.`);
    }
  }
  const payload = params.get('z');
  if (payload === undefined || payload === '') fail('The link has no payload (z=): it is truncated.');
  let json: string;
  if (version === 1) {
    json = utf8Decode(base64UrlDecode(payload));
  } else {
    const crcText = params.get('c');
    if (crcText === undefined || !/^[0-9a-f]{8}$/.test(crcText)) {
      fail('The link has no valid checksum (c=): it is corrupted or truncated.');
    }
    const bytes = await inflate(base64UrlDecode(payload));
    if (crc32(bytes).toString(16).padStart(8, '0') !== crcText) {
      fail('The link is corrupted or truncated: its checksum does not match. Ask for the link again.');
    }
    json = utf8Decode(bytes);
  }
  let object: unknown;
  try {
    object = JSON.parse(json);
  } catch {
    fail('The link is corrupted or truncated: its payload is not readable.');
  }
  const state = stateFromObject(object, known, FIELDS_OF_VERSION[version]!);
  // Presentation parameters may sit beside the payload (an embed's theme, a view switch).
  const theme = params.get('theme');
  if (theme !== undefined) state.theme = checkTheme(theme);
  const view = params.get('view');
  if (view !== undefined) state.view = checkView(view);
  return { ok: true, state, form: 'canonical', version };
}

function stateFromObject(object: unknown, known: readonly string[], fields: readonly string[]): State {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    fail('The link is corrupted: its payload is not a state.');
  }
  const state = defaultState();
  for (const [name, value] of Object.entries(object as Record<string, unknown>)) {
    if (!fields.includes(name)) fail(`The link is corrupted: unknown field "${truncate(name)}".`);
    if (DROPPED_FIELDS.includes(name)) {
      checkText(name, value); // still a corruption check, then dropped
      continue;
    }
    assignField(state, name as keyof State, value, known);
  }
  return state;
}

/** The readable form of a state: the view's fields and every field that
 *  differs from the default, in a fixed order. In a problem the script is
 *  the problem's, so the link names the problem and not the script. */
export function encodeReadable(state: State): string {
  const defaults = defaultState();
  const wanted = new Set<keyof State>(['view', ...VIEW_FIELDS[state.view]]);
  const parts: string[] = [];
  for (const field of PARAM_ORDER) {
    if (field === 'script' && state.problem !== '') continue;
    const value = field === 'algos' ? state.algos.join(',') : String(state[field]);
    const defaultValue = field === 'algos' ? defaults.algos.join(',') : String(defaults[field]);
    if (!wanted.has(field) && value === defaultValue) continue;
    parts.push(`${PARAM[field]}=${encodeValue(value)}`);
  }
  return parts.join('&');
}

/** encodeURIComponent, leaving the characters that are safe and readable in
 *  a fragment (`,` `:` `"` `/`) as they are. */
function encodeValue(value: string): string {
  return encodeURIComponent(value)
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/')
    .replace(/%22/g, '"');
}

/** The compact canonical form (the current schema) of a state. */
export async function encodeCanonical(state: State): Promise<string> {
  const object: Record<string, unknown> = {};
  for (const field of Object.keys(DEFAULT_STATE) as (keyof State)[]) {
    if (field === 'theme' || field === 'view') continue;
    object[field] = field === 'algos' ? [...state.algos] : state[field];
  }
  const bytes = utf8Encode(JSON.stringify(object));
  const crc = crc32(bytes).toString(16).padStart(8, '0');
  const parts = [`v=${SCHEMA_VERSION}`, `c=${crc}`, `z=${base64UrlEncode(await deflate(bytes))}`];
  parts.push(`view=${state.view}`);
  if (state.theme !== 'auto') parts.push(`theme=${state.theme}`);
  return parts.join('&');
}

/** The schema-1 encoding, kept for tests of the v1 decoder. */
export function encodeCanonicalV1(state: State): string {
  const object: Record<string, unknown> = {};
  for (const field of FIELDS_OF_VERSION[1] as (keyof State)[]) {
    object[field] = field === 'algos' ? [...state.algos] : state[field];
  }
  return `v=1&z=${base64UrlEncode(utf8Encode(JSON.stringify(object)))}`;
}

/** The fragment (without '#') for a state: readable while it is short,
 *  canonical for large state. */
export async function encodeFragment(state: State): Promise<string> {
  const readable = encodeReadable(state);
  if (readable.length <= READABLE_LIMIT) return readable;
  const canonical = await encodeCanonical(state);
  return canonical.length < readable.length ? canonical : readable;
}

export function sameState(a: State, b: State): boolean {
  return (Object.keys(DEFAULT_STATE) as (keyof State)[]).every((field) =>
    field === 'algos' ? a.algos.join(',') === b.algos.join(',') : a[field] === b[field],
  );
}

// ---- bytes ----

function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function utf8Decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail('The link is corrupted: its payload is not UTF-8 text.');
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    const triple = (b0 << 16) | (b1 << 8) | b2;
    out += B64[(triple >> 18) & 63]! + B64[(triple >> 12) & 63]!;
    if (i + 1 < bytes.length) out += B64[(triple >> 6) & 63]!;
    if (i + 2 < bytes.length) out += B64[triple & 63]!;
  }
  return out;
}

export function base64UrlDecode(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    fail('The link is corrupted: its payload has characters that do not belong there.');
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const c = [0, 1, 2, 3].map((j) => (i + j < text.length ? B64.indexOf(text[i + j]!) : 0));
    const triple = (c[0]! << 18) | (c[1]! << 12) | (c[2]! << 6) | c[3]!;
    out[o++] = (triple >> 16) & 255;
    if (i + 2 < text.length) out[o++] = (triple >> 8) & 255;
    if (i + 3 < text.length) out[o++] = triple & 255;
  }
  return out.subarray(0, o);
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib). */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 255]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => undefined);
  void writer.close().catch(() => undefined);
  const chunks: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array);
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new CompressionStream('deflate-raw'));
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    return await pipe(bytes, new DecompressionStream('deflate-raw'));
  } catch {
    fail('The link is corrupted or truncated: its payload does not unpack. Ask for the link again.');
  }
}
