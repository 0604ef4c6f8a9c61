// Reports split by key range (the page's workers): a job over the first
// range absorbs the others' results in key order (or a job in the middle,
// the parts on either side) and gives the same report,
// bit for bit, as one job over every key — counts, loads, flows, flow
// balance, the fewest moved, load stats, the moved-key sample and its
// labels — for bucket counts and node lists, range, random and written keys,
// with parts made by another module instance and cloned as postMessage
// clones them, passed as result(), resultInColumns() or partResult() (flows
// as non-zero cells). Then every misuse and its message.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadJumphash } from '../src/index.js';
import { asColumns, jumphash, sampleInColumns } from './helpers.mjs';

const jh = await jumphash();
/** A second instance: the parts come from "another worker". */
const other = await loadJumphash();

const KEY_SETS = ['0..99999', 'random:60000:7', '"alpha" "beta" 3 4 5 "gamma" 7..2000 "delta" random:5000:1'];

/** Cut points 0 = c0 <= c1 <= ... <= total: `parts` ranges, an empty one among them. */
function cuts(total, parts, seed) {
  const points = [0, total];
  let state = seed;
  for (let i = 0; i < parts - 1; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    points.push(i === 1 ? points[points.length - 1] : state % (total + 1));
  }
  return points.sort((a, b) => a - b);
}

/**
 * Runs `start(options)` over the range `merging` of `points` and
 * `startOther(options)` over the others: the merging job in `jh`, the rest
 * in `other`, each passed on cloned as `passed(job)` makes it (its
 * result() unless given: partResult() for a resize's workers) and absorbed
 * in `order` (by default key order). The merging job's result(), or its
 * resultInColumns() when `columns`.
 */
function splitRun(start, startOther, points, columns = false, passed = (job) => job.result(), merging = 0, order = null) {
  const ranges = points.length - 1;
  const first = start({ keyRange: [points[merging], points[merging + 1]] });
  try {
    while (!first.step(7777));
    for (const i of order ?? Array.from({ length: ranges }, (_, i) => i).filter((i) => i !== merging)) {
      const job = startOther({ keyRange: [points[i], points[i + 1]] });
      try {
        while (!job.step(1 << 20));
        first.absorb(structuredClone(passed(job)));
      } finally {
        job.dispose();
      }
    }
    return columns ? first.resultInColumns() : first.result();
  } finally {
    first.dispose();
  }
}

const RESIZES = [
  { algo: 'jump', from: 10, to: 12 },
  { algo: 'jumpback', from: 1000, to: 1001 },
  { algo: 'jumpback-indep', from: 40, to: 30 },
  { algo: 'modulo', from: 7, to: 9 },
  { algo: 'ketama', from: { kind: 'nodes', nodes: [{ name: 'a' }, { name: 'b', weight: 2 }, { name: 'c' }] }, to: [{ kind: 'remove', name: 'b' }] },
  { algo: 'maglev table=251', from: 20, to: [{ kind: 'add', name: '20' }] },
  { algo: 'memento', from: 12, to: [{ kind: 'remove', name: '3' }] },
];

test('a resize split into parts and absorbed equals the whole, on every key set', () => {
  let seed = 1;
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const { algo, from, to } of RESIZES) {
      const whole = jh.moved(algo, keys, from, to, { sampleLimit: 300 });
      assert.deepEqual(whole.keyRange, [0, total]);
      for (const parts of [1, 2, 4]) {
        const points = cuts(total, parts, seed++);
        const split = splitRun(
          (options) => jh.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
          (options) => other.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
          points,
        );
        assert.deepEqual(split, whole, `${algo} on ${keys} cut at ${points}`);
        const inColumns = splitRun(
          (options) => jh.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
          (options) => other.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
          points,
          true,
        );
        assert.deepEqual(inColumns, asColumns(whole), `${algo} on ${keys} cut at ${points}, in columns`);
        // The parts as partResult() (flows as cells, sample in columns), and as resultInColumns().
        for (const passed of [(job) => job.partResult(), (job) => job.resultInColumns()]) {
          const fromParts = splitRun(
            (options) => jh.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
            (options) => other.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
            points,
            parts % 2 === 0,
            passed,
          );
          const expected = parts % 2 === 0 ? asColumns(whole) : whole;
          assert.deepEqual(fromParts, expected, `${algo} on ${keys} cut at ${points}, passed as ${passed}`);
        }
      }
    }
  }
});

