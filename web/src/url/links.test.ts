// Links never lose work: one bad value is dropped and named while the rest
// loads; a damaged link loads nothing; invalid UTF-16 is replaced, not
// thrown; a state too large for a link is refused with its size and limit.
import { describe, expect, test } from 'vitest';
import { base64UrlEncode, crc32Hex, deflateRaw, utf8Encode } from './bytes';
import { encodeCompact } from './compact';
import { type State, decodeFragment, encodeFragment, encodeLink, sameState, wellFormedState } from './index';
import { repairedMessage, tooLargeMessage } from './messages';
import { READABLE_LIMIT } from './readable';
import {
  DEFAULT_STATE,
  LIST_FIELD_SEPARATOR,
  MAX_FIELD_LENGTH,
  MAX_LINK_LENGTH,
  NODE_LIST_FIELDS,
  STATE_FIELDS,
  splitList,
  wellFormed,
} from './schema';
import { KNOWN_ALGORITHMS, decodeError, decodeOk, sample } from './testSupport';

/** decodeFragment's full answer for a link that must open. */
async function open(fragment: string, options: { maxFieldChars?: number } = {}) {
  const result = await decodeFragment(fragment, KNOWN_ALGORITHMS, options);
  if (!result.ok) throw new Error(`expected ${fragment} to open, got: ${result.error}`);
  return result;
}

/** A compact v=5 link of a hand-made payload object. */
async function compactLink(object: Record<string, unknown>, extra = ''): Promise<string> {
  const bytes = utf8Encode(JSON.stringify(object));
  return `v=5&c=${crc32Hex(bytes)}&z=${base64UrlEncode(await deflateRaw(bytes))}&view=resize${extra}`;
}

/** Deterministic pseudo-random numbers (xorshift32), 0 <= x < 1. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** `count` random 64-bit-ish decimal keys, one per line: text deflate cannot shrink much. */
function randomKeys(count: number, seed: number): string {
  const next = random(seed);
  return Array.from({ length: count }, () => String(Math.floor(next() * 2 ** 53))).join('\n');
}

const PAGE = 'http://127.0.0.1:4173/#';

