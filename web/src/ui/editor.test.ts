// The console's highlighter: every word comes from the core's lists, and the
// node commands' names and edits are not marked as errors.
import { StringStream } from '@codemirror/language';
import { describe, expect, test } from 'vitest';
import { jumphashTokenizer } from './editor';

// What the wasm package's language() returns (wasm/test/reports.test.mjs
// checks it against the core).
const words = {
  commands: ['ALGO', 'HASH', 'KEYS', 'BUCKETS', 'MOVED', 'LOAD', 'TRACE', 'NODES', 'REMOVE', 'ADD'],
  algorithms: ['jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo', 'ketama', 'envoy-ring'],
};

/** [text, style] of every token of one line. */
function tokens(line: string): [string, string | null][] {
  const parser = jumphashTokenizer(words);
  const state = parser.startState!(2);
  const stream = new StringStream(line, 2, 2);
  const out: [string, string | null][] = [];
  while (!stream.eol()) {
    const style = parser.token(stream, state);
    const text = stream.current();
    if (text.trim()) out.push([text, style]);
    stream.start = stream.pos;
  }
  return out;
}

describe('the command language highlighter', () => {
  test('commands and algorithm names come from the word lists; longer names win', () => {
    expect(tokens('ALGO jumpback-indep')).toEqual([['ALGO', 'keyword'], ['jumpback-indep', 'variableName']]);
    expect(tokens('algo Envoy-Ring min_ring=2048')).toEqual([
      ['algo', 'keyword'],
      ['Envoy-Ring', 'variableName'],
      ['min_ring=2048', 'attributeName'],
    ]);
    expect(tokens('FROB 1')[0]).toEqual(['FROB', 'invalid']);
    expect(tokens('ALGO ring')[1]).toEqual(['ring', 'invalid']);
  });

  test('node names, weights and edits are names, not errors', () => {
    expect(tokens('NODES 10.0.0.1:11211 cache-2*3 "cache 3"*2')).toEqual([
      ['NODES', 'keyword'],
      ['10.0.0.1:11211', 'string'],
      ['cache-2*3', 'string'],
      ['"cache 3"*2', 'string'],
    ]);
    expect(tokens('MOVED -cache-2 +big*2 =a*3 -"cache 3"').map(([, style]) => style)).toEqual([
      'keyword',
      'string',
      'string',
      'string',
      'string',
    ]);
    expect(tokens('REMOVE 3')).toEqual([['REMOVE', 'keyword'], ['3', 'number']]);
  });

  test('keys, ranges and random sets keep their styles', () => {
    expect(tokens('KEYS 0..99 random:10:1 0x2a "k" # note')).toEqual([
      ['KEYS', 'keyword'],
      ['0', 'number'],
      ['..', 'operator'],
      ['99', 'number'],
      ['random', 'atom'],
      [':', 'operator'],
      ['10', 'number'],
      [':', 'operator'],
      ['1', 'number'],
      ['0x2a', 'number'],
      ['"k"', 'string'],
      ['# note', 'comment'],
    ]);
    expect(tokens('HASH 1x 10')[1]![1]).toBe('invalid');
  });
});