test("a resize's partResult() holds its counts, its flows' non-zero cells and its sample in columns", () => {
  const job = jh.startResize('jumpback', '0..199999', 1000, 1001, { sampleLimit: 50, keyRange: [100000, 200000] });
  try {
    while (!job.step(1 << 20));
    const whole = job.result();
    const part = job.partResult();
    assert.deepEqual(Object.keys(part).sort(), ['algorithm', 'flowCells', 'from', 'keyRange', 'loadsAfter', 'loadsBefore', 'moved', 'sample', 'to', 'total']);
    assert.equal(part.algorithm, 'jumpback');
    assert.deepEqual([part.from, part.to, part.total, part.moved], [1000, 1001, 100000, whole.moved]);
    assert.deepEqual(part.keyRange, [100000, 200000]);
    assert.deepEqual(part.loadsBefore, whole.loadsBefore);
    assert.deepEqual(part.loadsAfter, whole.loadsAfter);
    assert.deepEqual(part.sample, sampleInColumns(whole.sample));
    // Every non-zero cell of the matrix, once, in index order; no other.
    const { index, count } = part.flowCells;
    assert.ok(index instanceof Uint32Array && count instanceof Float64Array);
    const nonZero = whole.flows.reduce((cells, keys, i) => (keys ? [...cells, i] : cells), []);
    assert.deepEqual([...index], nonZero);
    assert.deepEqual([...count], nonZero.map((i) => whole.flows[i]));
    // The diagonal (1000 sources) and one cell per source and destination moved to: far fewer than 1,001,000.
    assert.ok(index.length >= 1000 && index.length <= 1000 + whole.moved, `${index.length} cells`);
  } finally {
    job.dispose();
  }
  // Modulo moves nearly every key, filling most cells: then the cells are the whole matrix, with no index.
  const modulo = jh.startResize('modulo', '0..99999', 100, 101, { keyRange: [50000, 100000] });
  try {
    while (!modulo.step(1 << 20));
    const { flows } = modulo.result();
    const { flowCells } = modulo.partResult();
    assert.equal(flowCells.index, null);
    assert.deepEqual(flowCells.count, flows);
    const first = jh.startResize('modulo', '0..99999', 100, 101, { keyRange: [0, 50000] });
    while (!first.step(1 << 20));
    first.absorb(structuredClone(modulo.partResult()));
    assert.deepEqual(first.result(), jh.moved('modulo', '0..99999', 100, 101));
    first.dispose();
  } finally {
    modulo.dispose();
  }
  // A report that keeps no matrix (over 2^22 cells) has no cells either.
  const wide = jh.startResize('jump', '0..999', 3000, 3001);
  try {
    while (!wide.step(1000));
    assert.equal(wide.partResult().flowCells, null);
    const merged = jh.startResize('jump', '0..1999', 3000, 3001, { keyRange: [1500, 1500] });
    merged.step(1);
    assert.throws(() => merged.absorb(wide.partResult()), {
      name: 'RangeError',
      message: "absorb: the part covers keys [0, 1000) but this job's keys, with the parts it absorbed, are [1500, 1500): a part must begin at 1500 or end at 1500",
    });
    merged.dispose();
  } finally {
    wide.dispose();
  }
});

/** A matrix of `size` cells from FlowCells (the whole matrix when index is null). */
function matrixOf(cells, size) {
  if (cells.index === null) return cells.count;
  const flows = new Float64Array(size);
  cells.index.forEach((at, i) => {
    flows[at] = cells.count[i];
  });
  return flows;
}

