// The compact link form, for large state (pasted key lists, node lists,
// long scripts): `#v=<schema>&c=<crc32>&z=<payload>`, with `view=` and
// `theme=` beside the payload.
//
//   v=1  z = base64url(UTF-8 JSON)                  (first format; no checksum)
//   v=2  z = base64url(deflate-raw(UTF-8 JSON)), c = CRC-32 of the JSON, 8 hex
//   v=3  as v=2; the state had `output` (a student's output to check)
//   v=4  as v=2; no `output`, the state gains `problem` (a problem set's id)
//   v=5  as v=2; the state gains `topology`, `nodes`, `steps`, `opts`, and
//        the optional `claim`, `lang` and `code` (written only when set: see
//        OPTIONAL_FIELDS; `code` is a program the student chose to share)
//
// The encoder writes v=5; every version keeps its decoder and a test. A
// field a version does not know is an error in a link of that version; a
// field it does not carry takes its default, which for every field an older
// version knew is the default it had. Text fields are kept exactly as typed.
//
// A damaged envelope (no or bad version, checksum, payload; a payload that
// does not unpack or is not a state) loads nothing: decodeCompact throws
// LinkError. A payload that passes its checksum is intact, so one value in
// it with no meaning (an algorithm this page lacks, a claim id of the wrong
// shape), a bad `view=`/`theme=` beside it, or an unknown parameter beside
// it is dropped and reported while the rest loads.
//
// A link never carries a student's output: links are for sharing a problem,
// and an output is the student's own work. The `output` field of v=3 links is
// read (checked as text) and dropped, so those links still open, without it.

import { base64UrlDecode, base64UrlEncode, crc32Hex, deflateRaw, inflateRaw, utf8Decode, utf8Encode } from './bytes';
import {
  DEFAULT_STATE,
  DROPPED_FIELDS,
  FIELDS_OF_VERSION,
  OPTIONAL_FIELDS,
  SCHEMA_VERSION,
  STATE_FIELDS,
  type State,
  assignField,
  type FieldChecks,
  defaultState,
  fail,
  truncate,
} from './schema';

/** Parameters a compact link may hold (v, c and z are its envelope). */
const COMPACT_PARAMS: readonly string[] = ['v', 'z', 'c', 'theme', 'view'];

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

function payloadBytes(payload: string): Uint8Array {
  try {
    return base64UrlDecode(payload);
  } catch {
    fail('The link is corrupted: its payload has characters that do not belong there.');
  }
}

function payloadText(bytes: Uint8Array): string {
  try {
    return utf8Decode(bytes);
  } catch {
    fail('The link is corrupted: its payload is not UTF-8 text.');
  }
}

async function inflatePayload(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    return await inflateRaw(bytes);
  } catch {
    fail('The link is corrupted or truncated: its payload does not unpack. Ask for the link again.');
  }
}

/**
 * The state of a compact link (parameters percent-decoded, each at most
 * once; `v=` or `z=` among them). Throws LinkError saying what is wrong when
 * the envelope is damaged; drops (and reports in `checks.dropped`) a value
 * with no meaning.
 */
export async function decodeCompact(
  params: Map<string, string>,
  checks: FieldChecks,
): Promise<{ state: State; version: number }> {
  const versionText = params.get('v');
  if (versionText === undefined) fail('The link has a payload (z=) but no schema version (v=): it is incomplete.');
  const version = parseVersion(versionText);
  if (version > SCHEMA_VERSION) fail(futureVersionMessage(version));
  if (version < 1) fail(`The link's schema version ${version} does not exist.`);
  const payload = params.get('z');
  if (payload === undefined || payload === '') fail('The link has no payload (z=): it is truncated.');
  let json: string;
  if (version === 1) {
    json = payloadText(payloadBytes(payload));
  } else {
    const crcText = params.get('c');
    if (crcText === undefined || !/^[0-9a-f]{8}$/.test(crcText)) {
      fail('The link has no valid checksum (c=): it is corrupted or truncated.');
    }
    const bytes = await inflatePayload(payloadBytes(payload));
    if (crc32Hex(bytes) !== crcText) {
      fail('The link is corrupted or truncated: its checksum does not match. Ask for the link again.');
    }
    json = payloadText(bytes);
  }
  let object: unknown;
  try {
    object = JSON.parse(json);
  } catch {
    fail('The link is corrupted or truncated: its payload is not readable.');
  }
  const state = stateFromObject(object, checks, FIELDS_OF_VERSION[version]!);
  // Presentation parameters may sit beside the payload (an embed's theme, a view switch).
  for (const [name, value] of params) {
    if (name === 'theme' || name === 'view') assignField(state, name, value, checks);
    else if (!COMPACT_PARAMS.includes(name)) {
      checks.dropped.push({
        field: name,
        message:
          `Unknown parameter "${truncate(name)}" in a compact link: beside its payload a compact link holds ` +
          'only view= and theme=. It was not used.',
      });
    }
  }
  return { state, version };
}

function stateFromObject(object: unknown, checks: FieldChecks, fields: readonly string[]): State {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    fail('The link is corrupted: its payload is not a state.');
  }
  const state = defaultState();
  for (const [name, value] of Object.entries(object as Record<string, unknown>)) {
    if (!fields.includes(name)) fail(`The link is corrupted: unknown field "${truncate(name)}".`);
    if (DROPPED_FIELDS.includes(name)) {
      // Still a corruption check, then dropped.
      if (typeof value !== 'string') fail(`The link is corrupted: field "${name}" is not text.`);
      continue;
    }
    assignField(state, name as keyof State, value, checks);
  }
  return state;
}

/** The payload object of `fields` of `state` (algos copied). */
function payloadObject(state: State, fields: readonly string[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of fields as (keyof State)[]) {
    object[field] = field === 'algos' ? [...state.algos] : state[field];
  }
  return object;
}

/** The compact form (the current schema) of a state. */
export async function encodeCompact(state: State): Promise<string> {
  const fields = STATE_FIELDS.filter(
    (field) =>
      FIELDS_OF_VERSION[SCHEMA_VERSION]!.includes(field) &&
      !(OPTIONAL_FIELDS.includes(field) && state[field] === DEFAULT_STATE[field]),
  );
  const bytes = utf8Encode(JSON.stringify(payloadObject(state, fields)));
  const parts = [`v=${SCHEMA_VERSION}`, `c=${crc32Hex(bytes)}`, `z=${base64UrlEncode(await deflateRaw(bytes))}`];
  parts.push(`view=${state.view}`);
  if (state.theme !== 'auto') parts.push(`theme=${state.theme}`);
  return parts.join('&');
}

/** The schema-1 encoding, kept for tests of the v1 decoder. */
export function encodeCompactV1(state: State): string {
  const object = payloadObject(state, FIELDS_OF_VERSION[1]!);
  return `v=1&z=${base64UrlEncode(utf8Encode(JSON.stringify(object)))}`;
}
