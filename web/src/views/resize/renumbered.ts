// Whether a resize renumbered a node list under a bucket-count algorithm:
// the Resize view's table (views/resize.ts) and its cards (card.ts) both
// say so. A module of its own, so that the page's first load, which has the
// table, does not carry the cards' flow arithmetic (flows.ts) with it.
import type { AlgorithmInfo } from 'jumphash-wasm';
import type { ReportedResize } from '../../engine/protocol';

/** How far above the fewest possible a step counts as "far": moved > this x minimum. */
export const RENUMBER_FACTOR = 1.5;

/**
 * True when a bucket-count algorithm placed keys on a node list by index
 * (servers[bucket(key, n)]) and the step moved far more keys than any scheme
 * must: the list was renumbered under it.
 */
export function renumbered(info: AlgorithmInfo | undefined, result: ReportedResize): boolean {
  return (
    info?.kind === 'bucket-count' &&
    result.nodesBefore !== null &&
    result.moved > RENUMBER_FACTOR * result.minimumMovedExpected &&
    result.moved > 0
  );
}
