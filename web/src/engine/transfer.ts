// The ArrayBuffers under a part of a split report (the package's
// ResizePart): moved with postMessage's transfer list, not copied, from the
// worker that made it to the page and from the page to the merging worker.
import type { ResizePart } from 'jumphash-wasm';

/** Every ArrayBuffer of `part`: its loads, its flow cells and its sample columns. */
export function partBuffers(part: ResizePart): ArrayBuffer[] {
  const { loadsBefore, loadsAfter, flowCells, sample } = part;
  const arrays = [loadsBefore, loadsAfter, flowCells?.index, flowCells?.count, sample.values, sample.oldBuckets, sample.newBuckets];
  return arrays.filter((array) => array != null).map((array) => array.buffer as ArrayBuffer);
}
