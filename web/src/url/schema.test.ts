import { describe, expect, test } from 'vitest';
import {
  DEFAULT_NODES,
  DEFAULT_STATE,
  FIELDS_OF_VERSION,
  SCHEMA_VERSION,
  STATE_FIELDS,
  VIEWS,
  VIEW_FIELDS,
  defaultState,
  splitList,
  viewFields,
} from './schema';

describe('state and defaults', () => {
  test('schema 5 defaults: bucket counts, ten cache nodes, remove cache-3, no options', () => {
    expect(SCHEMA_VERSION).toBe(5);
    expect(DEFAULT_STATE.topology).toBe('count');
    expect(DEFAULT_NODES.split('\n')).toEqual([
      'cache-1', 'cache-2', 'cache-3', 'cache-4', 'cache-5', 'cache-6', 'cache-7', 'cache-8', 'cache-9', 'cache-10',
    ]);
    expect(DEFAULT_STATE.nodes).toBe(DEFAULT_NODES);
    expect(DEFAULT_STATE.steps).toBe('-cache-3');
    expect(DEFAULT_STATE.opts).toBe('');
    const state = defaultState();
    state.algos.push('modulo');
    expect(DEFAULT_STATE.algos).toEqual(['jump', 'jumpback']); // a copy, not the frozen default
  });

  test('the current schema carries every field but the presentation ones', () => {
    expect([...FIELDS_OF_VERSION[SCHEMA_VERSION]!].sort()).toEqual(
      STATE_FIELDS.filter((field) => field !== 'view' && field !== 'theme').sort(),
    );
    // Each version knows what the one before knew, except v=3's dropped output.
    for (let version = 3; version <= SCHEMA_VERSION; version++) {
      for (const field of FIELDS_OF_VERSION[version - 1]!) {
        if (field !== 'output') expect(FIELDS_OF_VERSION[version]).toContain(field);
      }
    }
  });

  test('views show the node fields instead of the bucket counts on a node list', () => {
    for (const view of VIEWS) {
      for (const field of viewFields({ view, topology: 'count' })) {
        expect(['nodes', 'steps']).not.toContain(field);
      }
    }
    for (const view of ['compute', 'resize', 'balance', 'compare'] as const) {
      const fields = viewFields({ view, topology: 'nodes' });
      expect(fields).toContain('nodes');
      for (const field of ['n', 'from', 'to'] as const) expect(fields).not.toContain(field);
    }
    expect(viewFields({ view: 'resize', topology: 'nodes' })).toEqual(['algos', 'nodes', 'steps', 'keys']);
    expect(VIEW_FIELDS.exercise.nodes).toEqual(['script']);
  });
});

describe('list syntax of nodes, steps and options', () => {
  test('newlines, spaces and commas separate; empty items vanish', () => {
    expect(splitList('a\nb c,d ,, e\r\n\tf')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(splitList(DEFAULT_NODES)).toHaveLength(10);
    expect(splitList('')).toEqual([]);
    expect(splitList(' ,\n')).toEqual([]);
  });

  test('weights and edits stay inside their item', () => {
    expect(splitList('cache-1*3 -cache-2,+cache-11*2 =cache-4*5')).toEqual([
      'cache-1*3', '-cache-2', '+cache-11*2', '=cache-4*5',
    ]);
    expect(splitList('maglev.table=251 groupcache.replicas=50')).toEqual(['maglev.table=251', 'groupcache.replicas=50']);
  });

  test('quoted names keep their spaces, commas and escaped quotes', () => {
    expect(splitList('"cache 4"*2, "a,b"\n-"x y" "say \\"hi\\""')).toEqual([
      '"cache 4"*2', '"a,b"', '-"x y"', '"say \\"hi\\""',
    ]);
  });

  test('an unclosed quote cannot be split', () => {
    expect(splitList('a "b c')).toBeNull();
    expect(splitList('"a\\"')).toBeNull();
  });
});
