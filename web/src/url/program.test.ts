// A shared program in a link (the workspace's "Copy a link with my program"):
// `lang` and `code`, optional fields of schema 5, written only when set.
import { describe, expect, test } from 'vitest';
import { base64UrlDecode, inflateRaw, utf8Decode } from './bytes';
import { encodeCompact } from './compact';
import { decodeFragment, encodeFragment } from './index';
import { encodeReadable } from './readable';
import { KNOWN_ALGORITHMS, decodeDropped, decodeError, decodeOk, sample } from './testSupport';

async function payloadOf(fragment: string): Promise<Record<string, unknown>> {
  const z = /(?:^|&)z=([^&]*)/.exec(fragment)![1]!;
  return JSON.parse(utf8Decode(await inflateRaw(base64UrlDecode(z)))) as Record<string, unknown>;
}

describe('a program in a link', () => {
  test('a readable link carries the language and the code, and round-trips', async () => {
    const code = 'console.log(input.length);\n';
    const fragment = `view=exercise&problem=key-42&lang=js&code=${encodeURIComponent(code)}`;
    const state = await decodeOk(fragment);
    expect(state).toEqual(sample({ view: 'exercise', problem: 'key-42', lang: 'js', code }));
    expect(encodeReadable(state)).toBe(fragment);
    // Without a program, neither is written.
    expect(encodeReadable(sample({ view: 'exercise', problem: 'key-42' }))).toBe('view=exercise&problem=key-42');
  });

  test('a language other than js or python is refused with the choices', async () => {
    expect(await decodeDropped('view=exercise&lang=ruby&code=puts')).toMatch(/Unknown program language "ruby": expected one of js, python\./);
  });

  test('a long Python program goes into a compact link, and only when shared', async () => {
    const code = `import sys\n${'print(1)\n'.repeat(200)}`;
    const shared = sample({ view: 'exercise', lang: 'python', code });
    const fragment = await encodeFragment(shared);
    expect(fragment.startsWith('v=5&c=')).toBe(true);
    const payload = await payloadOf(fragment);
    expect(payload['lang']).toBe('python');
    expect(payload['code']).toBe(code);
    const result = await decodeFragment(`#${fragment}`, KNOWN_ALGORITHMS);
    expect(result.ok && result.state).toEqual(shared);
    // Not shared: the compact payload has no program fields at all.
    const plain = await payloadOf(await encodeCompact(sample({ view: 'exercise', script: 'x'.repeat(600) })));
    expect('lang' in plain || 'code' in plain).toBe(false);
  });
});
