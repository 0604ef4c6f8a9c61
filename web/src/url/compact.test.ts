import { describe, expect, test } from 'vitest';
import { base64UrlDecode, base64UrlEncode, crc32Hex, deflateRaw, utf8Encode } from './bytes';
import { encodeCompact, encodeCompactV1 } from './compact';
import { DEFAULT_NODES, PROBLEM_IDS, SCHEMA_VERSION, type State, decodeFragment, defaultState, encodeFragment } from './index';
import { READABLE_LIMIT, encodeReadable } from './readable';
import { BUCKET_COUNT_ALGORITHMS, KNOWN_ALGORITHMS, decodeDropped, decodeError, decodeOk, hostPortNodes, sample } from './testSupport';

/** A compact link of `version` around any payload object (for links no encoder writes any more). */
async function compactLink(version: number, object: unknown, view = 'resize'): Promise<string> {
  const bytes = utf8Encode(JSON.stringify(object));
  return `v=${version}&c=${crc32Hex(bytes)}&z=${base64UrlEncode(await deflateRaw(bytes))}&view=${view}`;
}

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
    expect(SCHEMA_VERSION).toBe(5);
    expect(fragment.length).toBeLessThan(encodeReadable(state).length);
    const result = await decodeFragment(`#${fragment}`, KNOWN_ALGORITHMS);
    expect(result.ok && result.form).toBe('canonical');
    expect(result.ok && result.state).toEqual(state);
  });

  test('short state stays readable, long state becomes canonical', async () => {
    expect(await encodeFragment(defaultState())).toBe(encodeReadable(defaultState()));
    const long = sample({ keys: Array.from({ length: 200 }, (_, i) => String(i * 7919)).join(' ') });
    expect(encodeReadable(long).length).toBeGreaterThan(READABLE_LIMIT);
    expect((await encodeFragment(long)).startsWith('v=5&c=')).toBe(true);
  });

  test('a schema-2 link as the schema-2 encoder wrote it keeps decoding (golden)', async () => {
    const golden =
      'v=2&c=a51ba1b5&z=NYqxCsIwFAB_JdycIW0U4W1u3R3VIbRRpE2eJHUo4r9LBLc77t6E5a4VOZN0ei3K1TLHDWHXY8kIXYO1hDE2cc5huRVNP2tJ_9Mct4pQQp40yd6JN53pjcdSx_J4rgjD8TSYg_GXzOcL&view=balance';
    const state = await decodeOk(golden, BUCKET_COUNT_ALGORITHMS);
    expect(state).toEqual(
      sample({ view: 'balance', algos: ['modulo'], n: '12', keys: 'random:50:3 1 2 3', script: 'HASH 7 3\n' }),
    );
  });

  test('a schema-3 link with a student output still opens, without the output (golden)', async () => {
    // Written by the schema-3 encoder (which put the output into links):
    // {"algos":["jump","jumpback"],...,"script":"HASH 42 100\n","output":"42: 42\n"}, view=exercise.
    const golden =
      'v=3&c=4d6cd446&z=JY27DgIhFER_hUx9s2EJDbez297StUCCRnEXwqPYGP_dgNXMyZlkPrDvRyzgC15tS6ARN-sCroTgDzC0AmEHY5YShJqt83_qeM9xG9RV7K3Pgz8KGHKajDEGhOLyM1UwltN5EVqJWcp1ByG2mlodNyy0Wnd8fw&view=exercise';
    const result = await decodeFragment(golden, KNOWN_ALGORITHMS);
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
    const canonical = await encodeCompact(leaky);
    const decoded = await decodeFragment(canonical, KNOWN_ALGORITHMS);
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
    // As the schema-4 encoder wrote it (golden).
    const fragment =
      'v=4&c=cef5c90c&z=JY49D8IgGIT_SnMzNi8KRdi6dXdUB0qw0X7QAA6N8b8b6nT35C6X-8BOQ0gwV7ze8wq2S2_diDvD6DcYiCMYFhhwIjDkaJ3_U8FHDPNOJQrFlfrotwQDqmuttQZDcvG5Zhh07aWr-FmIRglB6qRIS8kbLitOdFvAsMbQT76MTjYOPuVD-fH9AQ&view=exercise';
    expect(fragment.startsWith('v=4&')).toBe(true);
    expect(await decodeOk(fragment)).toEqual(state);
    // Schema 3 had no problems.
    expect(await decodeError(fragment.replace('v=4&', 'v=3&'))).toMatch(/unknown field "problem"/);
    expect(await decodeDropped('view=exercise&problem=homework-7')).toMatch(/Unknown problem "homework-7"/);
    for (const id of PROBLEM_IDS) expect((await decodeOk(`view=exercise&problem=${id}`)).problem).toBe(id);
    // The current encoder keeps the problem.
    const current = await encodeCompact(state);
    expect(current.startsWith('v=5&')).toBe(true);
    expect(await decodeOk(current)).toEqual(state);
    expect(await decodeError(current.replace('v=5&', 'v=3&'))).toMatch(/unknown field "problem"/);
  });

  test('a schema-4 link opens on bucket counts with the default node fields (golden)', async () => {
    // Written by the schema-4 encoder for resize, jumpback + modulo, 16 -> 4, 8, a dark embed.
    const golden =
      'v=4&c=8c7d8108&z=LY9NTgIxHMWv8s9zW0kLZYDuECYhQUMiaGIcF2UozgjTTtqSaIxrdx5ILwE3MhWXv7yPvPcOvX92AeoRL4emXetyB4bGbQ57hyeGnXmDguyCwUJBcA6G6HVpzpRw612TKEuSS3ZGQ_xlAxS8thvXqB7nakQFjt_Hn9PX6bMA8dftFgyh9HUboXBBq8qQeTW-rINRlBZRpUPFqI6BvGmdj4GRthuKlaFMXq7rSNHrtrCz8XJGskuC838QQymzgZR80BvwUb8vMtE_y_P8YUm80xkV9upuMs9XSxK8sDeL-3xKgpPoFvZ6MZ6SLOzqdjzJU_EwJcHQerfem_QYH78&view=resize&theme=dark';
    const result = await decodeFragment(golden, BUCKET_COUNT_ALGORITHMS);
    if (!result.ok) throw new Error(result.error);
    expect(result.version).toBe(4);
    expect(result.state).toEqual(
      sample({
        view: 'resize',
        algos: ['jumpback', 'modulo'],
        from: '16',
        to: '4, 8',
        keys: 'random:300:9 "ключ" 0xff',
        theme: 'dark',
      }),
    );
    expect(result.state).toMatchObject({ topology: 'count', nodes: DEFAULT_NODES, steps: '-cache-3', opts: '' });
  });

  test('schema 5 keeps the node fields exactly as typed; older schemas reject them', async () => {
    const state = sample({
      view: 'resize',
      algos: ['ketama', 'memento', 'jump'],
      topology: 'nodes',
      nodes: '  a, b\n"c d"*2\n\n',
      steps: '-b\n+e*3,  =a*2 ',
      opts: 'ketama.points=100  ',
    });
    const fragment = await encodeCompact(state);
    expect(fragment.startsWith('v=5&')).toBe(true);
    const result = await decodeFragment(fragment, KNOWN_ALGORITHMS);
    expect(result.ok && result.state).toEqual(state);
    expect(result.ok && result.version).toBe(5);
    expect(await decodeError(fragment.replace('v=5&', 'v=4&'))).toMatch(/unknown field "topology"/);
    const nodesOnly = await compactLink(4, { algos: ['ketama'], nodes: 'a b' });
    expect(await decodeError(nodesOnly)).toMatch(/unknown field "nodes"/);
    expect(await decodeDropped(await compactLink(5, { algos: ['ketama'], topology: 'ring' }))).toMatch(
      /Unknown topology "ring"/,
    );
    expect(await decodeDropped(await compactLink(5, { algos: ['ketama'], nodes: ['a', 'b'] }))).toMatch(
      /field "nodes" is not text/,
    );
    // A payload without the new fields takes their defaults.
    expect(await decodeOk(await compactLink(5, { algos: ['rendezvous'] }))).toEqual(
      sample({ view: 'resize', algos: ['rendezvous'] }),
    );
  });

  test('1000 host:port nodes fit in a link that opens again (asserted bound: under 8 KB)', async () => {
    const nodes = hostPortNodes(1000);
    expect(new Set(nodes.split('\n')).size).toBe(1000);
    const state = sample({
      view: 'resize',
      algos: ['ketama', 'rendezvous', 'jump', 'memento'],
      topology: 'nodes',
      nodes,
      steps: '-10.0.1.17:11211 +10.0.9.1:11211*2 =10.0.0.1:11211*3',
    });
    const fragment = await encodeFragment(state);
    expect(fragment.startsWith('v=5&c=')).toBe(true);
    expect(encodeReadable(state).length).toBeGreaterThan(16_000);
    expect(fragment.length).toBeLessThan(8 * 1024);
    const result = await decodeFragment(`#${fragment}`, KNOWN_ALGORITHMS);
    expect(result.ok && result.form).toBe('canonical');
    expect(result.ok && result.state).toEqual(state);
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
    expect(state.topology).toBe('count');
    const again = sample({ view: 'exercise', script: 'TRACE 42 800\n' });
    expect(await decodeOk(encodeCompactV1(again))).toEqual(again);
  });

  test('literal schema-1 link', async () => {
    // {"view":"compute","key":"7","n":"3"} in base64url, as a v1 link.
    const state = await decodeOk('v=1&z=eyJ2aWV3IjoiY29tcHV0ZSIsImtleSI6IjciLCJuIjoiMyJ9');
    expect(state).toMatchObject({ view: 'compute', key: '7', n: '3', from: '10' });
  });
});