test("resultInColumns({ flows: 'cells' }) is resultInColumns() with the flows as their non-zero cells", () => {
  for (const keys of KEY_SETS) {
    for (const { algo, from, to } of [...RESIZES, { algo: 'jump', from: 3000, to: 3001 }]) {
      const job = jh.startResize(algo, keys, from, to, { sampleLimit: 300 });
      try {
        while (!job.step(1 << 20));
        const { flows, ...columns } = job.resultInColumns();
        const { flowCells, ...withCells } = job.resultInColumns({ flows: 'cells' });
        assert.deepEqual(withCells, columns, `${algo} on ${keys}`);
        assert.deepEqual(job.resultInColumns({ flows: 'matrix' }), { flows, ...columns });
        if (flows === null) {
          assert.equal(flowCells, null, `${algo} on ${keys}: no matrix kept, no cells`);
          continue;
        }
        assert.deepEqual(matrixOf(flowCells, flows.length), flows, `${algo} on ${keys}`);
        if (flowCells.index !== null) {
          assert.ok(flowCells.count.every((count) => count > 0), `${algo} on ${keys}: only non-zero cells`);
          assert.ok(flowCells.index.every((at, i) => i === 0 || at > flowCells.index[i - 1]), `${algo} on ${keys}: in index order`);
        }
      } finally {
        job.dispose();
      }
    }
  }
  // Modulo fills most cells: the whole matrix, no index.
  const modulo = jh.startResize('modulo', '0..99999', 100, 101);
  try {
    while (!modulo.step(1 << 20));
    assert.equal(modulo.resultInColumns({ flows: 'cells' }).flowCells.index, null);
  } finally {
    modulo.dispose();
  }
});

test("a split resize's parts passed as results with cells add up to the whole", () => {
  for (const { algo, from, to } of RESIZES) {
    const keys = KEY_SETS[2];
    const whole = jh.moved(algo, keys, from, to, { sampleLimit: 300 });
    const split = splitRun(
      (options) => jh.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
      (options) => other.startResize(algo, keys, from, to, { sampleLimit: 300, ...options }),
      cuts(jh.keyCount(keys), 3, 5),
      false,
      (job) => job.resultInColumns({ flows: 'cells' }),
    );
    assert.deepEqual(split, whole, algo);
  }
});

test('resultInColumns names options it does not take', () => {
  const job = jh.startResize('jump', '0..99', 10, 12);
  try {
    while (!job.step(100));
    const message = (got) => `resultInColumns: options must be { flows: 'matrix' } (the default) or { flows: 'cells' }, got ${got}`;
    assert.throws(() => job.resultInColumns({ flows: 'dense' }), { name: 'TypeError', message: message("flows 'dense'") });
    assert.throws(() => job.resultInColumns({ flows: 1 }), { name: 'TypeError', message: message('flows number') });
    assert.throws(() => job.resultInColumns(null), { name: 'TypeError', message: message('null') });
    assert.throws(() => job.resultInColumns('cells'), { name: 'TypeError', message: message('string') });
    assert.ok(job.resultInColumns({}).flows instanceof Float64Array);
  } finally {
    job.dispose();
  }
});

test("a part's flow cells that are wrong are named, and add nothing", () => {
  const first = jh.startResize('jump', '0..999', 10, 12, { keyRange: [0, 500] });
  const second = jh.startResize('jump', '0..999', 10, 12, { keyRange: [500, 1000] });
  try {
    while (!first.step(1000));
    while (!second.step(1000));
    const part = second.partResult();
    const { index, count } = part.flowCells;
    const cells = (i, c) => ({ ...part, flowCells: { index: Uint32Array.from(i), count: Float64Array.from(c) } });
    const refused = [
      [cells([...index, 120], [...count, 1]), 'absorb: flow cell 120 outside the 10 x 12 matrix (indices 0..119)'],
      [cells(index.slice(1), count.slice(1)), `absorb: counts that do not add up: 500 keys, loads before 500, after 500, flows ${500 - count[0]}`],
      [cells([], []), 'absorb: counts that do not add up: 500 keys, loads before 500, after 500, flows 0'],
      [cells(index, count.map((c) => c + 0.5)), "absorb: a part's flow cells must be counts (integers >= 0) at indices below 2^32"],
      [{ ...part, flowCells: { index: index.slice(1), count } }, "absorb: a part's flowCells must be { index, count }: two arrays of one length, or index null and count the whole matrix"],
      [{ ...part, flowCells: { index: 'x', count: 'y' } }, "absorb: a part's flowCells must be { index, count }: two arrays of one length, or index null and count the whole matrix"],
      [{ ...part, flowCells: { index: [0.5], count: [1] } }, "absorb: a part's flow cells must be counts (integers >= 0) at indices below 2^32"],
      [{ ...part, flowCells: {} }, "absorb: a part's flowCells must be { index, count }: two arrays of one length, or index null and count the whole matrix"],
      [{ ...part, flowCells: { index: null, count } }, 'absorb: counts of another shape: loads 10 and 12, flows ' + count.length + ' where this report has 10, 12 and 120'],
      [{ ...part, flowCells: 7 }, "absorb: a part's flowCells must be { index, count }: two arrays of one length, or index null and count the whole matrix"],
    ];
    for (const [bad, message] of refused) assert.throws(() => first.absorb(bad), { name: 'RangeError', message }, message);
    // A part in columns with a sample that is neither columns nor objects.
    assert.throws(() => first.absorb({ ...part, sample: { values: [] } }), {
      name: 'TypeError',
      message: 'absorb: part must be the result() or partResult() of another job over the same report',
    });
    first.absorb(part);
    assert.deepEqual(first.result(), jh.moved('jump', '0..999', 10, 12));
  } finally {
    first.dispose();
    second.dispose();
  }
});

