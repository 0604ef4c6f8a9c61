// What the views ask about an algorithm, always from the engine's registry
// (context.algorithms, the core's algorithms()): never a list in TypeScript.

import type { AlgorithmInfo } from 'jumphash-wasm';
import type { AppContext } from '../context';

/** The registry entry of `name`, or undefined for a name the engine does not know. */
export function algorithmInfo(context: AppContext, name: string): AlgorithmInfo | undefined {
  return context.algorithms.find((info) => info.name === name);
}

/** The algorithm's human-readable title, or '' for an unknown name. */
export function algorithmTitle(context: AppContext, name: string): string {
  return algorithmInfo(context, name)?.title ?? '';
}

/** True for algorithms that place keys on n buckets (on a node list they index it: servers[bucket(key, n)]). */
export function isBucketCount(info: AlgorithmInfo | undefined): boolean {
  return info?.kind === 'bucket-count';
}

/** The largest node list any node-set algorithm accepts (0 when none): the views' hint. */
export function largestNodeList(context: AppContext): number {
  return Math.max(0, ...context.algorithms.filter((info) => info.kind === 'node-set').map((info) => info.limits.maxBuckets));
}
