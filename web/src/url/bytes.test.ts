import { describe, expect, test } from 'vitest';
import { base64UrlDecode, base64UrlEncode, crc32, crc32Hex, deflateRaw, inflateRaw, utf8Decode, utf8Encode } from './bytes';

describe('byte helpers', () => {
  test('base64url round trip for every length', () => {
    for (let length = 0; length < 20; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length) & 255);
      expect(Array.from(base64UrlDecode(base64UrlEncode(bytes)))).toEqual(Array.from(bytes));
    }
  });

  test('base64url uses the URL alphabet without padding, and rejects anything else', () => {
    expect(base64UrlEncode(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(base64UrlEncode(utf8Encode('ab'))).toBe('YWI');
    expect(() => base64UrlDecode('YWI=')).toThrow(RangeError);
    expect(() => base64UrlDecode('a+b/')).toThrow(RangeError);
    expect(() => base64UrlDecode('abcde')).toThrow(RangeError); // 4k + 1 characters encode no byte string
  });

  test('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
    expect(crc32Hex(new Uint8Array(0))).toBe('00000000');
  });

  test('UTF-8 round trip; invalid UTF-8 throws', () => {
    expect(utf8Decode(utf8Encode('ключ ✓ 🙂'))).toBe('ключ ✓ 🙂');
    expect(() => utf8Decode(Uint8Array.from([0xc3]))).toThrow();
  });

  test('raw deflate round trip; a cut stream is rejected', async () => {
    const text = utf8Encode('10.0.0.1:11211\n'.repeat(500));
    const packed = await deflateRaw(text);
    expect(packed.length).toBeLessThan(text.length / 10);
    expect(Array.from(await inflateRaw(packed))).toEqual(Array.from(text));
    await expect(inflateRaw(packed.subarray(0, packed.length - 2))).rejects.toThrow();
  });
});
