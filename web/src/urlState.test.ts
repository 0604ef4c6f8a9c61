import { describe, expect, test } from 'vitest';
import {
  DEFAULT_SCRIPT,
  PROBLEM_IDS,
  READABLE_LIMIT,
  SCHEMA_VERSION,
  type State,
  base64UrlDecode,
  base64UrlEncode,
  crc32,
  decodeFragment,
  defaultState,
  encodeCanonical,
  encodeCanonicalV1,
  encodeFragment,
  encodeReadable,
} from './urlState';

async function decodeOk(fragment: string): Promise<State> {
  const result = await decodeFragment(fragment);
  if (!result.ok) throw new Error(`expected ${fragment} to decode, got: ${result.error}`);
  return result.state;
}

async function decodeError(fragment: string): Promise<string> {
  const result = await decodeFragment(fragment);
  if (result.ok) throw new Error(`expected ${fragment} to fail, got ${JSON.stringify(result.state)}`);
  return result.error;
}

function sample(overrides: Partial<State>): State {
  return { ...defaultState(), ...overrides };
}

describe('readable form', () => {
  test('the issue example links decode', async () => {
    const compute = await decodeOk('#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100');
    expect(compute.view).toBe('compute');
    expect(compute.algos).toEqual(['jump', 'jumpback']);
    expect(compute.key).toBe('18446744073709551615');
    expect(compute.n).toBe('100');

    const resize = await decodeOk('#view=resize&algo=jump&from=10&to=12&keys=0..9999');
    expect(resize).toMatchObject({ view: 'resize', algos: ['jump'], from: '10', to: '12', keys: '0..9999' });

    const script = 'KEYS 0..9\nMOVED 10 12 # "quoted" & more\nHASH "a+b c" 7\n';
    const exercise = await decodeOk(`#view=exercise&script=${encodeURIComponent(script)}`);
    expect(exercise.view).toBe('exercise');
    expect(exercise.script).toBe(script);
  });

  test('plus signs stay plus signs and hand-written quotes work', async () => {
    const state = await decodeOk('view=compute&key="a+b"&n=7');
    expect(state.key).toBe('"a+b"');
  });

  test('the empty fragment is the default scenario', async () => {
    const result = await decodeFragment('');
    expect(result.ok && result.form).toBe('empty');
    expect(result.ok && result.state).toEqual(defaultState());
    expect(defaultState().script).toBe(DEFAULT_SCRIPT);
  });

  test('bad field values are kept as typed (the view reports them)', async () => {
    const state = await decodeOk('view=compute&key=-1&n=0');
    expect(state.key).toBe('-1');
    expect(state.n).toBe('0');
  });

  test('algorithm names are case-insensitive and de-duplicated', async () => {
    expect((await decodeOk('algo=JUMP,jumpback,jump')).algos).toEqual(['jump', 'jumpback']);
  });

  test('round trip through the readable form, for every view', async () => {
    for (const view of ['compute', 'resize', 'balance', 'exercise', 'compare'] as const) {
      const state = sample({
        view,
        algos: ['jumpback-indep', 'modulo'],
        key: '0xFFFFFFFFFFFFFFFF',
        n: '7',
        from: '16',
        to: '4, 8',
        keys: 'random:1000:7 "alice" 5..9',
        script: 'HASH 1 2\n',
        theme: 'dark',
      });
      const fragment = encodeReadable(state);
      expect(await decodeOk(fragment)).toEqual(state);
    }
  });

  test('readable links name the view and its fields', () => {
    expect(encodeReadable(sample({ view: 'resize', algos: ['jump'] }))).toBe(
      'view=resize&algo=jump&from=10&to=12&keys=0..9999',
    );
    expect(encodeReadable(sample({ view: 'compute', key: '18446744073709551615' }))).toBe(
      'view=compute&algo=jump,jumpback&key=18446744073709551615&n=100&trace=1000',
    );
  });
});

