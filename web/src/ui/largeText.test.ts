import { describe, expect, it } from 'vitest';
import { keySpec } from '../engine/client';
import { LARGE_TEXT_CHARS, LARGE_TEXT_LINES, MAX_PASTED_LIST_CHARS, isLargeText, largePasteResult, pasteTooLargeMessage } from './largeText';
import { countByteLines, formatBytes, keySpecOf, measureText } from './textMeasure';

describe('isLargeText', () => {
  it('is false for short text and true past the character limit', () => {
    expect(isLargeText('')).toBe(false);
    expect(isLargeText('0..9999')).toBe(false);
    expect(isLargeText('x'.repeat(LARGE_TEXT_CHARS))).toBe(false);
    expect(isLargeText('x'.repeat(LARGE_TEXT_CHARS + 1))).toBe(true);
  });
  it('counts lines exactly at the line limit, with and without a final line break', () => {
    const lines = (count: number) => Array.from({ length: count }, (_, i) => String(i % 10));
    expect(isLargeText(lines(LARGE_TEXT_LINES).join('\n'))).toBe(false);
    expect(isLargeText(`${lines(LARGE_TEXT_LINES).join('\n')}\n`)).toBe(false);
    expect(isLargeText(lines(LARGE_TEXT_LINES + 1).join('\n'))).toBe(true);
    expect(isLargeText(`${lines(LARGE_TEXT_LINES + 1).join('\n')}\n`)).toBe(true);
  });
});

describe('measureText', () => {
  it('counts UTF-8 bytes and lines like TextEncoder and a split', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', '\n\n', 'é€😀\n"naïve"', 'x\ud800y', '\udc00', 'tail\ud83d']) {
      const bytes = new TextEncoder().encode(text).length;
      const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      expect(measureText(text), JSON.stringify(text)).toEqual({ bytes, lines });
      expect(countByteLines(new TextEncoder().encode(text)), JSON.stringify(text)).toBe(lines);
    }
  });
});

describe('formatBytes', () => {
  it('reads as file managers show sizes', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1000)).toBe('1.0 kB');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
    expect(formatBytes(50_000_000)).toBe('50.0 MB');
    expect(formatBytes(123_456_789)).toBe('123 MB');
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(2_500_000_000)).toBe('2.5 GB');
  });
});

describe('keySpecOf', () => {
  it('is the engine client’s keySpec', () => {
    for (const text of ['1 2', '1\n2\n', '1\r\n2\r\n\r\n3', '\n', '"a b"\n0..9']) expect(keySpecOf(text)).toBe(keySpec(text));
    expect(keySpecOf('1\r\n2\n\n3')).toBe('1 2 3');
  });
});

describe('largePasteResult', () => {
  const big = 'k\n'.repeat(LARGE_TEXT_LINES + 1);
  it('lets the browser insert a small paste into a small text', () => {
    expect(largePasteResult('1 2 3', 5, 5, ' 4')).toBeNull();
    expect(largePasteResult('', 0, 0, 'x'.repeat(5000))).toBeNull();
  });
  it('takes a large paste, in place of the selection', () => {
    expect(largePasteResult('', 0, 0, big)).toBe(big);
    expect(largePasteResult('AB', 1, 1, big)).toBe(`A${big}B`);
    expect(largePasteResult('A-B', 1, 2, big)).toBe(`A${big}B`);
  });
  it('takes a paste that makes the text large', () => {
    const current = 'x'.repeat(LARGE_TEXT_CHARS - 10);
    expect(largePasteResult(current, current.length, current.length, 'y'.repeat(2000))).toBe(current + 'y'.repeat(2000));
  });
});

describe('pasteTooLargeMessage', () => {
  it('up to the limit a paste fits; one more is refused with the limit named and what to do', () => {
    expect(MAX_PASTED_LIST_CHARS).toBe(64 * 1024 * 1024);
    expect(pasteTooLargeMessage(MAX_PASTED_LIST_CHARS)).toBeNull();
    expect(pasteTooLargeMessage(MAX_PASTED_LIST_CHARS + 1)).toBe(
      'That paste would make a list of 67,108,865 characters; the page takes at most 67,108,864 (pasted-list-chars). ' +
        'Nothing was pasted. For more keys write a range (0..99999999) or random:N:seed, or run the CLI.',
    );
    expect(pasteTooLargeMessage(11, 10)).toContain('at most 10 (pasted-list-chars)');
  });
});