describe('one bad value is dropped, the rest loads', () => {
  test('theme=neon: the theme keeps its default, every other parameter loads', async () => {
    const result = await open('view=resize&algo=jump&from=10&to=16&keys=1..5&theme=neon');
    expect(result.state).toEqual(sample({ view: 'resize', algos: ['jump'], to: '16', keys: '1..5' }));
    expect(result.dropped).toEqual([
      { field: 'theme', message: 'Unknown theme "neon": expected one of auto, light, dark. Using the default, auto.' },
    ]);
  });

  test('an unknown algorithm among good ones is left out; the good ones stay, in order', async () => {
    const result = await open('view=resize&algo=ketama,chord,jump&keys=0..99');
    expect(result.state.algos).toEqual(['ketama', 'jump']);
    expect(result.state.keys).toBe('0..99');
    expect(result.dropped).toHaveLength(1);
    expect(result.dropped[0]!.field).toBe('algo');
    expect(result.dropped[0]!.message).toMatch(/^Unknown algorithm "chord": expected jump, .*memento-java\. It was left out\.$/);
  });

  test('when no algorithm is left the default pair is used, and each unknown one is named', async () => {
    const result = await open('view=compute&algo=chord,pastry&key=7');
    expect(result.state.algos).toEqual(['jump', 'jumpback']);
    expect(result.state.key).toBe('7');
    expect(result.dropped.map((drop) => drop.message)).toEqual([
      expect.stringMatching(/^Unknown algorithm "chord"/),
      expect.stringMatching(/^Unknown algorithm "pastry"/),
      'The link selects no algorithm: give at least one, e.g. algo=jump. Using the default, jump, jumpback.',
    ]);
  });

  test('a bad problem id, view, topology, claim or language: each named, the rest loads', async () => {
    const result = await open(
      'view=teleport&algo=jump&key=9&n=10&topo=ring&problem=homework-7&claim=Bad_Id&lang=ruby&code=x',
    );
    expect(result.state).toEqual(sample({ algos: ['jump'], key: '9', n: '10', code: 'x' }));
    expect(result.dropped.map((drop) => drop.field)).toEqual(['view', 'topo', 'problem', 'claim', 'lang']);
    const messages = result.dropped.map((drop) => drop.message).join('\n');
    expect(messages).toMatch(/Unknown view "teleport": expected one of compute, resize, .*claims\. Using the default, compute\./);
    expect(messages).toMatch(/Unknown topology "ring": expected one of count, nodes\./);
    expect(messages).toMatch(/Unknown problem "homework-7": expected one of key-42, .*\. It was left empty\./);
    expect(messages).toMatch(/claim "Bad_Id" is not a claim id/);
    expect(messages).toMatch(/Unknown program language "ruby": expected one of js, python\./);
  });

  test('an unknown parameter, a repeated one and one that is not percent-encoding are dropped alone', async () => {
    const result = await open('view=compute&colour=red&key=1&key=2&n=%E0%A4%A&trace=50');
    expect(result.state).toEqual(sample({ trace: '50' }));
    // Repeated and undecodable parameters are found first, then the unknown ones.
    expect(result.dropped.map((drop) => drop.field)).toEqual(['key', 'n', 'colour']);
    expect(result.dropped[0]!.message).toBe('The link names "key" twice: neither value was used.');
    expect(result.dropped[1]!.message).toMatch(/not valid percent-encoding \("n=%E0%A4%A"\)/);
    expect(result.dropped[2]!.message).toMatch(/^Unknown link parameter "colour": expected view, algo, .*\. It was not used\.$/);
  });

  test('a text field longer than a link carries is dropped with its length and the limit', async () => {
    const result = await open(`view=resize&algo=jump&keys=${'1'.repeat(21)}&from=3`, { maxFieldChars: 20 });
    expect(result.state).toEqual(sample({ view: 'resize', algos: ['jump'], from: '3' }));
    expect(result.dropped).toEqual([
      {
        field: 'keys',
        message: 'The link\'s "keys" is longer than 20 characters (21); a link carries at most 20 per field. Using the default, 0..9999.',
      },
    ]);
    expect((await open(`keys=${'1'.repeat(20)}`, { maxFieldChars: 20 })).dropped).toEqual([]);
  });

  test('inside an intact compact payload a bad value is dropped; beside it too', async () => {
    const link = await compactLink(
      { algos: ['jump', 'chord'], keys: '5 6 7', claim: 'Not An Id', topology: 'ring', nodes: ['a'] },
      '&theme=neon&extra=1',
    );
    const result = await open(link);
    expect(result.form).toBe('canonical');
    expect(result.state).toEqual(sample({ view: 'resize', algos: ['jump'], keys: '5 6 7' }));
    expect(result.dropped.map((drop) => drop.field)).toEqual(['algos', 'claim', 'topology', 'nodes', 'theme', 'extra']);
    expect(result.dropped[3]!.message).toMatch(/field "nodes" is not text\. It keeps its default\./);
    expect(result.dropped[5]!.message).toMatch(/Unknown parameter "extra" in a compact link/);
  });

  test('a damaged compact link still loads nothing, whatever values it holds', async () => {
    const link = await encodeCompact(sample({ view: 'resize', keys: randomKeys(200, 5), theme: 'dark' }));
    expect(await decodeError(link.replace(/c=[0-9a-f]{8}/, 'c=00000000'))).toMatch(/checksum does not match/);
    const zAt = link.indexOf('z=');
    expect(await decodeError(link.slice(0, zAt + 50))).toMatch(/corrupted or truncated/);
    // A damaged envelope parameter is the whole link's damage, not one value's.
    expect(await decodeError(link.replace('z=', 'z=%E0'))).toMatch(/not valid percent-encoding/);
    expect(await decodeError(`${link}&v=5`)).toMatch(/names "v" twice/);
    expect(await decodeError(link.replace(/&view=resize/, '&view=teleport').replace(/c=[0-9a-f]{8}/, 'c=ffffffff'))).toMatch(
      /checksum/,
    );
  });
});