describe('canonical form', () => {
  test('round trip of large state, with unicode and every character', async () => {
    const keys = Array.from({ length: 3000 }, (_, i) => String(BigInt(i) * 6364136223846793005n)).join(' ');
    const state = sample({
      view: 'resize',
      keys: `${keys} "ключ ✓ \\" & # %" 0xdeadbeef`,
      script: 'KEYS "a b"\n\tMOVED 16 4\r\n',
      algos: ['jumpback', 'jumpback-indep'],
      theme: 'light',
    });
    const fragment = await encodeFragment(state);
    expect(fragment.startsWith(`v=${SCHEMA_VERSION}&`)).toBe(true);
    expect(SCHEMA_VERSION).toBe(4);
    expect(fragment.length).toBeLessThan(encodeReadable(state).length);
    const result = await decodeFragment(`#${fragment}`);
    expect(result.ok && result.form).toBe('canonical');
    expect(result.ok && result.state).toEqual(state);
  });

  test('short state stays readable, long state becomes canonical', async () => {
    expect(await encodeFragment(defaultState())).toBe(encodeReadable(defaultState()));
    const long = sample({ keys: Array.from({ length: 200 }, (_, i) => String(i * 7919)).join(' ') });
    expect(encodeReadable(long).length).toBeGreaterThan(READABLE_LIMIT);
    expect((await encodeFragment(long)).startsWith('v=4&c=')).toBe(true);
  });

  test('a schema-2 link as the schema-2 encoder wrote it keeps decoding (golden)', async () => {
    const golden =
      'v=2&c=a51ba1b5&z=NYqxCsIwFAB_JdycIW0U4W1u3R3VIbRRpE2eJHUo4r9LBLc77t6E5a4VOZN0ei3K1TLHDWHXY8kIXYO1hDE2cc5huRVNP2tJ_9Mct4pQQp40yd6JN53pjcdSx_J4rgjD8TSYg_GXzOcL&view=balance';
    const state = await decodeOk(golden);
    expect(state).toEqual(
      sample({ view: 'balance', algos: ['modulo'], n: '12', keys: 'random:50:3 1 2 3', script: 'HASH 7 3\n' }),
    );
  });

  test('a schema-3 link with a student output still opens, without the output (golden)', async () => {
    // Written by the schema-3 encoder (which put the output into links):
    // {"algos":["jump","jumpback"],...,"script":"HASH 42 100\n","output":"42: 42\n"}, view=exercise.
    const golden =
      'v=3&c=4d6cd446&z=JY27DgIhFER_hUx9s2EJDbez297StUCCRnEXwqPYGP_dgNXMyZlkPrDvRyzgC15tS6ARN-sCroTgDzC0AmEHY5YShJqt83_qeM9xG9RV7K3Pgz8KGHKajDEGhOLyM1UwltN5EVqJWcp1ByG2mlodNyy0Wnd8fw&view=exercise';
    const result = await decodeFragment(golden);
    if (!result.ok) throw new Error(result.error);
    expect(result.version).toBe(3);
    expect(result.state).toEqual(sample({ view: 'exercise', script: 'HASH 42 100\n' }));
    expect(result.state).not.toHaveProperty('output');
  });

  test('the encoder never writes an output; readable output= parameters are dropped', async () => {
    // The v=3 page wrote readable links like this one.
    const state = await decodeOk(
      `view=exercise&script=${encodeURIComponent('HASH 42 100\n')}&output=${encodeURIComponent('42: 42\n')}`,
    );
    expect(state).toEqual(sample({ view: 'exercise', script: 'HASH 42 100\n' }));
    expect(state).not.toHaveProperty('output');
    // A state object that somehow carries an output (a caller's bug) still does not leak it.
    const leaky = { ...sample({ view: 'exercise', script: 'HASH 42 100\n' }), output: 'SECRET 42: 42' } as State;
    expect(encodeReadable(leaky)).not.toContain('SECRET');
    expect(encodeReadable(leaky)).not.toContain('output');
    const canonical = await encodeCanonical(leaky);
    const decoded = await decodeFragment(canonical);
    expect(decoded.ok && decoded.state).toEqual(sample({ view: 'exercise', script: 'HASH 42 100\n' }));
    // The canonical payload is readable JSON after inflating: no output inside.
    const z = canonical.match(/z=([A-Za-z0-9_-]+)/)![1]!;
    const json = await new Response(
      new Blob([base64UrlDecode(z) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')),
    ).text();
    expect(json).not.toContain('SECRET');
    expect(JSON.parse(json)).not.toHaveProperty('output');
  });

  test('schema 4 adds the problem; a problem link names the problem, not the script', async () => {
    const state = sample({ view: 'exercise', problem: 'largest-key', script: 'HASH 18446744073709551615 100\n' });
    expect(encodeReadable(state)).toBe('view=exercise&problem=largest-key');
    const readable = await decodeOk('view=exercise&problem=largest-key');
    expect(readable.problem).toBe('largest-key');
    const fragment = await encodeCanonical(state);
    expect(fragment.startsWith('v=4&')).toBe(true);
    expect(await decodeOk(fragment)).toEqual(state);
    // Schema 3 had no problems.
    expect(await decodeError(fragment.replace('v=4&', 'v=3&'))).toMatch(/unknown field "problem"/);
    expect(await decodeError('view=exercise&problem=homework-7')).toMatch(/Unknown problem "homework-7"/);
    for (const id of PROBLEM_IDS) expect((await decodeOk(`view=exercise&problem=${id}`)).problem).toBe(id);
  });

  test('old version 1 links (plain base64url JSON) decode', async () => {
    // A schema-1 link as the first playground wrote it.
    const v1 =
      'v=1&z=' +
      base64UrlEncode(
        new TextEncoder().encode(
          JSON.stringify({
            view: 'resize',
            algos: ['jumpback'],
            key: '42',
            n: '100',
            trace: '1000',
            from: '16',
            to: '4',
            keys: '0..99999',
            script: 'HASH 42 100\n',
            theme: 'auto',
          }),
        ),
      );
    const state = await decodeOk(v1);
    expect(state).toMatchObject({ view: 'resize', algos: ['jumpback'], from: '16', to: '4', keys: '0..99999' });
    const again = sample({ view: 'exercise', script: 'TRACE 42 800\n' });
    expect(await decodeOk(encodeCanonicalV1(again))).toEqual(again);
  });

  test('literal schema-1 link', async () => {
    // {"view":"compute","key":"7","n":"3"} in base64url, as a v1 link.
    const state = await decodeOk('v=1&z=eyJ2aWV3IjoiY29tcHV0ZSIsImtleSI6IjciLCJuIjoiMyJ9');
    expect(state).toMatchObject({ view: 'compute', key: '7', n: '3', from: '10' });
  });
});

describe('bad links load nothing and say why', () => {
  test('future version', async () => {
    expect(await decodeError('v=5&z=abcd')).toMatch(/newer version of the playground \(link schema 5\)/);
    expect(await decodeError('v=99&view=compute')).toMatch(/link schema 99/);
  });

  test('truncated canonical payload', async () => {
    const state = sample({ keys: Array.from({ length: 500 }, (_, i) => String(i * 31)).join(' ') });
    const fragment = await encodeCanonical(state);
    const zAt = fragment.indexOf('z=');
    for (const cut of [zAt + 10, zAt + 40, fragment.indexOf('&view=') - 3]) {
      const error = await decodeError(fragment.slice(0, cut));
      expect(error).toMatch(/corrupted or truncated|truncated/);
    }
    expect(await decodeError(fragment.slice(0, zAt))).toMatch(/truncated/);
    expect(await decodeError(fragment.slice(0, 8))).toMatch(/checksum|truncated/);
  });

  test('corrupted canonical payload', async () => {
    const fragment = await encodeCanonical(sample({ keys: '1 2 3 4 5 6 7 8 9 10 11 12' }));
    const zAt = fragment.indexOf('z=') + 2;
    const flipped = fragment.slice(0, zAt + 5) + (fragment[zAt + 5] === 'A' ? 'B' : 'A') + fragment.slice(zAt + 6);
    expect(await decodeError(flipped)).toMatch(/corrupted/);
    expect(await decodeError(fragment.replace(/c=[0-9a-f]{8}/, 'c=00000000'))).toMatch(/checksum does not match/);
    expect(await decodeError(fragment.replace(/z=/, 'z=*'))).toMatch(/corrupted/);
    expect(await decodeError('v=1&z=bm90IGpzb24')).toMatch(/corrupted/);
    expect(await decodeError('v=1&z=' + base64UrlEncode(new TextEncoder().encode('[1,2]')))).toMatch(
      /not a state/,
    );
    expect(
      await decodeError('v=1&z=' + base64UrlEncode(new TextEncoder().encode('{"view":"compute","bogus":1}'))),
    ).toMatch(/unknown field "bogus"/);
    expect(await decodeError('v=x&z=abc')).toMatch(/not a number/);
    expect(await decodeError('z=abcd')).toMatch(/no schema version/);
  });

  test('readable form errors', async () => {
    expect(await decodeError('view=nonsense')).toMatch(/Unknown view "nonsense"/);
    expect(await decodeError('view=compute&algo=jump,rendezvous')).toMatch(/Unknown algorithm "rendezvous"/);
    expect(await decodeError('view=compute&algo=')).toMatch(/no algorithm/);
    expect(await decodeError('view=compute&colour=red')).toMatch(/Unknown link parameter "colour"/);
    expect(await decodeError('view=compute&key=%E0%A4%A')).toMatch(/percent-encoding/);
    expect(await decodeError('key=1&key=2')).toMatch(/twice/);
    expect(await decodeError('theme=sepia')).toMatch(/Unknown theme/);
  });
});

describe('byte helpers', () => {
  test('base64url round trip for every length', () => {
    for (let length = 0; length < 20; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length) & 255);
      expect(Array.from(base64UrlDecode(base64UrlEncode(bytes)))).toEqual(Array.from(bytes));
    }
  });

  test('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });
});
