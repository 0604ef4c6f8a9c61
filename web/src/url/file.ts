// Scenario files: the whole state as JSON, for what does not fit in a link
// (a link carries at most MAX_FIELD_LENGTH characters per field and
// MAX_LINK_LENGTH in all). Export writes one; Import reads it back with the
// same field checks as a link, so a bad value is dropped and named while the
// rest loads. A file has no per-field limit: its size is bounded as a whole.
//
//   {
//     "format": "jumphash-scenario",
//     "schema": 5,
//     "state": { "view": "resize", "algos": ["jump"], "keys": "1\n2\n...", ... }
//   }
//
// `schema` is the link schema version (schema.ts) whose fields `state` holds,
// plus `view` and `theme`; files began with schema 5.

import { type DecodeResult, type RepairedText, wellFormedState } from './index';
import {
  type DroppedValue,
  FIELDS_OF_VERSION,
  SCHEMA_VERSION,
  STATE_FIELDS,
  type State,
  assignField,
  defaultState,
  truncate,
} from './schema';

/** The `format` of a scenario file. */
export const SCENARIO_FILE_FORMAT = 'jumphash-scenario';

/** The name Export gives the file. */
export const SCENARIO_FILE_NAME = 'jumphash-scenario.json';

/** The first schema version written as a file. */
export const FIRST_FILE_SCHEMA = 5;

/** Largest scenario file Import reads, in bytes (64 MiB: a pasted key list
 *  of millions of keys fits; the page's views bound what they compute). */
export const MAX_SCENARIO_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The scenario file of `state`: JSON of every field (lone surrogates
 * replaced by U+FFFD, as in a link; `repaired` names those fields).
 */
export function scenarioFile(state: State): { text: string; repaired: RepairedText[] } {
  const { state: clean, repaired } = wellFormedState(state);
  const fields: Record<string, unknown> = {};
  for (const field of STATE_FIELDS) fields[field] = field === 'algos' ? [...clean.algos] : clean[field];
  const text = `${JSON.stringify({ format: SCENARIO_FILE_FORMAT, schema: SCHEMA_VERSION, state: fields }, null, 2)}\n`;
  return { text, repaired };
}

function fileError(error: string): DecodeResult {
  return { ok: false, error };
}

/**
 * The state a scenario file's text describes; `knownAlgorithms` as for
 * decodeFragment. A file that is not a scenario (not JSON, another format,
 * a schema this page does not read, no state) gives { ok: false, error }
 * saying what is wrong and what is allowed; a field that is unknown or has
 * no meaning is dropped and named in `dropped` while the rest loads.
 */
export function readScenarioFile(text: string, knownAlgorithms: readonly string[]): DecodeResult {
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch (error) {
    return fileError(
      `The file is not JSON (${error instanceof Error ? error.message : String(error)}): ` +
        `a scenario file is the JSON that Export writes (${SCENARIO_FILE_NAME}).`,
    );
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(object) || object['format'] !== SCENARIO_FILE_FORMAT) {
    return fileError(
      `The file is not a jumphash scenario: expected a JSON object with "format": "${SCENARIO_FILE_FORMAT}", ` +
        `as Export writes (${SCENARIO_FILE_NAME}).`,
    );
  }
  const schema = object['schema'];
  if (typeof schema !== 'number' || !Number.isInteger(schema)) {
    return fileError(
      `The file's "schema" is ${truncate(JSON.stringify(schema) ?? 'missing')}: ` +
        `expected a whole number ${FIRST_FILE_SCHEMA} to ${SCHEMA_VERSION}.`,
    );
  }
  if (schema > SCHEMA_VERSION) {
    return fileError(
      `This file was made by a newer version of the playground (scenario schema ${schema}); ` +
        `this page reads schema ${FIRST_FILE_SCHEMA} to ${SCHEMA_VERSION}. Open it in the current playground.`,
    );
  }
  if (schema < FIRST_FILE_SCHEMA) {
    return fileError(
      `The file's "schema" is ${schema}: scenario files began with schema ${FIRST_FILE_SCHEMA}; ` +
        `this page reads ${FIRST_FILE_SCHEMA} to ${SCHEMA_VERSION}.`,
    );
  }
  const fields = object['state'];
  if (!isObject(fields)) {
    return fileError('The file has no "state" object: a scenario file holds the state as Export writes it.');
  }
  const allowed = ['view', ...FIELDS_OF_VERSION[schema]!, 'theme'];
  const checks = { known: knownAlgorithms, maxFieldChars: Infinity, source: 'file' as const, dropped: [] as DroppedValue[] };
  const state = defaultState();
  for (const [name, value] of Object.entries(fields)) {
    if (!allowed.includes(name)) {
      checks.dropped.push({
        field: name,
        message: `Unknown field "${truncate(name)}" in the file's state: expected ${allowed.join(', ')}. It was not used.`,
      });
      continue;
    }
    assignField(state, name as keyof State, value, checks);
  }
  return { ok: true, state, form: 'file', version: schema, dropped: checks.dropped };
}