describe('bad links load nothing and say why', () => {
  test('future version', async () => {
    expect(await decodeError('v=6&z=abcd')).toMatch(/newer version of the playground \(link schema 6\)/);
    expect(await decodeError('v=6&z=abcd')).toMatch(/this page reads schema 1 to 5/);
    expect(await decodeError('v=99&view=compute')).toMatch(/link schema 99/);
    expect(await decodeError('v=0&z=abcd')).toMatch(/schema version 0 does not exist/);
  });

  test('truncated canonical payload', async () => {
    const state = sample({ keys: Array.from({ length: 500 }, (_, i) => String(i * 31)).join(' ') });
    const fragment = await encodeCompact(state);
    const zAt = fragment.indexOf('z=');
    for (const cut of [zAt + 10, zAt + 40, fragment.indexOf('&view=') - 3]) {
      const error = await decodeError(fragment.slice(0, cut));
      expect(error).toMatch(/corrupted or truncated|truncated/);
    }
    expect(await decodeError(fragment.slice(0, zAt))).toMatch(/truncated/);
    expect(await decodeError(fragment.slice(0, 8))).toMatch(/checksum|truncated/);
  });

  test('corrupted canonical payload', async () => {
    const fragment = await encodeCompact(sample({ keys: '1 2 3 4 5 6 7 8 9 10 11 12' }));
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
    expect(await decodeError('v=1&z=' + base64UrlEncode(Uint8Array.from([0x7b, 0xc3])))).toMatch(/not UTF-8/);
    expect(await decodeDropped(`${fragment}&nodes=a`)).toMatch(/Unknown parameter "nodes" in a compact link/);
  });
});
