// The resize report's numbers as the Resize view shows them, on bucket counts
// and on node lists alike: the old -> new flow matrix as cells (the migration
// plan), its CSV, loads per node aligned by name, and whether a bucket-count
// algorithm renumbered the list. Pure functions of the package's ReportedResize.

import type { MovedKeyColumns } from 'jumphash-wasm';
import type { MovedSample, ReportedResize } from '../../engine/protocol';

/** One non-zero cell of the flow matrix. */
export interface FlowCell {
  /** Index of the source: a bucket 0..from-1, or a node of `nodesBefore`. */
  source: number;
  /** Index of the destination: a bucket 0..to-1, or a node of `nodesAfter`. */
  destination: number;
  /** Keys that went from source to destination (an integer >= 1). */
  keys: number;
  /** True when the keys stayed: the same bucket, or the same node name. */
  stays: boolean;
}

/** How a source (`before`) or destination (`after`) index prints. */
export interface FlowLabels {
  before: (index: number) => string;
  after: (index: number) => string;
}

/**
 * The names of the sources and destinations: node names, or bucket numbers
 * as text, made when asked (a resize of 10^6 buckets made 10^6 strings
 * for every card, about 0.2 s with their garbage).
 */
export function flowLabels(result: ReportedResize): FlowLabels {
  const named = (nodes: ReportedResize['nodesBefore']) => (nodes ? (index: number) => nodes[index]!.name : String);
  return { before: named(result.nodesBefore), after: named(result.nodesAfter) };
}

/**
 * For each destination index, the source index of the same node (by name on
 * node lists, by number on bucket counts), or -1 when it is new.
 */
function sameAs(result: ReportedResize): Int32Array {
  const out = new Int32Array(result.to).fill(-1);
  if (result.nodesBefore && result.nodesAfter) {
    const before = new Map(result.nodesBefore.map((node, i) => [node.name, i]));
    result.nodesAfter.forEach((node, i) => {
      out[i] = before.get(node.name) ?? -1;
    });
  } else {
    for (let i = 0; i < Math.min(result.from, result.to); i++) out[i] = i;
  }
  return out;
}

/**
 * The flow matrix's non-zero cells in row-major order (source, then
 * destination, both in list order); null when the core did not keep the
 * matrix (more than 2^22 cells).
 */
export function flowCells(result: ReportedResize): FlowCell[] | null {
  const flows = result.flowCells;
  if (!flows) return null;
  const same = sameAs(result);
  const cells: FlowCell[] = [];
  const add = (at: number, keys: number) => {
    const source = Math.floor(at / result.to);
    const destination = at - source * result.to;
    cells.push({ source, destination, keys, stays: same[destination] === source });
  };
  if (flows.index === null) flows.count.forEach((keys, at) => keys > 0 && add(at, keys));
  else flows.index.forEach((at, i) => add(at, flows.count[i]!));
  return cells;
}

/**
 * The whole from x to matrix (row-major), for a view that shows every cell
 * of a small one; null when the core did not keep the matrix. The result
 * carries only the non-zero cells (about 2,000 of 1,001,000 for 1000 -> 1001).
 */
export function flowMatrix(result: ReportedResize): Float64Array | null {
  const flows = result.flowCells;
  if (!flows) return null;
  if (flows.index === null) return flows.count;
  const matrix = new Float64Array(result.from * result.to);
  flows.index.forEach((at, i) => {
    matrix[at] = flows.count[i]!;
  });
  return matrix;
}

/** Row `source` of the flow matrix: its non-zero cells as [destination, keys], in destination order. */
export function rowFlows(result: ReportedResize, source: number): [number, number][] {
  const flows = result.flowCells;
  if (!flows) return [];
  const begin = source * result.to;
  const end = begin + result.to;
  const row: [number, number][] = [];
  if (flows.index === null) {
    for (let at = begin; at < end; at++) if (flows.count[at]! > 0) row.push([at - begin, flows.count[at]!]);
    return row;
  }
  // The first cell at or after the row's start (the index ascends).
  let low = 0;
  let high = flows.index.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (flows.index[middle]! < begin) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < flows.index.length && flows.index[i]! < end; i++) row.push([flows.index[i]! - begin, flows.count[i]!]);
  return row;
}

/** The cells where keys moved, the largest flows first (ties in list order). */
export function movingCells(cells: readonly FlowCell[]): FlowCell[] {
  return cells
    .filter((cell) => !cell.stays)
    .sort((a, b) => b.keys - a.keys || a.source - b.source || a.destination - b.destination);
}

