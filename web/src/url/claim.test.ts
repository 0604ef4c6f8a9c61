// The Claims view's link field `claim`: readable and compact, an optional
// field of schema 5 (written only when set), its shape checked.
import { describe, expect, test } from 'vitest';
import { base64UrlDecode, base64UrlEncode, crc32Hex, deflateRaw, inflateRaw, utf8Decode, utf8Encode } from './bytes';
import { encodeCompact } from './compact';
import { decodeFragment, encodeFragment } from './index';
import { encodeReadable } from './readable';
import { KNOWN_ALGORITHMS, decodeDropped, decodeError, decodeOk, sample } from './testSupport';

/** The JSON object inside a compact link's payload. */
async function payloadOf(fragment: string): Promise<Record<string, unknown>> {
  const z = /(?:^|&)z=([^&]*)/.exec(fragment)![1]!;
  return JSON.parse(utf8Decode(await inflateRaw(base64UrlDecode(z)))) as Record<string, unknown>;
}

describe('the claim field', () => {
  test('a readable link opens the Claims view on a claim, and round-trips', async () => {
    const state = await decodeOk('view=claims&claim=jump-key-42-history');
    expect(state).toEqual(sample({ view: 'claims', claim: 'jump-key-42-history' }));
    expect(encodeReadable(state)).toBe('view=claims&claim=jump-key-42-history');
    expect(await encodeFragment(state)).toBe('view=claims&claim=jump-key-42-history');
    // No claim: none written.
    expect(encodeReadable(sample({ view: 'claims' }))).toBe('view=claims');
    expect((await decodeOk('view=claims')).claim).toBe('');
  });

  test('an id of the wrong shape is refused with what is allowed', async () => {
    for (const bad of ['Jump-Key', 'jump key', 'jump--key', '-jump', 'a'.repeat(81), 'jump_key']) {
      const error = await decodeDropped(`view=claims&claim=${encodeURIComponent(bad)}`);
      expect(error).toMatch(/is not a claim id: ids are lower-case letters and digits joined by "-"/);
      expect(error).toMatch(/e\.g\. jump-key-42-history/);
    }
    // A well-formed id no claim has opens: the view says so.
    expect((await decodeOk('view=claims&claim=no-such-claim')).claim).toBe('no-such-claim');
  });

  test('compact links carry the claim only when set', async () => {
    const long = 'x'.repeat(600);
    const withClaim = sample({ view: 'claims', claim: 'two-level-routing', script: long });
    const fragment = await encodeFragment(withClaim);
    expect(fragment.startsWith('v=5&c=')).toBe(true);
    expect((await payloadOf(fragment)).claim).toBe('two-level-routing');
    const result = await decodeFragment(`#${fragment}`, KNOWN_ALGORITHMS);
    expect(result.ok && result.state).toEqual(withClaim);

    // Without a claim the payload has exactly the fields it had before the
    // claim existed, so pages that predate it open the link.
    const without = await encodeCompact(sample({ view: 'resize', script: long }));
    const payload = await payloadOf(without);
    expect('claim' in payload).toBe(false);
    expect(Object.keys(payload)).toEqual([
      'algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'problem', 'topology', 'nodes', 'steps', 'opts',
    ]);
  });

  test('schema 4 and older do not know the claim', async () => {
    const bytes = utf8Encode(JSON.stringify({ algos: ['jump'], claim: 'two-level-routing' }));
    const payload = `c=${crc32Hex(bytes)}&z=${base64UrlEncode(await deflateRaw(bytes))}&view=claims`;
    expect((await decodeOk(`v=5&${payload}`)).claim).toBe('two-level-routing');
    expect(await decodeError(`v=4&${payload}`)).toMatch(/unknown field "claim"/);
  });
});