describe('invalid UTF-16 is replaced by U+FFFD and reported, never thrown', () => {
  test('wellFormed replaces lone halves and keeps pairs', () => {
    expect(wellFormed('a😀b')).toEqual({ text: 'a😀b', replaced: 0, first: -1 });
    expect(wellFormed('a\uD800b')).toEqual({ text: 'a\uFFFDb', replaced: 1, first: 1 });
    expect(wellFormed('\uDE00\uD83D')).toEqual({ text: '\uFFFD\uFFFD', replaced: 2, first: 0 });
    expect(wellFormed('x\uD83D')).toEqual({ text: 'x\uFFFD', replaced: 1, first: 1 });
    expect(wellFormed('\uD83D\uD83D\uDE00')).toEqual({ text: '\uFFFD😀', replaced: 1, first: 0 });
  });

  test('a lone surrogate in the script: the link is written (readable and compact) with U+FFFD', async () => {
    for (const script of ['HASH 42 100\n# \uD83D cut\n', `${'HASH 42 100\n'.repeat(60)}# \uDE00 cut\n`]) {
      const state = sample({ view: 'exercise', script });
      const result = await encodeLink(state, { prefixLength: PAGE.length });
      if (!result.ok) throw new Error(tooLargeMessage(result));
      expect(result.fragment.startsWith('v=5&')).toBe(script.length > READABLE_LIMIT);
      const first = script.search(/[\uD800-\uDFFF]/);
      expect(result.repaired).toEqual([{ field: 'script', replaced: 1, first }]);
      expect(repairedMessage(result.repaired[0]!)).toBe(
        `The exercise script holds invalid UTF-16 text (1 lone surrogate, the first at character ${(first + 1).toLocaleString('en-US')}), ` +
          'which no link can carry: the link has U+FFFD (�) in its place.',
      );
      const back = await decodeOk(result.fragment);
      expect(back).toEqual({ ...state, script: wellFormed(script).text });
      expect(state.script).toBe(script); // the page's state is not changed
      // encodeFragment (Copy a link with my program) does not throw either.
      expect(await encodeFragment(state)).toBe(result.fragment);
    }
  });

  test('every text field is covered, and a well-formed state reports nothing', () => {
    const state = sample({ key: '"\uD800"', nodes: 'a\uDC00', code: '\uD800\uD800' });
    const { state: clean, repaired } = wellFormedState(state);
    expect(repaired.map((entry) => entry.field)).toEqual(['key', 'nodes', 'code']);
    expect(repairedMessage(repaired[2]!)).toMatch(/^The shared program holds invalid UTF-16 text \(2 lone surrogates, the first at character 1\)/);
    expect(clean).toEqual(sample({ key: '"\uFFFD"', nodes: 'a\uFFFD', code: '\uFFFD\uFFFD' }));
    expect(wellFormedState(sample({ script: 'emoji 😀 ok' })).repaired).toEqual([]);
  });

  test('a lone surrogate escaped in a compact payload is replaced and reported on opening', async () => {
    const result = await open(await compactLink({ algos: ['jump'], keys: '"a\uD800"' }));
    expect(result.state.keys).toBe('"a\uFFFD"');
    expect(result.dropped).toEqual([
      {
        field: 'keys',
        message: expect.stringMatching(/"keys" holds invalid UTF-16 text \(1 lone surrogate, the first at character 3\): each was replaced by U\+FFFD/),
      },
    ]);
  });
});

