// Property tests of the link codec (issue: hostile input): links are opened
// by strangers, so decodeFragment is fed arbitrary text, arbitrary UTF-16
// (lone surrogates included) and damaged copies of real links, and must
// always answer { ok: true } with a well-formed state or { ok: false } with
// a message, never throw. Every state the page can hold round-trips through
// the link it writes. fast-check shrinks a failure to its smallest case and
// prints the seed that replays it (`fc.assert(..., { seed, path })`).

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type State, decodeFragment, encodeFragment, encodeLink, wellFormedState } from './index';
import { DEFAULT_STATE, MAX_FIELD_LENGTH, PROBLEM_IDS, STATE_FIELDS, THEMES, TOPOLOGY_KINDS, VIEWS, defaultState, splitList } from './schema';
import { KNOWN_ALGORITHMS } from './testSupport';

/** Runs per property: enough to meet every branch of the decoder, within a few seconds. */
const RUNS = 300;
/** A property's run takes about a second here; a loaded CI machine gets room. */
const TEST_TIMEOUT_MS = 60_000;

/** The address before the fragment, '#' included. */
const PREFIX = 'https://example.org/jumphash/#';

/** Any UTF-16 text, lone surrogates included. */
const anyText = (maxLength = 200) => fc.string({ unit: 'binary', maxLength });

/** Text biased towards what links are made of: separators, escapes, quotes, digits. */
const linkish = fc.string({
  unit: fc.constantFrom('&', '=', '#', '%', '%2', '%25', '%E2', '%FF', '%C0%80', '%ED%A0%80', '+', ',', '"', '\\', 'v=5', 'c=', 'z=', 'view=', 'algo=',
    'jump', 'theme=', 'neon', 'keys=', '0..9', '\u0000', '\uD800', '\uDC00', '😀', 'A', '9', '-', '_', ' '),
  maxLength: 60,
});

/** A state the page can hold: every field free text except those with a fixed set of values. */
const anyState: fc.Arbitrary<State> = fc
  .record({
    view: fc.constantFrom(...VIEWS),
    algos: fc.uniqueArray(fc.constantFrom(...KNOWN_ALGORITHMS), { minLength: 1, maxLength: 5 }),
    key: anyText(40),
    n: anyText(12),
    trace: anyText(12),
    from: anyText(12),
    to: anyText(20),
    keys: anyText(300),
    script: anyText(300),
    problem: fc.constantFrom('', ...PROBLEM_IDS),
    topology: fc.constantFrom(...TOPOLOGY_KINDS),
    nodes: anyText(200),
    steps: anyText(60),
    opts: anyText(60),
    claim: fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/)),
    lang: fc.constantFrom('', 'js', 'python'),
    code: anyText(300),
    theme: fc.constantFrom(...THEMES),
  })
  .map((fields) => ({ ...defaultState(), ...fields }));

/** What every answer of decodeFragment must be, whatever it was given. */
function expectWellFormedAnswer(result: Awaited<ReturnType<typeof decodeFragment>>): void {
  if (!result.ok) {
    expect(typeof result.error).toBe('string');
    expect(result.error.length).toBeGreaterThan(0);
    return;
  }
  const state = result.state;
  expect(Object.keys(state).sort()).toEqual([...STATE_FIELDS].sort());
  expect(VIEWS).toContain(state.view);
  expect(THEMES).toContain(state.theme);
  expect(TOPOLOGY_KINDS).toContain(state.topology);
  expect(state.algos.length).toBeGreaterThan(0);
  for (const name of state.algos) expect(KNOWN_ALGORITHMS).toContain(name);
  for (const field of STATE_FIELDS) {
    const value = state[field];
    if (typeof value !== 'string') continue;
    expect(value.length).toBeLessThanOrEqual(MAX_FIELD_LENGTH);
  }
  // Lone surrogates never reach the page: they are replaced and reported.
  expect(wellFormedState(state).repaired).toEqual([]);
  for (const drop of result.dropped) {
    expect(typeof drop.field).toBe('string');
    expect(drop.message.length).toBeGreaterThan(0);
  }
}

