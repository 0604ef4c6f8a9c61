import { describe, expect, test } from 'vitest';
import { keySpec } from './engine/client';
import { parseChain, parseCount } from './ui/controls';
import { parseErrors } from './views/exercise';

describe('counts typed by the user', () => {
  test('plain digits in range', () => {
    expect(parseCount('100', 'bucket count', 1, 2147483647)).toBe(100);
    expect(parseCount(' 0042 ', 'n', 1, 100)).toBe(42);
    expect(parseCount('2147483647', 'n', 1, 2147483647)).toBe(2147483647);
  });
  test('the CLI-style message otherwise, with the text as typed', () => {
    expect(parseCount('0', 'bucket count', 1, 2147483647)).toBe("bucket count must be an integer in 1..2147483647 (got '0')");
    expect(parseCount('2147483648', 'n', 1, 2147483647)).toMatch(/got '2147483648'/);
    expect(parseCount('99999999999999999999', 'n', 1, 10)).toMatch(/must be an integer/);
    for (const bad of ['-5', '1.5', '1e3', '', 'ten', '0x10']) expect(typeof parseCount(bad, 'n', 1, 100)).toBe('string');
  });
  test('chains', () => {
    expect(parseChain('12', 'to', 1, 100)).toEqual([12]);
    expect(parseChain('12, 11, 16', 'to', 1, 100)).toEqual([12, 11, 16]);
    expect(parseChain('12 -> 11 → 16', 'to', 1, 100)).toEqual([12, 11, 16]);
    expect(parseChain('12, x', 'to', 1, 100)).toBe("to must be an integer in 1..100 (got 'x')");
    expect(parseChain('', 'to', 1, 100)).toMatch(/got ''/);
  });
});

test('error lines of the interpreter map to script lines', () => {
  expect(
    parseErrors("line 2: error: bucket count must be an integer in 1..2147483647 (got '0')\nline 14: error: unknown algorithm 'ring' (known: jump)\n"),
  ).toEqual([
    { line: 2, message: "bucket count must be an integer in 1..2147483647 (got '0')" },
    { line: 14, message: "unknown algorithm 'ring' (known: jump)" },
  ]);
  expect(parseErrors('')).toEqual([]);
});

test('a pasted key list, one key a line, becomes KEYS arguments', () => {
  expect(keySpec('1\n2\r\n"a b"\n0..9')).toBe('1 2 "a b" 0..9');
});