test('a job in the middle absorbs the parts on either side of its keys, in any such order, and makes the whole report', () => {
  let seed = 7;
  /** Over the ranges of `points` (4): the third's job, in `jh`, absorbs the second, the fourth, then the first (from `other`, cloned). */
  const middleRun = (start, startOther, points, passed) => splitRun(start, startOther, points, false, passed, 2, [1, 3, 0]);
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const { algo, from, to } of RESIZES) {
      for (const sampleLimit of [0, 3, 300]) {
        const points = cuts(total, 4, seed++);
        const result = middleRun(
          (options) => jh.startResize(algo, keys, from, to, { sampleLimit, ...options }),
          (options) => other.startResize(algo, keys, from, to, { sampleLimit, ...options }),
          points,
          (job) => job.partResult(),
        );
        assert.deepEqual(result, jh.moved(algo, keys, from, to, { sampleLimit }), `${algo} on ${keys}, sample ${sampleLimit}, cut at ${points}`);
      }
    }
    const points = cuts(total, 4, seed++);
    const load = middleRun((options) => jh.startLoad('jump', keys, 37, options), (options) => other.startLoad('jump', keys, 37, options), points, (job) => job.result());
    assert.deepEqual(load, jh.load('jump', keys, 37), `load on ${keys}, cut at ${points}`);
  }
});

test('parts with a long moved-key list, as objects or in columns, are absorbed on either side', () => {
  // modulo 7 -> 9 moves most keys: each half's list holds 150,000 of them.
  const keys = '0..399999';
  const sampleLimit = 250_000;
  const whole = jh.moved('modulo', keys, 7, 9, { sampleLimit });
  assert.equal(whole.sample.length, sampleLimit);
  const start = (instance) => (options) => instance.startResize('modulo', keys, 7, 9, { sampleLimit, ...options });
  for (const passed of [(job) => job.result(), (job) => job.partResult()]) {
    for (const merging of [0, 1]) {
      const result = splitRun(start(jh), start(other), [0, 200_000, 400_000], false, passed, merging);
      assert.deepEqual(result, whole, `merged into part ${merging}`);
    }
  }
});

test('a load split into parts and absorbed equals the whole', () => {
  let seed = 99;
  const topologies = [
    ['jump', 37],
    ['jumpback', 1000],
    ['rendezvous', { kind: 'nodes', nodes: [{ name: 'x', weight: 3 }, { name: 'y' }] }],
    ['memento', { kind: 'count', n: 9, edits: [{ kind: 'remove', name: '2' }] }],
  ];
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const [algo, topology] of topologies) {
      const whole = jh.load(algo, keys, topology);
      assert.deepEqual(whole.keyRange, [0, total]);
      const points = cuts(total, 3, seed++);
      const split = splitRun(
        (options) => jh.startLoad(algo, keys, topology, options),
        (options) => other.startLoad(algo, keys, topology, options),
        points,
      );
      assert.deepEqual(split, whole, `${algo} on ${keys} cut at ${points}`);
    }
  }
});

