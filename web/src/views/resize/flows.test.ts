import { describe, expect, it } from 'vitest';
import type { AlgorithmInfo } from 'jumphash-wasm';
import type { ReportedResize } from '../../engine/protocol';
import { alignedLoads, csvQuoted, flowCells, flowCsv, flowMatrix, loadBefore, movedAt, movedCount, movedCsv, movedLine, movingCells, rowFlows, flowLabels } from './flows';
import { renumbered } from './renumbered';

/** A matrix as the package's FlowCells: its non-zero cells, or (`whole`) all of it with no index. */
function cells(matrix: number[], whole = false): ReportedResize['flowCells'] {
  if (whole) return { index: null, count: Float64Array.from(matrix) };
  const index = matrix.flatMap((keys, at) => (keys > 0 ? [at] : []));
  return { index: Uint32Array.from(index), count: Float64Array.from(index, (at) => matrix[at]!) };
}

/** a, b, c -> a, c, d (b removed, d added): 3 x 3 flows. */
function nodeResult(overrides: Partial<ReportedResize> = {}): ReportedResize {
  return {
    algorithm: 'ketama',
    from: 3,
    to: 3,
    nodesBefore: [{ name: 'a', weight: 1 }, { name: 'b "x", y', weight: 1 }, { name: 'c', weight: 2 }],
    nodesAfter: [{ name: 'a', weight: 1 }, { name: 'c', weight: 2 }, { name: 'd', weight: 1 }],
    total: 100,
    moved: 30,
    minimumMovedExpected: 25,
    loadsBefore: new Float64Array([30, 25, 45]),
    loadsAfter: new Float64Array([35, 45, 20]),
    // rows: a -> a 30; b -> a 5, c 0, d 20; c -> c 45
    flowCells: cells([30, 0, 0, 5, 0, 20, 0, 45, 0]),
    flowBalance: { movedOut: new Float64Array(0), chiSquare: new Float64Array(0), degreesOfFreedom: new Float64Array(0) },
    sample: { parts: [{ values: new BigUint64Array([7n, 9n]), oldBuckets: Int32Array.of(1, 1), newBuckets: Int32Array.of(2, 0), labels: [[1, '"k,1"']] }] },
    keyRange: [0, 100],
    ...overrides,
  };
}

const bucketInfo = { kind: 'bucket-count' } as AlgorithmInfo;
const nodeInfo = { kind: 'node-set' } as AlgorithmInfo;

describe('flow cells', () => {
  it('keeps non-zero cells in row-major order and marks staying keys by node name, not by index', () => {
    const cells = flowCells(nodeResult())!;
    expect(cells).toEqual([
      { source: 0, destination: 0, keys: 30, stays: true },
      { source: 1, destination: 0, keys: 5, stays: false },
      { source: 1, destination: 2, keys: 20, stays: false },
      // c is index 2 before and 1 after: it stays.
      { source: 2, destination: 1, keys: 45, stays: true },
    ]);
    expect(movingCells(cells).map((c) => c.keys)).toEqual([20, 5]);
  });

  it('marks the diagonal as staying on bucket counts', () => {
    const result = nodeResult({ nodesBefore: null, nodesAfter: null, from: 2, to: 3, flowCells: cells([4, 1, 0, 0, 3, 2]) });
    expect(flowCells(result)!.map((c) => c.stays)).toEqual([true, false, true, false]);
    const labels = flowLabels(result);
    expect([0, 1].map(labels.before)).toEqual(['0', '1']);
    expect([0, 1, 2].map(labels.after)).toEqual(['0', '1', '2']);
  });

  it('gives null when the matrix was not kept', () => {
    expect(flowCells(nodeResult({ flowCells: null }))).toBeNull();
    expect(flowCsv(nodeResult({ flowCells: null }))).toBeNull();
    expect(flowMatrix(nodeResult({ flowCells: null }))).toBeNull();
    expect(rowFlows(nodeResult({ flowCells: null }), 0)).toEqual([]);
  });

  it('reads the same cells, matrix and rows from a cell list and from the whole matrix', () => {
    const matrix = [0, 7, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 1];
    for (const whole of [false, true]) {
      const result = nodeResult({ nodesBefore: null, nodesAfter: null, from: 4, to: 4, flowCells: cells(matrix, whole) });
      expect([...flowMatrix(result)!]).toEqual(matrix);
      expect(flowCells(result)!.map((c) => [c.source, c.destination, c.keys])).toEqual([[0, 1, 7], [1, 0, 2], [3, 0, 5], [3, 3, 1]]);
      expect([0, 1, 2, 3].map((source) => rowFlows(result, source))).toEqual([[[1, 7]], [[0, 2]], [], [[0, 5], [3, 1]]]);
    }
  });
});

