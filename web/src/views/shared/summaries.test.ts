// The sentences that stand in for a large text box (Keys, Check my output).
import { describe, expect, it } from 'vitest';
import { outputSummary } from '../checker';
import { keysSummary } from './largeKeys';

describe('keysSummary', () => {
  it('names the keys, where they came from and the size', () => {
    expect(keysSummary(1_000_000, 1_000_000, 12_345_678, 'pasted')).toBe('1,000,000 keys pasted, 12.3 MB');
    expect(keysSummary(1, 1, 1_200_000, 'loaded')).toBe('1 key in the link, 1.2 MB');
    expect(keysSummary(null, 250_000, 3_000_000, 'pasted')).toBe('250,000 lines of keys pasted, 3.0 MB');
  });
});

describe('outputSummary', () => {
  it('names the lines and the size, and the file', () => {
    expect(outputSummary(1_000_000, 25_300_000, null)).toBe('1,000,000 lines pasted, 25.3 MB');
    expect(outputSummary(4_700_000, 50_600_000, 'out.txt')).toBe('out.txt: 4,700,000 lines, 50.6 MB');
  });
});
