import { describe, expect, test } from 'vitest';
import { defaultState, encodeFragment, sameState } from './index';
import { READABLE_LIMIT } from './readable';
import { decodeOk, hostPortNodes, sample } from './testSupport';

describe('encodeFragment and sameState', () => {
  test('a short node scenario stays readable', async () => {
    const state = sample({ view: 'resize', algos: ['ketama', 'jump'], topology: 'nodes' });
    const fragment = await encodeFragment(state);
    expect(fragment).toBe(
      'view=resize&algo=ketama,jump&nodes=cache-1,cache-2,cache-3,cache-4,cache-5,cache-6,cache-7,cache-8,cache-9,cache-10&steps=-cache-3&keys=0..9999',
    );
    expect(fragment.length).toBeLessThanOrEqual(READABLE_LIMIT);
    expect(sameState(await decodeOk(fragment), state)).toBe(true);
  });

  test('a long node list goes compact and keeps its typed text', async () => {
    const state = sample({ view: 'compute', algos: ['maglev'], topology: 'nodes', nodes: hostPortNodes(100).replace(/\n/g, ', ') });
    const fragment = await encodeFragment(state);
    expect(fragment.startsWith('v=5&')).toBe(true);
    expect(await decodeOk(fragment)).toEqual(state);
  });

  test('sameState compares every field', () => {
    expect(sameState(defaultState(), defaultState())).toBe(true);
    for (const change of [{ nodes: 'a' }, { steps: '' }, { opts: 'maglev.table=251' }, { topology: 'nodes' as const },
      { algos: ['jump'] }, { problem: 'key-42' }]) {
      expect(sameState(defaultState(), sample(change))).toBe(false);
    }
  });
});
