// The Compare view's job: every algorithm's resize, load, lookup speed and
// state over one key set. A module of its own, loaded by the engine worker
// on the first 'compare' request (the Compare view only), so that the
// worker every page starts carries less code.

import type { Jumphash, NodeChange, Topology } from 'jumphash-wasm';
import type { CompareReply, CompareRequest, CompareRow } from './protocol';
import { loadLabel } from './reportJobs';
import { Progress, type WithKeyText, blame, messageOf, parseScenario, runJob, withOptions } from './workerJobs';

/** SplitMix64 outputs as keys for timing lookups (BigInt arithmetic, exact). */
function randomKeys(count: number, seed: bigint): BigUint64Array {
  const keys = new BigUint64Array(count);
  let state = seed;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    keys[i] = z ^ (z >> 31n);
  }
  return keys;
}

/** Lookups per second of `lookup(keys)` over about 150 ms, in this browser. */
function measureLookups(lookup: (keys: BigUint64Array, out: Int32Array) => void, keys: BigUint64Array): number {
  const out = new Int32Array(keys.length);
  lookup(keys, out); // warm up
  let lookups = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 150) {
    lookup(keys, out);
    lookups += keys.length;
    elapsed = performance.now() - start;
  }
  return lookups / (elapsed / 1000);
}

export function compare(jh: Jumphash, id: number, request: WithKeyText<CompareRequest>): CompareReply {
  const keyCount = blame('keys', () => jh.keyCount(request.keys));
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const algorithms = jh.algorithms();
  const progress = new Progress(id, keyCount * 2 * algorithms.length);
  const timingKeys = randomKeys(1 << 14, 0x5eedn);
  const rows = algorithms.map((info): CompareRow => {
    const choice = withOptions(info.name, scenario);
    const before: Topology = scenario ? { kind: 'nodes', nodes: scenario.nodes } : request.from;
    const after: Topology | NodeChange[] = scenario ? scenario.steps : request.to;
    const loadOn: Topology = scenario ? before : request.n;
    try {
      // The flow balance is what the comparison needs; the flows stay cells (no 8 MB matrix per algorithm).
      const resized = runJob(jh.startResize(choice, request.keys, before, after, { sampleLimit: 0 }), progress,
        `${info.name}: ${scenario ? 'the steps' : `${request.from} → ${request.to}`}`, (job) => job.resultInColumns({ flows: 'cells' }));
      const loaded = runJob(jh.startLoad(choice, request.keys, loadOn), progress,
        `${info.name}: ${loadLabel(request.n, scenario !== null)}`);
      let worst: number | null = null;
      const { chiSquare, degreesOfFreedom } = resized.flowBalance;
      if (resized.flowCells && degreesOfFreedom.length > 0) {
        worst = 0;
        for (let source = 0; source < degreesOfFreedom.length; source++) {
          if (degreesOfFreedom[source]! > 0) worst = Math.max(worst, chiSquare[source]! / degreesOfFreedom[source]!);
        }
      }
      // Build time and state of the placement a client would hold for `before`
      // (a bucket-count algorithm on a bucket count holds none).
      let lookupsPerSecond: number;
      let stateBytes = 0;
      let buildMs = 0;
      if (info.kind === 'bucket-count' && !scenario) {
        lookupsPerSecond = measureLookups((keys, out) => jh.buckets(info.name, keys, request.n, out), timingKeys);
      } else {
        const built = performance.now();
        const cluster = jh.cluster(choice, loadOn);
        buildMs = performance.now() - built;
        try {
          stateBytes = cluster.stateBytes;
          lookupsPerSecond = measureLookups((keys, out) => cluster.buckets(keys, out), timingKeys);
        } finally {
          cluster.dispose();
        }
      }
      return {
        info,
        error: null,
        total: resized.total,
        moved: resized.moved,
        minimumMovedExpected: resized.minimumMovedExpected,
        maxOverMean: loaded.stats.maxOverMean,
        chiSquare: loaded.stats.chiSquare,
        degreesOfFreedom: loaded.stats.degreesOfFreedom,
        worstFlowChiPerDof: worst,
        lookupsPerSecond,
        nsPerLookup: 1e9 / lookupsPerSecond,
        stateBytes,
        buildMs,
      };
    } catch (error) {
      return {
        info, error: messageOf(error), total: 0, moved: 0, minimumMovedExpected: 0, maxOverMean: 0, chiSquare: 0,
        degreesOfFreedom: 0, worstFlowChiPerDof: null, lookupsPerSecond: 0, nsPerLookup: 0, stateBytes: 0, buildMs: 0,
      };
    }
  });
  return { keyCount, rows };
}
