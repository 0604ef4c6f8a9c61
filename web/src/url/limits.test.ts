// The page's copies of the core's page-side limits agree with the limits
// table. The README's Limits section is that table (tests/limits_test.cpp
// checks it row for row against include/jumphash/limits.hpp), so reading
// it here ties the page's constants to the core without loading the engine.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { MAX_PASTED_LIST_CHARS } from '../ui/largeText';
import { MAX_FIELD_LENGTH, MAX_LINK_LENGTH } from './schema';

function readmeLimit(name: string): number {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
  if (!row) throw new Error(`the README's Limits table has no row ${name}`);
  return Number(row.split('|')[2]!.trim());
}

test('the page enforces the limits table\'s values', () => {
  expect(MAX_FIELD_LENGTH).toBe(readmeLimit('link-field-chars'));
  expect(MAX_LINK_LENGTH).toBe(readmeLimit('link-chars'));
  expect(MAX_PASTED_LIST_CHARS).toBe(readmeLimit('pasted-list-chars'));
});