test('a job over a key range counts those keys only', () => {
  const job = jh.startResize('jump', '0..999', 10, 12, { keyRange: [100, 250] });
  try {
    assert.equal(job.total, 150);
    while (!job.step(64));
    assert.equal(job.done, 150);
    const part = job.result();
    assert.equal(part.total, 150);
    assert.deepEqual(part.keyRange, [100, 250]);
    // The same keys as a key set of their own, but at positions 100..249.
    assert.deepEqual(part, { ...jh.moved('jump', '100..249', 10, 12), keyRange: [100, 250] });
  } finally {
    job.dispose();
  }
  assert.equal(jh.load('jump', '0..999', 10, { keyRange: [0, 0] }).stats.total, 0);
});

test('misuse of keyRange and absorb is named', () => {
  assert.throws(() => jh.startResize('jump', '0..999', 10, 12, { keyRange: [5] }), {
    name: 'TypeError',
    message: 'startResize: keyRange must be [begin, end], two integers 0 <= begin <= end <= the key count',
  });
  assert.throws(() => jh.startLoad('jump', '0..999', 10, { keyRange: [0, 1.5] }), { name: 'TypeError' });
  assert.throws(() => jh.startLoad('jump', '0..999', 10, { keyRange: [0, 1001] }), {
    name: 'RangeError',
    message: 'startLoad: keyRange must be [begin, end] with 0 <= begin <= end <= 1000 (the key count)',
  });
  assert.throws(() => jh.moved('jump', '0..999', 10, 12, { keyRange: [600, 500] }), {
    name: 'RangeError',
    message: 'moved: keyRange must be [begin, end] with 0 <= begin <= end <= 1000 (the key count)',
  });
  const first = jh.startResize('jump', '0..999', 10, 12, { keyRange: [0, 500] });
  const second = jh.moved('jump', '0..999', 10, 12, { keyRange: [500, 1000] });
  try {
    assert.throws(() => first.absorb(second), {
      name: 'Error',
      message: "absorb: this job has done 0 of its 500 keys; step it to the end first (a part's keys lie beside its own)",
    });
    while (!first.step(1000));
    assert.throws(() => first.absorb({}), { name: 'TypeError' });
    assert.throws(() => first.absorb({ ...second, sample: undefined }), { name: 'TypeError' });
    assert.throws(() => first.absorb(jh.moved('jump', '0..999', 10, 12, { keyRange: [600, 1000] })), {
      name: 'RangeError',
      message: "absorb: the part covers keys [600, 1000) but this job's keys, with the parts it absorbed, are [0, 500): a part must begin at 500 or end at 0",
    });
    assert.throws(() => first.absorb(jh.moved('jumpback', '0..999', 10, 12, { keyRange: [500, 1000] })), {
      name: 'RangeError',
      message: 'absorb: the part is a report of jumpback, this job one of jump',
    });
    assert.throws(() => first.absorb(jh.moved('jump', '0..999', 10, 13, { keyRange: [500, 1000] })), {
      name: 'RangeError',
      message: 'absorb: counts of another shape: loads 10 and 13, flows 130 where this report has 10, 12 and 120',
    });
    assert.throws(() => first.absorb({ ...second, loadsBefore: second.loadsBefore.map(() => -1) }), {
      name: 'RangeError',
      message: "absorb: a part's total, moved, loads and flows must be counts (integers >= 0)",
    });
    // Nothing was added by the refused parts: the good one still makes the whole.
    first.absorb(second);
    assert.deepEqual(first.result(), jh.moved('jump', '0..999', 10, 12));
  } finally {
    first.dispose();
  }
  const load = jh.startLoad('jump', '0..99', 10, { keyRange: [0, 50] });
  try {
    while (!load.step(100));
    assert.throws(() => load.absorb(jh.load('jump', '0..99', 11, { keyRange: [50, 100] })), {
      name: 'RangeError',
      message: 'absorb: a part with 11 loads where this report has 10',
    });
  } finally {
    load.dispose();
  }
});