describe('CSV', () => {
  it('quotes names per RFC 4180 and writes one CRLF row per non-zero cell', () => {
    expect(csvQuoted('b "x", y')).toBe('"b ""x"", y"');
    expect(flowCsv(nodeResult())).toBe(
      'from,to,keys\r\n"a","a",30\r\n"b ""x"", y","a",5\r\n"b ""x"", y","d",20\r\n"c","c",45\r\n',
    );
  });

  it('writes bucket numbers plain on bucket counts', () => {
    const result = nodeResult({ nodesBefore: null, nodesAfter: null, from: 2, to: 2, flowCells: cells([4, 1, 0, 3]) });
    expect(flowCsv(result)).toBe('from,to,keys\r\n0,0,4\r\n0,1,1\r\n1,1,3\r\n');
  });

  it('lists moved keys with node names, string keys quoted', () => {
    const result = nodeResult();
    expect(movedLine(result, flowLabels(result), 0)).toBe('7: b "x", y -> d');
    expect(movedCsv(result)).toBe('key,from,to\r\n7,"b ""x"", y","d"\r\n"""k,1""","b ""x"", y","a"\r\n');
  });

  it('reads a list kept in parts as one list, labels by their own part, and a list of no parts as empty', () => {
    const part = (values: bigint[], labels: [number, string][] = []) => ({
      values: BigUint64Array.from(values),
      oldBuckets: Int32Array.from(values, (v) => Number(v % 2n)),
      newBuckets: Int32Array.from(values, () => 1),
      labels,
    });
    // A split report's list: two parts, the second's first key a string.
    const result = nodeResult({ nodesBefore: null, nodesAfter: null, from: 2, to: 2, sample: { parts: [part([4n, 5n]), part([8n, 9n, 11n], [[0, '"x"']])] } });
    expect(movedCount(result.sample)).toBe(5);
    expect(movedAt(result.sample, 2)).toEqual([result.sample.parts[1], 0]);
    expect([0, 1, 2, 3, 4].map((i) => movedLine(result, flowLabels(result), i))).toEqual(['4: 0 -> 1', '5: 1 -> 1', '"x": 0 -> 1', '9: 1 -> 1', '11: 1 -> 1']);
    expect(movedCsv(result)).toBe('key,old_bucket,new_bucket\r\n4,0,1\r\n5,1,1\r\n"""x""",0,1\r\n9,1,1\r\n11,1,1\r\n');
    expect(() => movedAt(result.sample, 5)).toThrow('moved key 5 of 5');
    const none = nodeResult({ sample: { parts: [] } });
    expect(movedCount(none.sample)).toBe(0);
    expect(movedCsv(none)).toBe('key,from,to\r\n');
  });
});

describe('loads and renumbering', () => {
  it('aligns loads by name: the removed node has 0 after, the added one 0 before', () => {
    const aligned = alignedLoads(nodeResult());
    expect(aligned.labels).toEqual(['a', 'b "x", y', 'c', 'd']);
    expect([...aligned.before]).toEqual([30, 25, 45, 0]);
    expect([...aligned.after]).toEqual([35, 0, 45, 20]);
    expect(aligned.present.after).toEqual([true, false, true, true]);
    expect(loadBefore(nodeResult(), 'c')).toBe(45);
    expect(loadBefore(nodeResult(), 'd')).toBeNull();
  });

  it('calls a bucket-count algorithm on a node list renumbered only when it moved far above the minimum', () => {
    expect(renumbered(bucketInfo, nodeResult({ moved: 80 }))).toBe(true);
    expect(renumbered(bucketInfo, nodeResult({ moved: 26 }))).toBe(false);
    expect(renumbered(nodeInfo, nodeResult({ moved: 80 }))).toBe(false);
    expect(renumbered(bucketInfo, nodeResult({ moved: 80, nodesBefore: null, nodesAfter: null }))).toBe(false);
  });
});