describe('the page never writes a link it would refuse or a browser would drop', () => {
  test('the limits: 1,000,000 characters per field, 2,000,000 for the whole URL (below Chromium\'s 2 MB)', () => {
    expect(MAX_FIELD_LENGTH).toBe(1_000_000);
    expect(MAX_LINK_LENGTH).toBe(2_000_000);
    expect(MAX_LINK_LENGTH).toBeLessThan(2 * 1024 * 1024);
  });

  test('a field over the per-field limit: no link, its size and the limit', async () => {
    const keys = '7\n'.repeat(500_000) + '12'; // 1,000,002 characters; deflates to almost nothing
    const result = await encodeLink(sample({ view: 'resize', keys }), { prefixLength: PAGE.length });
    expect(result).toEqual({ ok: false, length: 1_000_002, limit: 1_000_000, field: 'keys', repaired: [] });
    expect(!result.ok && tooLargeMessage(result)).toBe(
      'This scenario is too large for a link (its key list is 1,000,002 characters, limit 1,000,000 per field)',
    );
    // One character less opens: the encoder and the decoder agree on the limit.
    const fits = sample({ view: 'resize', keys: keys.slice(2) });
    const ok = await encodeLink(fits, { prefixLength: PAGE.length });
    if (!ok.ok) throw new Error(tooLargeMessage(ok));
    expect(await decodeOk(ok.fragment)).toEqual(fits);
  });

  test('a field over the limit that the link does not carry leaves the link alone', async () => {
    // A node list of 1,000,002 characters on a bucket-count scenario: the
    // readable link does not carry node lists there, so it is written.
    const nodes = 'n\n'.repeat(500_001);
    const state = sample({ view: 'compute', topology: 'count', nodes });
    const result = await encodeLink(state, { prefixLength: PAGE.length });
    if (!result.ok) throw new Error(tooLargeMessage(result));
    expect(result.fragment).not.toContain('nodes');
    expect((await decodeOk(result.fragment)).key).toBe(state.key);
    // On a node list the link carries it, and says it is too large.
    const onNodes = await encodeLink({ ...state, topology: 'nodes' }, { prefixLength: PAGE.length });
    expect(onNodes).toMatchObject({ ok: false, field: 'nodes', length: nodes.length, limit: MAX_FIELD_LENGTH });
  });

  test('a URL over the whole-link limit: no link, its length and the limit, at the exact boundary', async () => {
    const state = sample({ view: 'resize', keys: randomKeys(3000, 11) });
    const free = await encodeLink(state, { prefixLength: PAGE.length });
    if (!free.ok) throw new Error(tooLargeMessage(free));
    const length = PAGE.length + free.fragment.length;
    const atLimit = await encodeLink(state, { prefixLength: PAGE.length, maxLinkChars: length });
    expect(atLimit).toEqual(free);
    const over = await encodeLink(state, { prefixLength: PAGE.length, maxLinkChars: length - 1 });
    expect(over).toMatchObject({ ok: false, length, limit: length - 1, field: null });
    expect(!over.ok && tooLargeMessage(over)).toBe(
      `This scenario is too large for a link (${length.toLocaleString('en-US')} characters, limit ${(length - 1).toLocaleString('en-US')})`,
    );
    // The page's address counts: a longer one pushes the same state over.
    expect((await encodeLink(state, { prefixLength: PAGE.length + 1, maxLinkChars: length })).ok).toBe(false);
  });

  test('2.5 MB of pasted keys is refused by the default limits', async () => {
    const keys = randomKeys(160_000, 3);
    expect(keys.length).toBeGreaterThan(2_500_000);
    const result = await encodeLink(sample({ view: 'resize', keys }), { prefixLength: PAGE.length });
    expect(result).toMatchObject({ ok: false, field: 'keys', limit: MAX_FIELD_LENGTH, length: keys.length });
  });

  test('random states: whatever encodeLink writes opens whole and equal; what it refuses is over a limit', async () => {
    const next = random(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const pieces = ['0', '42', '"alice"', '0xFF', 'é', '😀', ',', ' ', '\n', '#', '&', '=', '%', '+', '"a b"*2', '\uD800'];
    const text = (length: number) => Array.from({ length }, () => pick(pieces)).join('');
    const maxFieldChars = 300;
    const maxLinkChars = 1200;
    let written = 0;
    let refused = 0;
    for (let i = 0; i < 150; i++) {
      const state: State = sample({
        view: pick(['compute', 'resize', 'balance', 'exercise', 'compare', 'claims'] as const),
        algos: [pick(KNOWN_ALGORITHMS), pick(KNOWN_ALGORITHMS)].filter((a, j, all) => all.indexOf(a) === j),
        topology: pick(['count', 'nodes'] as const),
        key: text(Math.floor(next() * 20)),
        keys: text(Math.floor(next() * 400)),
        nodes: text(Math.floor(next() * 200)),
        script: text(Math.floor(next() * 350)),
        theme: pick(['auto', 'light', 'dark'] as const),
      });
      const result = await encodeLink(state, { prefixLength: PAGE.length, maxFieldChars, maxLinkChars });
      if (!result.ok) {
        refused++;
        expect(result.length).toBeGreaterThan(result.limit);
        continue;
      }
      written++;
      expect(PAGE.length + result.fragment.length).toBeLessThanOrEqual(maxLinkChars);
      const back = await decodeFragment(result.fragment, KNOWN_ALGORITHMS, { maxFieldChars });
      if (!back.ok) throw new Error(back.error);
      expect(back.dropped).toEqual([]);
      const clean = wellFormedState(state).state;
      if (result.fragment.startsWith('v=')) {
        expect(sameState(back.state, clean)).toBe(true);
        continue;
      }
      // A readable link leaves out node fields on bucket counts and shows a
      // list one item per line: compare what it carries, lists by item.
      for (const field of STATE_FIELDS) {
        if (field === 'algos') expect(back.state.algos).toEqual(clean.algos);
        else if (NODE_LIST_FIELDS.includes(field) && clean.topology === 'count') expect(back.state[field]).toBe(DEFAULT_STATE[field]);
        else if (field in LIST_FIELD_SEPARATOR) expect(splitList(back.state[field])).toEqual(splitList(clean[field]));
        else expect(back.state[field]).toBe(clean[field]);
      }
    }
    expect(written).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });

  test('every field round-trips through a link', async () => {
    const state = sample({
      view: 'compare', algos: ['maglev', 'jump'], key: '"ключ 😀"', n: '7', trace: '99', from: '3', to: '4, 5',
      keys: '1 2 "x&y=z%"', script: 'HASH 1 2\n', problem: 'key-42', topology: 'nodes', nodes: '"a b"*2\nc',
      steps: '-c', opts: 'maglev.table=251', claim: 'jump-key-42-history', lang: 'python', code: 'print(1)\n', theme: 'dark',
    });
    for (const field of STATE_FIELDS) expect(state[field]).not.toEqual(sample({})[field]);
    const result = await encodeLink(state, { prefixLength: PAGE.length });
    if (!result.ok) throw new Error(tooLargeMessage(result));
    // The problem supplies the script: a link names the problem, not the script.
    expect(await decodeOk(result.fragment)).toEqual({ ...state, script: sample({}).script });
  });
});