/** A CSV field per RFC 4180: in double quotes, inner quotes doubled. */
export function csvQuoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The flow matrix as CSV (RFC 4180, CRLF line ends): a header `from,to,keys`
 * and one row per non-zero cell, staying keys included (a surviving node's
 * row to itself). Node names are quoted; bucket numbers are plain. Null when
 * the matrix was not kept.
 */
export function flowCsv(result: ReportedResize): string | null {
  const cells = flowCells(result);
  if (!cells) return null;
  const { before, after } = flowLabels(result);
  const named = result.nodesBefore !== null;
  const field = (text: string) => (named ? csvQuoted(text) : text);
  const lines = ['from,to,keys'];
  for (const cell of cells) lines.push(`${field(before(cell.source))},${field(after(cell.destination))},${cell.keys}`);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Loads before and after on one axis: every node of `nodesBefore` in its
 * order, then the nodes only `nodesAfter` has; 0 where a node is absent.
 * On bucket counts: buckets 0..max(from, to)-1.
 */
export function alignedLoads(result: ReportedResize): { labels: string[]; before: Float64Array; after: Float64Array; present: { before: boolean[]; after: boolean[] } } {
  const { before: nameBefore, after: nameAfter } = flowLabels(result);
  const sides = [[result.loadsBefore, nameBefore], [result.loadsAfter, nameAfter]] as const;
  // Every name once, in the order met: the slots of the axis.
  const index = new Map<string, number>();
  for (const [loads, name] of sides) for (let i = 0; i < loads.length; i++) if (!index.has(name(i))) index.set(name(i), index.size);
  const [[before, presentBefore], [after, presentAfter]] = sides.map(([loads, name]) => {
    const aligned = new Float64Array(index.size);
    const present = new Array<boolean>(index.size).fill(false);
    for (let i = 0; i < loads.length; i++) {
      const at = index.get(name(i))!;
      aligned[at] = loads[i]!;
      present[at] = true;
    }
    return [aligned, present] as const;
  }) as [readonly [Float64Array, boolean[]], readonly [Float64Array, boolean[]]];
  return { labels: [...index.keys()], before, after, present: { before: presentBefore, after: presentAfter } };
}

/** Keys a node held before the step (by name); null when it was not in the list. */
export function loadBefore(result: ReportedResize, name: string): number | null {
  const i = result.nodesBefore?.findIndex((node) => node.name === name) ?? -1;
  return i < 0 ? null : result.loadsBefore[i]!;
}

/** How many moved keys `sample` lists. */
export function movedCount(sample: MovedSample): number {
  return sample.parts.reduce((sum, part) => sum + part.values.length, 0);
}

/** The columns of `sample` holding its i-th moved key (0 <= i < movedCount), and the key's index in them. */
export function movedAt(sample: MovedSample, i: number): [MovedKeyColumns, number] {
  let at = i;
  for (const part of sample.parts) {
    if (at < part.values.length) return [part, at];
    at -= part.values.length;
  }
  throw new RangeError(`moved key ${i} of ${movedCount(sample)}`);
}

/** A moved key as the list shows it: `key: old -> new` with node names (or buckets). */
export function movedLine(result: ReportedResize, labels: FlowLabels, i: number): string {
  const [part, at] = movedAt(result.sample, i);
  return `${keyText(part, at)}: ${labels.before(part.oldBuckets[at]!)} -> ${labels.after(part.newBuckets[at]!)}`;
}

const keyLabels = new WeakMap<MovedKeyColumns, Map<number, string>>();

/** How key `i` of `part` prints (the CLI's form: decimal, or the quoted string). */
function keyText(part: MovedKeyColumns, i: number): string {
  let labels = keyLabels.get(part);
  if (!labels) keyLabels.set(part, (labels = new Map(part.labels)));
  return labels.get(i) ?? part.values[i]!.toString();
}

/** The moved keys as CSV (RFC 4180): `key,from,to`; a key that is not plain digits (a string key as the CLI prints it) is quoted. */
export function movedCsv(result: ReportedResize): string {
  const labels = flowLabels(result);
  const named = result.nodesBefore !== null;
  const field = (text: string) => (named ? csvQuoted(text) : text);
  const lines = [named ? 'key,from,to' : 'key,old_bucket,new_bucket'];
  for (const part of result.sample.parts) {
    for (let i = 0; i < part.values.length; i++) {
      const text = keyText(part, i);
      const key = /^\d+$/.test(text) ? text : csvQuoted(text);
      lines.push(`${key},${field(labels.before(part.oldBuckets[i]!))},${field(labels.after(part.newBuckets[i]!))}`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