/**
 * Two jobs over the keys [0, total): one counting up from 0 in `jh`, one
 * counting down from the end in `other` (fromEnd), stepped in turn by
 * `upSteps` and `downSteps` keys until they meet; each ended there
 * (endHere), and the first absorbs the second's `passed(job)`, cloned (or,
 * `into` 'down', the second the first's: the part goes before its keys).
 * Returns the merging job's result() and where they met.
 */
function meetRun(start, startOther, total, upSteps, downSteps, passed, into = 'up') {
  const up = start({ keyRange: [0, total] });
  const down = startOther({ keyRange: [0, total], fromEnd: true });
  try {
    for (let turn = 0; up.done + down.done < total; turn++) {
      const left = total - up.done - down.done;
      if (turn % 2 === 0) up.step(Math.min(left, upSteps));
      else down.step(Math.min(left, downSteps));
    }
    up.endHere();
    down.endHere();
    assert.equal(up.total, up.done);
    assert.equal(down.total, down.done);
    const met = up.done;
    assert.deepEqual(down.partResult?.().keyRange ?? down.result().keyRange, [met, total]);
    if (into === 'up') {
      up.absorb(structuredClone(passed(down)));
      return { result: up.result(), met };
    }
    down.absorb(structuredClone(passed(up)));
    return { result: down.result(), met };
  } finally {
    up.dispose();
    down.dispose();
  }
}

test('a job counting its keys from the end down, met by one counting up, makes the whole report', () => {
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const { algo, from, to } of RESIZES) {
      for (const sampleLimit of [0, 3, 300]) {
        const whole = jh.moved(algo, keys, from, to, { sampleLimit });
        for (const [upSteps, downSteps] of [[7777, 1001], [1, 50000], [total, 1]]) {
          for (const into of ['up', 'down']) {
            const { result, met } = meetRun(
              (options) => jh.startResize(algo, keys, from, to, { sampleLimit, ...options }),
              (options) => other.startResize(algo, keys, from, to, { sampleLimit, ...options }),
              total,
              upSteps,
              downSteps,
              (job) => job.partResult(),
              into,
            );
            assert.deepEqual(result, whole, `${algo} on ${keys}, sample ${sampleLimit}, met at ${met} of ${total}, merged into ${into}`);
          }
        }
      }
    }
  }
  const topologies = [['jump', 37], ['rendezvous', { kind: 'nodes', nodes: [{ name: 'x', weight: 3 }, { name: 'y' }] }]];
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const [algo, topology] of topologies) {
      for (const into of ['up', 'down']) {
        const { result, met } = meetRun(
          (options) => jh.startLoad(algo, keys, topology, options),
          (options) => other.startLoad(algo, keys, topology, options),
          total,
          999,
          3000,
          (job) => job.result(),
          into,
        );
        assert.deepEqual(result, jh.load(algo, keys, topology), `${algo} on ${keys}, met at ${met}, merged into ${into}`);
      }
    }
  }
});

test('a job counting from its end takes the keys just before those done, and endHere ends its keys there', () => {
  const job = jh.startResize('jump', '0..999', 10, 12, { keyRange: [100, 250], fromEnd: true, sampleLimit: 1000 });
  try {
    assert.equal(job.total, 150);
    job.step(40);
    assert.equal(job.done, 40);
    // Keys 210..249: positions [210, 250).
    assert.deepEqual(job.result(), { ...jh.moved('jump', '210..249', 10, 12, { sampleLimit: 1000 }), keyRange: [210, 250] });
    job.step(10);
    job.endHere();
    assert.equal(job.total, 50);
    assert.equal(job.step(5), true); // nothing is left to count
    assert.equal(job.done, 50);
    assert.deepEqual(job.result(), { ...jh.moved('jump', '200..249', 10, 12, { sampleLimit: 1000 }), keyRange: [200, 250] });
  } finally {
    job.dispose();
  }
  // Counted up and ended early: its keys end where it got to.
  const up = jh.startLoad('jump', '0..999', 10, { keyRange: [100, 250] });
  try {
    up.step(30);
    up.endHere();
    assert.equal(up.total, 30);
    assert.deepEqual(up.result(), { ...jh.load('jump', '100..129', 10), keyRange: [100, 130] });
  } finally {
    up.dispose();
  }
});

