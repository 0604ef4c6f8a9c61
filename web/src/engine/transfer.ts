// The ArrayBuffers under a report's typed arrays, for postMessage's
// transfer list (moved, not copied): a part of a split report (the
// package's ResizePart), from the worker that made it to the page and from
// the page to the merging worker, and a moved-key list, from the worker to
// the page.
import type { MovedKeyColumns, ResizePart } from 'jumphash-wasm';
import type { MovedSample } from './protocol';

/** The ArrayBuffers of moved-key columns: their keys and their buckets before and after. */
function columnBuffers(columns: MovedKeyColumns): ArrayBuffer[] {
  return [columns.values, columns.oldBuckets, columns.newBuckets].map((array) => array.buffer as ArrayBuffer);
}

/** Every ArrayBuffer of `part`: its loads, its flow cells and its sample columns. */
export function partBuffers(part: ResizePart): ArrayBuffer[] {
  const { loadsBefore, loadsAfter, flowCells } = part;
  const arrays = [loadsBefore, loadsAfter, flowCells?.index, flowCells?.count];
  return [...arrays.filter((array) => array != null).map((array) => array.buffer as ArrayBuffer), ...columnBuffers(part.sample)];
}

/** Every ArrayBuffer of a moved-key list's parts, each once (a transfer list must not repeat one). */
export function sampleBuffers(sample: MovedSample): ArrayBuffer[] {
  return [...new Set(sample.parts.flatMap(columnBuffers))];
}
