import { describe, expect, it } from 'vitest';
import { partEnds, textBlob } from './textTransfer';

describe('partEnds', () => {
  it('cuts into parts of at most the size, the last one shorter', () => {
    expect(partEnds('', 4)).toEqual([]);
    expect(partEnds('abc', 4)).toEqual([3]);
    expect(partEnds('abcdefghij', 4)).toEqual([4, 8, 10]);
  });
  it('never cuts a surrogate pair in two', () => {
    const text = 'abc😀defg'; // the pair at 3..4
    const ends = partEnds(text, 4);
    expect(ends).toEqual([3, 7, 9]);
    let start = 0;
    const parts = ends.map((end) => text.slice(start, (start = end)));
    expect(parts.join('')).toBe(text);
    expect(parts.every((part) => !/[\ud800-\udbff]$/.test(part) && !/^[\udc00-\udfff]/.test(part))).toBe(true);
  });
});

describe('textBlob', () => {
  it('gives the text back exactly, made of several parts', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `${i} é😀`).join('\n');
    expect(partEnds(text).length).toBeGreaterThan(1);
    expect(await (await textBlob(text)).text()).toBe(text);
  });
});