test('misuse of fromEnd and endHere is named', () => {
  assert.throws(() => jh.startResize('jump', '0..999', 10, 12, { fromEnd: 'yes' }), {
    name: 'TypeError',
    message: 'startResize: fromEnd must be true or false, got string',
  });
  assert.throws(() => jh.startLoad('jump', '0..999', 10, { fromEnd: 1 }), {
    name: 'TypeError',
    message: 'startLoad: fromEnd must be true or false, got number',
  });
  const job = jh.startResize('jump', '0..999', 10, 12, { fromEnd: true });
  job.dispose();
  assert.throws(() => job.endHere(), { name: 'Error', message: 'this job was disposed' });
});

test('a sample taken once sampleFinal is the one the job ends with, and partResult({ sample: false }) is the rest of the part', () => {
  let early = 0;
  for (const keys of KEY_SETS) {
    const total = jh.keyCount(keys);
    for (const { algo, from, to } of RESIZES) {
      for (const sampleLimit of [0, 3, 300]) {
        const whole = other.startResize(algo, keys, from, to, { sampleLimit });
        const job = jh.startResize(algo, keys, from, to, { sampleLimit });
        try {
          while (!whole.step(1 << 20));
          const expected = whole.partResult();
          // Step until the list is final, take it, then count on to the end.
          let taken = null;
          while (!job.step(997)) {
            if (job.sampleFinal && taken === null) {
              taken = job.partResult().sample;
              if (sampleLimit > 0) early++;
            }
          }
          assert.equal(job.sampleFinal, true, 'every key counted');
          if (taken !== null) assert.deepEqual(taken, expected.sample, `${algo} on ${keys}, sample ${sampleLimit}: taken at ${job.done} of ${total}`);
          const counts = job.partResult({ sample: false });
          assert.equal(counts.sample, null);
          assert.deepEqual({ ...counts, sample: expected.sample }, expected, `${algo} on ${keys}, sample ${sampleLimit}`);
        } finally {
          whole.dispose();
          job.dispose();
        }
      }
    }
  }
  assert.ok(early > 20, `lists taken before the end: ${early}`);
});

test('sampleFinal: counted up, once the list is full; counted from the end, only at the end', () => {
  const up = jh.startResize('jump', '0..99999', 10, 12, { sampleLimit: 100 });
  const down = jh.startResize('jump', '0..99999', 10, 12, { sampleLimit: 100, fromEnd: true });
  try {
    assert.equal(up.sampleFinal, false);
    up.step(10);
    assert.equal(up.sampleFinal, false, 'about 2 of 10 keys move: the list is not full');
    up.step(5000);
    assert.equal(up.sampleFinal, true);
    down.step(99999);
    assert.equal(down.sampleFinal, false, 'one key left to count, which goes in front of a full list if it moves');
    down.step(1);
    assert.equal(down.sampleFinal, true);
    // A part without its list is absorbed only once the list is put back.
    const merging = jh.startResize('jump', '0..99999', 10, 12, { sampleLimit: 100, keyRange: [0, 0] });
    try {
      merging.step(1);
      const counts = up.partResult({ sample: false });
      const full = up.partResult();
      assert.throws(() => merging.absorb(counts), {
        name: 'TypeError',
        message: 'absorb: part must be the result() or partResult() of another job over the same report, with its sample (partResult({ sample: false }) leaves it out: put back the one taken before)',
      });
      merging.absorb({ ...counts, sample: full.sample });
      assert.deepEqual(merging.partResult(), { ...full, keyRange: [0, up.done] });
    } finally {
      merging.dispose();
    }
  } finally {
    up.dispose();
    down.dispose();
  }
  const job = jh.startResize('jump', '0..999', 10, 12);
  try {
    for (const [options, got] of [[{ sample: 'no' }, "sample 'no'"], [null, 'null'], [7, 'number'], [{ sample: 0 }, 'sample number']]) {
      assert.throws(() => job.partResult(options), {
        name: 'TypeError',
        message: `partResult: options must be { sample: true } (the default) or { sample: false }, got ${got}`,
      });
    }
  } finally {
    job.dispose();
  }
  assert.throws(() => job.sampleFinal, { name: 'Error', message: 'this job was disposed' });
});