describe('decodeFragment on hostile input', () => {
  test('arbitrary UTF-16 text never throws and gives a well-formed answer', async () => {
    await fc.assert(
      fc.asyncProperty(anyText(400), async (fragment) => {
        expectWellFormedAnswer(await decodeFragment(fragment, KNOWN_ALGORITHMS));
      }),
      { numRuns: RUNS },
    );
  }, TEST_TIMEOUT_MS);

  test('text made of link syntax never throws and gives a well-formed answer', async () => {
    await fc.assert(
      fc.asyncProperty(linkish, async (fragment) => {
        expectWellFormedAnswer(await decodeFragment(fragment, KNOWN_ALGORITHMS));
      }),
      { numRuns: RUNS * 3 },
    );
  }, TEST_TIMEOUT_MS);

  test('a damaged real link (cut, a character changed, text inserted) never throws', async () => {
    const damage = fc.record({
      state: anyState,
      cut: fc.nat(),
      at: fc.nat(),
      replacement: anyText(3),
    });
    await fc.assert(
      fc.asyncProperty(damage, async ({ state, cut, at, replacement }) => {
        const link = await encodeFragment(state);
        const truncated = link.slice(0, cut % (link.length + 1));
        expectWellFormedAnswer(await decodeFragment(truncated, KNOWN_ALGORITHMS));
        const position = at % (link.length + 1);
        const changed = link.slice(0, position) + replacement + link.slice(position + 1);
        expectWellFormedAnswer(await decodeFragment(changed, KNOWN_ALGORITHMS));
      }),
      { numRuns: RUNS },
    );
  }, TEST_TIMEOUT_MS);
});

describe('links round-trip', () => {
  /** What a state opens as from its own link: the text as typed, with the
   *  normalisations the readable form documents (readable.ts): node lists
   *  only on a node list, a problem's script is the page's, list fields
   *  item by item. */
  function expectOpensAs(opened: State, state: State): void {
    const expected = wellFormedState(state).state;
    if (expected.topology !== 'nodes' && opened.nodes === DEFAULT_STATE.nodes) {
      expected.nodes = DEFAULT_STATE.nodes;
      expected.steps = DEFAULT_STATE.steps;
    }
    if (expected.problem !== '' && opened.script === DEFAULT_STATE.script) expected.script = DEFAULT_STATE.script;
    for (const field of ['nodes', 'steps', 'opts'] as const) {
      const items = splitList(expected[field]);
      if (items !== null && opened[field] !== expected[field]) {
        expect(splitList(opened[field]), field).toEqual(items);
        expected[field] = opened[field];
      }
    }
    expect(opened).toEqual(expected);
  }

  test('every state opens from its link as it was typed, lone surrogates carried as U+FFFD', async () => {
    await fc.assert(
      fc.asyncProperty(anyState, async (state) => {
        const result = await encodeLink(state, { prefixLength: PREFIX.length });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const opened = await decodeFragment(result.fragment, KNOWN_ALGORITHMS);
        if (!opened.ok) throw new Error(`the link of a state does not open: ${opened.error}`);
        expect(opened.dropped).toEqual([]);
        expectOpensAs(opened.state, state);
        // Shared again (maybe in the other form: fields a view does not show
        // may be left out), it opens as the same state.
        const again = await encodeLink(opened.state, { prefixLength: PREFIX.length });
        if (!again.ok) throw new Error('an opened link cannot be shared again');
        const reopened = await decodeFragment(again.fragment, KNOWN_ALGORITHMS);
        if (!reopened.ok) throw new Error(`a link shared again does not open: ${reopened.error}`);
        expect(reopened.state).toEqual(opened.state);
      }),
      { numRuns: RUNS },
    );
  }, TEST_TIMEOUT_MS);
});
