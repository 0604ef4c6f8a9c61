import { describe, expect, it } from 'vitest';
import { grouped } from './dom';

describe('grouped', () => {
  it('groups digits in threes, as en-US reads them', () => {
    expect(grouped(0)).toBe('0');
    expect(grouped(999)).toBe('999');
    expect(grouped(1000)).toBe('1,000');
    expect(grouped(10_000_000)).toBe('10,000,000');
    expect(grouped(-1234567)).toBe('-1,234,567');
    expect(grouped(2147483647)).toBe('2,147,483,647');
  });
  it('prints a 64-bit key exactly: a bigint is never rounded to a double', () => {
    expect(grouped(18446744073709551615n)).toBe('18,446,744,073,709,551,615');
    expect(grouped(9007199254740993n)).toBe('9,007,199,254,740,993');
    expect(grouped(0n)).toBe('0');
  });
  it('prints what toLocaleString("en-US") prints, fractions and non-finite values included', () => {
    for (const value of [0.5, 1234.5678, 1e21, -0, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, 2n ** 63n]) {
      expect(grouped(value)).toBe(value.toLocaleString('en-US'));
    }
  });
});
