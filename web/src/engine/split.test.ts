import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { LoadRequest, ResizeRequest } from './protocol';
import { MAX_FLOW_CELLS, mergedCounts, splitWorkers } from './split';

const resize = (sizes: number[], algos = ['jumpback']): ResizeRequest => ({ kind: 'resize', algos, keys: '', sizes, sampleLimit: 0 });

describe('mergedCounts', () => {
  test('a resize carries both loads and its flow matrix per algorithm and step', () => {
    expect(mergedCounts(resize([1000, 1001]))).toBe(1000 + 1001 + 1000 * 1001);
    expect(mergedCounts(resize([10, 12, 8], ['jump', 'modulo']))).toBe(2 * (10 + 12 + 120 + 12 + 8 + 96));
  });
  test('no flow matrix above the core\'s flow-cells limit', () => {
    expect(mergedCounts(resize([3000, 3001]))).toBe(6001);
    expect(mergedCounts(resize([2048, 2048]))).toBe(4096 + 2048 * 2048);
  });
  test('a load carries its loads; node lists count their nodes', () => {
    const load: LoadRequest = { kind: 'load', algos: ['jump', 'jumpback'], keys: '', n: 1000 };
    expect(mergedCounts(load)).toBe(2000);
    expect(mergedCounts({ ...load, scenario: { nodes: 'a b,c\nd', steps: '', opts: '' } })).toBe(8);
    const nodes = mergedCounts({ ...resize([]), scenario: { nodes: 'a b c', steps: '-a +e', opts: '' } });
    expect(nodes).toBe(2 * (5 * 5 + 10));
  });
  test('MAX_FLOW_CELLS is the core\'s flow-cells limit', () => {
    const limits = readFileSync(new URL('../../../include/jumphash/limits.hpp', import.meta.url), 'utf8');
    expect(limits).toMatch(/kMaxFlowCells = std::uint64_t\{1\} << 22;/);
    expect(MAX_FLOW_CELLS).toBe(2 ** 22);
  });
});

describe('splitWorkers', () => {
  test('at least 2^20 keys a worker, at most the limit', () => {
    expect(splitWorkers(2 ** 21 - 1, 100, 8)).toBe(1);
    expect(splitWorkers(2 ** 21, 100, 8)).toBe(2);
    expect(splitWorkers(10 ** 8, 100, 8)).toBe(8);
    expect(splitWorkers(10 ** 8, 100, 2)).toBe(2);
    expect(splitWorkers(0, 0, 8)).toBe(1);
  });
  test('a report whose merge would copy more than it saves stays on one worker', () => {
    const cells = mergedCounts(resize([1000, 1001]));
    expect(splitWorkers(10 ** 7, cells, 2)).toBe(1); // measured slower on two
    expect(splitWorkers(10 ** 8, cells, 2)).toBe(2); // measured faster on two
    expect(splitWorkers(3 * 10 ** 6, mergedCounts(resize([10, 12], ['jump', 'jumpback'])), 2)).toBe(2);
  });
});
