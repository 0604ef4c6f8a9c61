// Scenario files (Export / Import): what does not fit in a link.
import { describe, expect, test } from 'vitest';
import { FIRST_FILE_SCHEMA, SCENARIO_FILE_FORMAT, readScenarioFile, scenarioFile } from './file';
import { SCHEMA_VERSION, STATE_FIELDS } from './schema';
import { BUCKET_COUNT_ALGORITHMS, KNOWN_ALGORITHMS, sample } from './testSupport';

function read(text: string, known: readonly string[] = KNOWN_ALGORITHMS) {
  return readScenarioFile(text, known);
}

function fileError(text: string): string {
  const result = read(text);
  if (result.ok) throw new Error(`expected the file to be refused, got ${JSON.stringify(result.state).slice(0, 200)}`);
  return result.error;
}

function fileOf(state: Record<string, unknown>, schema: unknown = SCHEMA_VERSION): string {
  return JSON.stringify({ format: SCENARIO_FILE_FORMAT, schema, state });
}

describe('export', () => {
  test('the file names its format and schema and holds every field, in order', () => {
    const state = sample({ view: 'resize', algos: ['jump'], keys: '1\n2\n3', theme: 'dark' });
    const { text, repaired } = scenarioFile(state);
    expect(repaired).toEqual([]);
    const object = JSON.parse(text) as { format: string; schema: number; state: Record<string, unknown> };
    expect(Object.keys(object)).toEqual(['format', 'schema', 'state']);
    expect(object.format).toBe('jumphash-scenario');
    expect(object.schema).toBe(SCHEMA_VERSION);
    expect(Object.keys(object.state)).toEqual([...STATE_FIELDS]);
    expect(object.state).toEqual(state);
  });

  test('a state far over the link limits round-trips through a file', () => {
    const keys = Array.from({ length: 300_000 }, (_, i) => String(i * 7919)).join('\n'); // ~2.1 M characters
    const state = sample({ view: 'resize', algos: ['jumpback', 'jump'], from: '16', to: '4', keys, theme: 'light' });
    const result = read(scenarioFile(state).text);
    if (!result.ok) throw new Error(result.error);
    expect(result.dropped).toEqual([]);
    expect(result.form).toBe('file');
    expect(result.state).toEqual(state);
  });

  test('lone surrogates are written as U+FFFD, as in a link, and named', () => {
    const { text, repaired } = scenarioFile(sample({ view: 'exercise', script: 'HASH 1 2 # \uD83D\n' }));
    expect(repaired.map((entry) => entry.field)).toEqual(['script']);
    expect(text).not.toMatch(/\\ud83d/i);
    const result = read(text);
    expect(result.ok && result.state.script).toBe('HASH 1 2 # \uFFFD\n');
  });
});

describe('import checks the file as a link is checked', () => {
  test('what is not a scenario file loads nothing and says what a scenario file is', () => {
    expect(fileError('keys=1,2,3')).toMatch(/^The file is not JSON \(.*\): a scenario file is the JSON that Export writes \(jumphash-scenario\.json\)\.$/);
    expect(fileError('[1, 2]')).toMatch(/not a jumphash scenario: expected a JSON object with "format": "jumphash-scenario"/);
    expect(fileError('{"format": "other", "schema": 5, "state": {}}')).toMatch(/not a jumphash scenario/);
    expect(fileError(fileOf({}, '5'))).toBe('The file\'s "schema" is "5": expected a whole number 5 to 5.');
    expect(fileError(fileOf({}, null))).toMatch(/"schema" is null: expected a whole number/);
    expect(fileError(JSON.stringify({ format: SCENARIO_FILE_FORMAT, state: {} }))).toMatch(/"schema" is missing/);
    expect(fileError(fileOf({}, 6))).toBe(
      'This file was made by a newer version of the playground (scenario schema 6); this page reads schema 5 to 5. Open it in the current playground.',
    );
    expect(fileError(fileOf({}, 4))).toMatch(/scenario files began with schema 5/);
    expect(fileError(JSON.stringify({ format: SCENARIO_FILE_FORMAT, schema: 5, state: 'keys' }))).toMatch(/no "state" object/);
    expect(FIRST_FILE_SCHEMA).toBe(5);
  });

  test('a bad value is dropped and named, the rest loads', () => {
    const result = read(
      fileOf({ view: 'resize', algos: ['jump', 'chord'], keys: '4 5 6', theme: 'neon', problem: 'homework-7', colour: 'red', n: 12 }),
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.state).toEqual(sample({ view: 'resize', algos: ['jump'], keys: '4 5 6' }));
    expect(result.dropped.map((drop) => drop.field)).toEqual(['algos', 'theme', 'problem', 'colour', 'n']);
    const messages = result.dropped.map((drop) => drop.message);
    expect(messages[0]).toMatch(/^Unknown algorithm "chord": expected jump, /);
    expect(messages[1]).toBe('Unknown theme "neon": expected one of auto, light, dark. Using the default, auto.');
    expect(messages[3]).toMatch(/^Unknown field "colour" in the file's state: expected view, algos, key, .*code, theme\. It was not used\.$/);
    expect(messages[4]).toBe('The file is corrupted: field "n" is not text. Using the default, 100.');
  });

  test('the algorithms are the engine\'s; a file naming none left takes the default pair', () => {
    const result = read(fileOf({ algos: ['ketama'] }), BUCKET_COUNT_ALGORITHMS);
    if (!result.ok) throw new Error(result.error);
    expect(result.state.algos).toEqual(['jump', 'jumpback']);
    expect(result.dropped.map((drop) => drop.message)).toEqual([
      expect.stringMatching(/^Unknown algorithm "ketama": expected jump, jump-guava, jumpback, jumpback-indep, modulo\./),
      'The file selects no algorithm. Using the default, jump, jumpback.',
    ]);
  });

  test('missing fields take their defaults', () => {
    const result = read(fileOf({ view: 'balance', n: '64' }));
    expect(result.ok && result.state).toEqual(sample({ view: 'balance', n: '64' }));
  });
});
