// The node-list API (cluster, bucket/buckets on node topologies, moved/load
// and their jobs on node lists, algorithms()) against three references:
// every public row of the real systems' vectors (tests/vectors/systems/,
// read as the GoogleTest suite reads them in tests/*_test.cpp), the
// interpreter's MOVED/LOAD/HASH text for the same scenario byte for byte
// (run()), and the interpreter's error messages for the same bad input.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cliMessage, jumphash, testsDir } from './helpers.mjs';

const jh = await jumphash();

// ---- reading the vectors -------------------------------------------------------

/**
 * Rows of a TSV under tests/vectors/systems/ as objects keyed by the header's
 * column names (values stay text), and the number of data lines in the file
 * (every non-empty line after the header), so a short read cannot pass.
 */
function readSystemTable(file) {
  const text = readFileSync(path.join(testsDir, 'vectors/systems', file), 'utf8');
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '')).filter((line) => line !== '');
  const columns = lines[0].split('\t');
  const rows = lines.slice(1).map((line) => {
    const fields = line.split('\t');
    assert.equal(fields.length, columns.length, `${file}: ${JSON.stringify(line)}`);
    return Object.fromEntries(columns.map((column, i) => [column, fields[i]]));
  });
  return { columns, rows, dataLines: lines.length - 1 };
}

/** configs.tsv: config name -> the node list in index order. */
const CONFIGS = (() => {
  const { rows } = readSystemTable('configs.tsv');
  const configs = new Map();
  for (const row of rows) {
    if (!configs.has(row.config)) configs.set(row.config, []);
    configs.get(row.config)[Number(row.index)] = { name: row.node, weight: Number(row.weight) };
  }
  for (const [name, nodes] of configs) {
    assert.equal(nodes.filter(Boolean).length, nodes.length, `configs.tsv: ${name} has a gap in its indexes`);
  }
  return configs;
})();

/** The node topology of a config of configs.tsv. */
function configTopology(config) {
  const nodes = CONFIGS.get(config);
  assert.ok(nodes, `config ${config} is not in configs.tsv`);
  return { kind: 'nodes', nodes: nodes.map((node) => ({ ...node })) };
}

/** A key column's text as the command language's quoted key (its UTF-8 bytes are hashed). */
const quoteKey = (key) => `"${key.replace(/["\\]/g, '\\$&')}"`;

/** A node as a NODES/ADD token: name or name*weight, quoted when it holds a space, '#', '*' or '"'. */
function nodeToken({ name, weight }) {
  const text = /[\s#*"]/.test(name) ? `"${name}"` : name;
  return weight === undefined || weight === 1 ? text : `${text}*${weight}`;
}

/** A change as MOVED's edit token. */
function editToken(change) {
  if (change.kind === 'remove') return `-${nodeToken({ name: change.name })}`;
  return `${change.kind === 'add' ? '+' : '='}${nodeToken(change)}`;
}

/**
 * The script lines that set `topology` up in the interpreter: NODES, then
 * REMOVE/ADD for its edits in order (as a scenario is replayed there).
 */
function topologyScript(topology) {
  if (typeof topology === 'number') return [`NODES ${Array.from({ length: topology }, (_, i) => i).join(' ')}`];
  const nodes = topology.kind === 'count'
    ? Array.from({ length: topology.n }, (_, i) => ({ name: String(i) }))
    : topology.nodes;
  const lines = [`NODES ${nodes.map(nodeToken).join(' ')}`];
  for (const change of topology.edits ?? []) {
    assert.notEqual(change.kind, 'reweight', 'the interpreter has no reweight command outside MOVED');
    lines.push(`${change.kind === 'remove' ? 'REMOVE' : 'ADD'} ${change.kind === 'remove' ? nodeToken({ name: change.name }) : nodeToken(change)}`);
  }
  return lines;
}

/** An algorithm choice as ALGO's arguments. */
function algoLine(algo) {
  if (typeof algo === 'string') return `ALGO ${algo}`;
  const options = Object.entries(algo.options ?? {}).map(([key, value]) => `${key}=${value}`);
  return ['ALGO', algo.name, ...options].join(' ');
}

/** Runs a script that must succeed; returns its stdout. */
function runOk(lines) {
  const script = `${lines.join('\n')}\n`;
  const { stdout, stderr, exitCode } = jh.run(script);
  assert.equal(stderr, '', script.slice(0, 400));
  assert.equal(exitCode, 0);
  return stdout;
}

// ---- every vector row ------------------------------------------------------------

/** Numeric keys for the buckets() checks: small, decimal-text lookalikes of the vectors' "0", and the extremes. */
const NUMERIC_KEYS = BigUint64Array.from(
  [...Array.from({ length: 40 }, (_, i) => BigInt(i)), 199n, 1000n, 65537n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n],
);

/**
 * Checks every row of a group (one algorithm on one topology) through
 * cluster().bucket, bucket() and, for rows whose key is decimal text,
 * buckets() and cluster().buckets() with that number; then numeric keys
 * through buckets() against bucket() on their decimal text (bare and quoted)
 * and against the interpreter's HASH under the same NODES (and REMOVE/ADD).
 * `expect(row)` gives { name, index? }.
 */
function checkGroup(label, algo, topology, rows, expect) {
  const cluster = jh.cluster(algo, topology);
  try {
    const mismatches = [];
    for (const row of rows) {
      const want = expect(row);
      const key = quoteKey(row.key);
      const viaCluster = cluster.bucket(key);
      const viaBucket = jh.bucket(algo, key, topology);
      const got = { index: viaCluster, name: cluster.nodes[viaCluster]?.name, viaBucket };
      let ok = got.name === want.name && viaBucket === viaCluster;
      if (want.index !== undefined) ok &&= viaCluster === want.index;
      if (/^(0|[1-9][0-9]*)$/.test(row.key)) {
        // A numeric key is hashed as its decimal text: the same bytes as the vector's key.
        const value = BigInt(row.key);
        const batch = jh.buckets(algo, BigUint64Array.of(value, value), topology);
        const clusterBatch = cluster.buckets(BigUint64Array.of(value));
        got.buckets = [...batch, ...clusterBatch, jh.bucket(algo, value, topology), jh.bucket(algo, row.key, topology)];
        ok &&= got.buckets.every((index) => index === viaCluster);
      }
      if (!ok) mismatches.push({ key: row.key, want, got });
    }
    assert.deepEqual(mismatches.slice(0, 5), [], `${label}: ${mismatches.length} of ${rows.length} rows differ`);

    const batch = jh.buckets(algo, NUMERIC_KEYS, topology);
    assert.deepEqual(cluster.buckets(NUMERIC_KEYS), batch, label);
    const names = [];
    NUMERIC_KEYS.forEach((key, i) => {
      const text = key.toString();
      assert.equal(jh.bucket(algo, text, topology), batch[i], `${label} key ${text}`);
      assert.equal(jh.bucket(algo, quoteKey(text), topology), batch[i], `${label} key "${text}"`);
      names.push(`${text}: ${cluster.nodes[batch[i]].name}\n`);
    });
    const hashes = runOk([algoLine(algo), ...topologyScript(topology), ...[...NUMERIC_KEYS].map((key) => `HASH ${key}`)]);
    assert.equal(hashes, names.join(''), `${label}: HASH under the same NODES`);
  } finally {
    cluster.dispose();
  }
}

/**
 * Reads `file`, checks its row count, groups rows by `groupOf(row)` =
 * { id, algo, topology } and checks each group; returns the number of groups.
 */
function checkFile(file, expectedRows, groupOf, expect) {
  const { rows, dataLines } = readSystemTable(file);
  assert.equal(rows.length, dataLines, `${file}: rows read`);
  assert.equal(rows.length, expectedRows, `${file}: data rows`);
  const groups = new Map();
  for (const row of rows) {
    const group = groupOf(row);
    if (!groups.has(group.id)) groups.set(group.id, { ...group, rows: [] });
    groups.get(group.id).rows.push(row);
  }
  for (const { id, algo, topology, rows: groupRows } of groups.values()) {
    checkGroup(`${file} ${id}`, algo, topology, groupRows, expect);
  }
  return groups.size;
}

test('ketama_libmemcached.tsv: every row, mode weighted (the default) and mode plain', () => {
  const groups = checkFile(
    'ketama_libmemcached.tsv',
    3075,
    (row) => {
      assert.ok(row.mode === 'weighted' || row.mode === 'ketama', `mode ${row.mode}`);
      return { id: `${row.config} ${row.mode}`, algo: row.mode === 'weighted' ? 'ketama' : 'ketama mode=plain', topology: configTopology(row.config) };
    },
    (row) => ({ index: Number(row.server_index), name: row.server }),
  );
  assert.equal(groups, 15);
});

test('ketama_libketama.tsv: every row with libketama', () => {
  const groups = checkFile(
    'ketama_libketama.tsv',
    1435,
    (row) => ({ id: row.config, algo: 'libketama', topology: configTopology(row.config) }),
    (row) => ({ name: row.server }),
  );
  assert.equal(groups, 7);
});

test('nginx_chash.tsv: every row with nginx', () => {
  const groups = checkFile(
    'nginx_chash.tsv',
    1435,
    (row) => ({ id: row.config, algo: 'nginx', topology: configTopology(row.config) }),
    (row) => ({ name: row.server }),
  );
  assert.equal(groups, 7);
});

test('groupcache_consistenthash.tsv: every row, replicas 50 (the default) and 3 (the option)', () => {
  const groups = checkFile(
    'groupcache_consistenthash.tsv',
    3280,
    (row) => ({
      id: `${row.config} replicas=${row.replicas}`,
      // 50 is the default (HTTPPool's); the other value goes through { name, options }.
      algo: row.replicas === '50' ? 'groupcache' : { name: 'groupcache', options: { replicas: Number(row.replicas) } },
      topology: configTopology(row.config),
    }),
    (row) => ({ name: row.node }),
  );
  assert.equal(groups, 16);
});

test('rendezvous_go.tsv: every row with rendezvous', () => {
  const groups = checkFile(
    'rendezvous_go.tsv',
    1640,
    (row) => ({ id: row.config, algo: 'rendezvous', topology: configTopology(row.config) }),
    (row) => ({ name: row.node }),
  );
  assert.equal(groups, 8);
});

for (const [algo, file] of [['envoy-ring', 'envoy_ring_hash.tsv'], ['maglev', 'envoy_maglev.tsv']]) {
  test(`${file}: every row with ${algo} (default options), host index and name`, () => {
    const groups = checkFile(
      file,
      1640,
      (row) => ({ id: row.config, algo, topology: configTopology(row.config) }),
      (row) => ({ index: Number(row.host_index), name: row.host }),
    );
    assert.equal(groups, 8);
  });
}

test('envoy vectors: the hash_xxh64 column is the key hash the core uses (memento starts with jump of it)', () => {
  // With no removals MementoHash is jump(xxh64(key, 0), n) (Lamping-Veach):
  // the column through `jump` must equal the string key through `memento`.
  for (const file of ['envoy_ring_hash.tsv', 'envoy_maglev.tsv']) {
    const { rows } = readSystemTable(file);
    const hashes = new Map(rows.map((row) => [row.key, row.hash_xxh64]));
    for (const row of rows) assert.equal(hashes.get(row.key), row.hash_xxh64, `${file}: two hashes for ${row.key}`);
    for (const n of [3, 1000, 100000]) {
      const mismatches = [];
      for (const [key, hash] of hashes) {
        const want = jh.bucket('jump', BigInt(hash), n);
        const got = jh.bucket('memento', quoteKey(key), n);
        if (got !== want) mismatches.push({ key, hash, n, want, got });
      }
      assert.deepEqual(mismatches.slice(0, 5), [], `${file}: ${mismatches.length} keys`);
    }
  }
});

test('envoy-ring and maglev options as tests/envoy_test.cpp sizes them (stateBytes: 12 per ring point, 4 per table slot)', () => {
  const ringPoints = (algo, config) => {
    const cluster = jh.cluster(algo, configTopology(config));
    try {
      assert.equal(cluster.stateBytes % 12, 0);
      return cluster.stateBytes / 12;
    } finally {
      cluster.dispose();
    }
  };
  assert.equal(ringPoints('envoy-ring', 'servers10'), 10 * 103);
  assert.equal(ringPoints('envoy-ring', 'servers100'), 100 * 11);
  assert.equal(ringPoints('envoy-ring', 'servers100_minus50'), 1090);
  assert.equal(ringPoints('envoy-ring', 'servers4_weighted'), 1030);
  assert.equal(ringPoints('envoy-ring max_ring=1024', 'servers10'), 1024);
  assert.equal(ringPoints({ name: 'envoy-ring', options: { min_ring: 5000 } }, 'servers10'), 5000);
  // A bucket count is nodes "0".."n-1": 10 equal hosts, the same ring size.
  assert.equal(jh.cluster('envoy-ring', 10).stateBytes, 10 * 103 * 12);
  const maglev = jh.cluster('maglev', configTopology('servers10'));
  assert.equal(maglev.stateBytes, 65537 * 4);
  maglev.dispose();
  const small = jh.cluster('maglev table=251', configTopology('servers10'));
  assert.equal(small.stateBytes, 251 * 4);
  assert.equal(small.options, 'table=251');
  small.dispose();
  // The non-default ring options change where keys land; the default ones do not.
  const servers10 = configTopology('servers10');
  const keys = NUMERIC_KEYS;
  assert.deepEqual(jh.buckets('envoy-ring min_ring=1024 max_ring=8388608', keys, servers10), jh.buckets('envoy-ring', keys, servers10));
  assert.notDeepEqual(jh.buckets('envoy-ring min_ring=5000', keys, servers10), jh.buckets('envoy-ring', keys, servers10));
  assert.deepEqual(jh.buckets('maglev table=65537', keys, servers10), jh.buckets('maglev', keys, servers10));
});

/**
 * A MementoHash scenario (n, ops "-" or e.g. "r3,r7,a") as a node topology,
 * as tests/memento_test.cpp replays it: nodes "0".."n-1", `rB` removes the
 * node named B, `a` adds a node named after the slot MementoHash restores
 * (the last removed one, else a new slot at the end), so a node's name is
 * the engine's bucket.
 */
function mementoTopology(n, ops) {
  const nodes = Array.from({ length: n }, (_, i) => ({ name: String(i) }));
  const edits = [];
  const removed = [];
  let slots = n;
  for (const op of ops === '-' ? [] : ops.split(',')) {
    if (op === 'a') {
      const slot = removed.length ? removed.pop() : slots;
      slots = Math.max(slots, slot + 1);
      edits.push({ kind: 'add', name: String(slot) });
    } else {
      assert.match(op, /^r\d+$/, `memento op ${op}`);
      edits.push({ kind: 'remove', name: op.slice(1) });
      removed.push(Number(op.slice(1)));
    }
  }
  return { kind: 'nodes', nodes, edits };
}

/** memento_scenarios.tsv: scenario -> { n, ops }. */
function mementoScenarios() {
  const { rows, dataLines } = readSystemTable('memento_scenarios.tsv');
  assert.equal(rows.length, dataLines);
  assert.equal(rows.length, 14);
  return new Map(rows.map((row) => [row.scenario, { n: Number(row.n), ops: row.ops }]));
}

function checkMementoFile(file, expectedRows, algoOfRow) {
  const scenarios = mementoScenarios();
  const seen = new Set();
  const groups = checkFile(
    file,
    expectedRows,
    (row) => {
      const scenario = scenarios.get(row.scenario);
      assert.ok(scenario, `${file}: scenario ${row.scenario} is not in memento_scenarios.tsv`);
      assert.deepEqual({ n: Number(row.n), ops: row.ops }, scenario, `${file}: scenario ${row.scenario}`);
      seen.add(row.scenario);
      const algo = algoOfRow(row);
      return { id: `${row.scenario} ${JSON.stringify(algo)}`, algo, topology: mementoTopology(scenario.n, scenario.ops) };
    },
    (row) => ({ name: row.bucket }),
  );
  assert.equal(seen.size, scenarios.size, `${file}: every scenario has rows`);
  return groups;
}

test('memento_cpp.tsv: every row, each scenario replayed as edits of "0".."n-1"', () => {
  assert.equal(checkMementoFile('memento_cpp.tsv', 2870, () => 'memento'), 14);
});

test('memento_java.tsv: every row of every hash column (the hash option)', () => {
  const HASH_OPTION = { CRC32: 'crc32', MD5: 'md5', XX: 'xxhash32', MURMUR3: 'murmur3' };
  const groups = checkMementoFile('memento_java.tsv', 11480, (row) => {
    assert.ok(row.hash in HASH_OPTION, `hash column ${row.hash}`);
    return { name: 'memento-java', options: { hash: HASH_OPTION[row.hash] } };
  });
  assert.equal(groups, 14 * 4);
});

test('memento: a count topology with edits is nodes "0".."n-1" with the same edits', () => {
  const keys = NUMERIC_KEYS;
  for (const [name, { n, ops }] of mementoScenarios()) {
    const nodes = mementoTopology(n, ops);
    const count = { kind: 'count', n, edits: nodes.edits };
    for (const algo of ['memento', 'memento-java hash=md5']) {
      const a = jh.cluster(algo, nodes);
      const b = jh.cluster(algo, count);
      assert.deepEqual(b.nodes, a.nodes, name);
      assert.deepEqual(b.buckets(keys), a.buckets(keys), name);
      assert.equal(b.stateBytes, a.stateBytes, name);
      a.dispose();
      b.dispose();
    }
  }
});

// ---- reports against MOVED and LOAD ------------------------------------------------

const SPEC = '0..1999 random:500:3 "alice" "bob" "café" "日本語キー" 18446744073709551615';

/** The text MOVED prints for a node-list resize report. */
function movedText(result) {
  assert.equal(result.sample.length, result.moved, 'sampleLimit must hold every moved key');
  const lines = result.sample.map((s) => `${s.key}: ${result.nodesBefore[s.oldBucket].name} -> ${result.nodesAfter[s.newBucket].name}\n`);
  return `${lines.join('')}moved: ${result.moved} of ${result.total}\n`;
}

/** The text LOAD prints for a node-list load report. */
const loadText = (result) => result.nodes.map((node, i) => `${node.name}: ${result.loads[i]}\n`).join('');

/** The loads LOAD prints, as numbers by node name. */
function loadLines(stdout) {
  return stdout.trimEnd().split('\n').map((line) => {
    const at = line.lastIndexOf(': ');
    return [line.slice(0, at), Number(line.slice(at + 2))];
  });
}

const CACHES = { kind: 'nodes', nodes: Array.from({ length: 10 }, (_, i) => ({ name: `cache-${i + 1}` })) };
const LETTERS = (count) => ({ kind: 'nodes', nodes: [...'abcdefghij'.slice(0, count)].map((name) => ({ name })) });

/**
 * Resize scenarios: algo, from (a topology), to (changes, or a count), and
 * the MOVED line and setup the interpreter runs for the same scenario.
 */
const RESIZE_SCENARIOS = [
  { label: 'ketama: remove a middle node', algo: 'ketama', from: CACHES, to: [{ kind: 'remove', name: 'cache-3' }] },
  { label: 'libketama: remove a middle node', algo: 'libketama', from: CACHES, to: [{ kind: 'remove', name: 'cache-5' }] },
  { label: 'jump on a node list renumbers', algo: 'jump', from: CACHES, to: [{ kind: 'remove', name: 'cache-3' }] },
  { label: 'maglev: remove a middle node', algo: 'maglev', from: CACHES, to: [{ kind: 'remove', name: 'cache-3' }] },
  { label: 'nginx: remove a middle node', algo: 'nginx', from: CACHES, to: [{ kind: 'remove', name: 'cache-7' }] },
  { label: 'rendezvous: remove the first node', algo: 'rendezvous', from: CACHES, to: [{ kind: 'remove', name: 'cache-1' }] },
  { label: 'ketama: add a weighted node', algo: 'ketama', from: CACHES, to: [{ kind: 'add', name: 'big', weight: 2 }] },
  { label: 'groupcache replicas=3: add a node', algo: { name: 'groupcache', options: { replicas: 3 } }, from: CACHES, to: [{ kind: 'add', name: 'cache 11' }] },
  { label: 'ketama: reweight', algo: 'ketama', from: CACHES, to: [{ kind: 'reweight', name: 'cache-1', weight: 3 }] },
  {
    label: 'envoy-ring: weighted list, reweight then add',
    algo: 'envoy-ring',
    from: configTopology('servers4_weighted'),
    to: [{ kind: 'reweight', name: '10.0.1.1:11211', weight: 5 }, { kind: 'add', name: '10.0.1.9:11211', weight: 3 }],
  },
  {
    label: 'memento: a chain of edits after removals',
    algo: 'memento',
    from: { ...LETTERS(5), edits: [{ kind: 'remove', name: 'b' }, { kind: 'remove', name: 'd' }] },
    to: [{ kind: 'add', name: 'f' }, { kind: 'add', name: 'g' }, { kind: 'remove', name: 'a' }],
  },
  {
    label: 'memento-java hash=md5: remove, remove, add, remove',
    algo: 'memento-java hash=md5',
    from: LETTERS(10),
    to: [{ kind: 'remove', name: 'c' }, { kind: 'remove', name: 'h' }, { kind: 'add', name: 'x' }, { kind: 'remove', name: 'a' }],
  },
  { label: 'rendezvous: bucket counts 10 -> 12', algo: 'rendezvous', from: 10, to: 12 },
  { label: 'memento: bucket counts 12 -> 7', algo: 'memento', from: { kind: 'count', n: 12 }, to: { kind: 'count', n: 7 } },
];

/** The interpreter's MOVED output for a scenario. */
function cliMoved({ algo, from, to }) {
  if (typeof to === 'number' || !Array.isArray(to)) {
    const n = (t) => (typeof t === 'number' ? t : t.n);
    return runOk([algoLine(algo), `KEYS ${SPEC}`, `MOVED ${n(from)} ${n(to)}`]);
  }
  return runOk([algoLine(algo), ...topologyScript(from), `KEYS ${SPEC}`, `MOVED ${to.map(editToken).join(' ')}`]);
}

/** The node list after `changes`, for algorithms that keep no history (what a fresh NODES would list). */
function applied(topology, changes) {
  const nodes = topology.nodes.map((node) => ({ name: node.name, weight: node.weight ?? 1 }));
  for (const change of [...(topology.edits ?? []), ...changes]) {
    const at = nodes.findIndex((node) => node.name === change.name);
    if (change.kind === 'remove') nodes.splice(at, 1);
    else if (change.kind === 'add') nodes.push({ name: change.name, weight: change.weight ?? 1 });
    else nodes[at].weight = change.weight;
  }
  return { kind: 'nodes', nodes };
}

test('moved() on node lists prints exactly what MOVED prints, for every scenario', () => {
  for (const scenario of RESIZE_SCENARIOS) {
    const { label, algo, from, to } = scenario;
    const result = jh.moved(algo, SPEC, from, to, { sampleLimit: 1000000 });
    assert.equal(movedText(result), cliMoved(scenario), label);
    assert.equal(result.total, jh.keyCount(SPEC), label);
    assert.ok(result.moved > 0, `${label}: something moves`);
    // Sample keys parse back to their values, and land where bucket() says.
    const before = jh.cluster(algo, from);
    const after = jh.cluster(algo, Array.isArray(to) ? { ...(typeof from === 'number' ? { kind: 'count', n: from } : from), edits: [...(from.edits ?? []), ...to] } : to);
    try {
      assert.deepEqual(before.nodes, result.nodesBefore, label);
      assert.deepEqual(after.nodes, result.nodesAfter, label);
      for (const s of result.sample) {
        assert.equal(jh.parseKey(s.key).value, s.value, `${label} ${s.key}`);
        assert.equal(before.bucket(s.key), s.oldBucket, `${label} ${s.key}`);
        assert.equal(after.bucket(s.key), s.newBucket, `${label} ${s.key}`);
        assert.notEqual(result.nodesBefore[s.oldBucket].name, result.nodesAfter[s.newBucket].name, `${label} ${s.key}`);
      }
    } finally {
      before.dispose();
      after.dispose();
    }
    // Flows: rows sum to the loads before, columns to the loads after, and
    // the keys between differently named nodes are the moved ones.
    assert.ok(result.flows instanceof Float64Array, label);
    assert.equal(result.flows.length, result.from * result.to);
    assert.equal(result.loadsBefore.length, result.from);
    assert.equal(result.loadsAfter.length, result.to);
    let moved = 0;
    const columns = new Float64Array(result.to);
    for (let a = 0; a < result.from; ++a) {
      let row = 0;
      for (let b = 0; b < result.to; ++b) {
        const cell = result.flows[a * result.to + b];
        row += cell;
        columns[b] += cell;
        if (result.nodesBefore[a].name !== result.nodesAfter[b].name) moved += cell;
      }
      assert.equal(row, result.loadsBefore[a], `${label}: row ${a}`);
    }
    assert.deepEqual(columns, result.loadsAfter, label);
    assert.equal(moved, result.moved, label);
  }
});

test('moved(): the loads before and after are what LOAD prints before and after the edits', () => {
  for (const { label, algo, from, to } of RESIZE_SCENARIOS) {
    const result = jh.moved(algo, SPEC, from, to, { sampleLimit: 0 });
    assert.deepEqual(result.sample, [], label);
    const loadsBefore = loadLines(runOk([algoLine(algo), ...topologyScript(from), `KEYS ${SPEC}`, 'LOAD']));
    assert.deepEqual(loadsBefore, result.nodesBefore.map((node, i) => [node.name, result.loadsBefore[i]]), label);
    // The interpreter reaches the list after by REMOVE/ADD (memento keeps its
    // history), by a fresh NODES list (a reweight), or by a bucket count.
    let afterScript;
    if (!Array.isArray(to)) afterScript = topologyScript(to);
    else if (to.some((change) => change.kind === 'reweight')) afterScript = topologyScript(applied(from, to));
    else afterScript = topologyScript({ ...from, edits: [...(from.edits ?? []), ...to] });
    const loadsAfter = loadLines(runOk([algoLine(algo), ...afterScript, `KEYS ${SPEC}`, 'LOAD']));
    assert.deepEqual(loadsAfter, result.nodesAfter.map((node, i) => [node.name, result.loadsAfter[i]]), label);
  }
});

test('moved(): the list after as a topology equals the same list reached by changes (algorithms without history)', () => {
  for (const { label, algo, from, to } of RESIZE_SCENARIOS) {
    if (!Array.isArray(to) || String(algo).startsWith('memento')) continue;
    const byChanges = jh.moved(algo, SPEC, from, to, { sampleLimit: 1000000 });
    const byTopology = jh.moved(algo, SPEC, from, applied(from, to), { sampleLimit: 1000000 });
    assert.deepEqual(byTopology, byChanges, label);
  }
});

test('moved(): minimumMovedExpected is the share the changed nodes lose', () => {
  const total = jh.keyCount(SPEC);
  // One of ten equal nodes leaves: a tenth of the keys must move, whatever the algorithm.
  for (const algo of ['ketama', 'jump', 'maglev', 'rendezvous']) {
    const result = jh.moved(algo, SPEC, CACHES, [{ kind: 'remove', name: 'cache-3' }]);
    assert.ok(Math.abs(result.minimumMovedExpected - total / 10) < 1e-6, `${algo}: ${result.minimumMovedExpected}`);
  }
  // ketama honours weights: node 4 of servers4_weighted holds 4/10 of the weight.
  const weighted = jh.moved('ketama', SPEC, configTopology('servers4_weighted'), [{ kind: 'remove', name: '10.0.1.4:11211' }]);
  assert.ok(Math.abs(weighted.minimumMovedExpected - total * 0.4) < 1e-6, `${weighted.minimumMovedExpected}`);
});

test('startResize(): chunked steps give the result moved() gives', () => {
  for (const { label, algo, from, to } of RESIZE_SCENARIOS.slice(0, 4).concat(RESIZE_SCENARIOS.slice(-4))) {
    const whole = jh.moved(algo, SPEC, from, to, { sampleLimit: 1000000 });
    const job = jh.startResize(algo, SPEC, from, to, { sampleLimit: 1000000 });
    try {
      assert.equal(job.total, whole.total);
      let steps = 0;
      while (!job.step(317)) ++steps;
      assert.ok(steps >= 5, `${label}: ${steps} steps`);
      assert.equal(job.done, job.total);
      assert.deepEqual(job.result(), whole, label);
    } finally {
      job.dispose();
    }
  }
});

/** Load scenarios: algo and topology. */
const LOAD_SCENARIOS = [
  { algo: 'ketama', topology: CACHES },
  { algo: 'ketama mode=plain', topology: configTopology('servers4_weighted') },
  { algo: 'nginx', topology: configTopology('nginx_4_weighted') },
  { algo: { name: 'groupcache', options: { replicas: 3 } }, topology: configTopology('servers10_port11212') },
  { algo: 'maglev table=251', topology: configTopology('servers10') },
  { algo: 'jump', topology: CACHES },
  { algo: 'memento', topology: { ...LETTERS(5), edits: [{ kind: 'remove', name: 'b' }, { kind: 'remove', name: 'd' }, { kind: 'add', name: 'f' }] } },
  { algo: 'memento-java hash=murmur3', topology: mementoTopology(10, 'r3,r7,r1,a') },
  { algo: 'rendezvous', topology: 10 },
  { algo: 'envoy-ring', topology: { kind: 'count', n: 7 } },
];

test('load() on node lists prints exactly what LOAD prints; startLoad() in chunks agrees', () => {
  for (const { algo, topology } of LOAD_SCENARIOS) {
    const label = `${JSON.stringify(algo)} on ${JSON.stringify(topology).slice(0, 80)}`;
    const result = jh.load(algo, SPEC, topology);
    const cli = typeof topology === 'number' || topology.kind === 'count'
      ? runOk([algoLine(algo), `KEYS ${SPEC}`, `LOAD ${typeof topology === 'number' ? topology : topology.n}`])
      : runOk([algoLine(algo), ...topologyScript(topology), `KEYS ${SPEC}`, 'LOAD']);
    assert.equal(loadText(result), cli, label);
    assert.equal(result.n, result.nodes.length, label);
    assert.equal(result.stats.total, jh.keyCount(SPEC), label);
    assert.ok(result.idealShares instanceof Float64Array && result.idealShares.length === result.n, label);
    assert.ok(Math.abs(result.idealShares.reduce((a, b) => a + b, 0) - 1) < 1e-9, label);
    const job = jh.startLoad(algo, SPEC, topology);
    try {
      while (!job.step(401));
      assert.deepEqual(job.result(), result, label);
    } finally {
      job.dispose();
    }
  }
  // Weights set the ideal shares of algorithms that honour them.
  const shares = jh.load('ketama', SPEC, configTopology('servers4_weighted')).idealShares;
  assert.deepEqual([...shares].map((s) => Math.round(s * 10)), [1, 2, 3, 4]);
});

// ---- algorithms() ---------------------------------------------------------------

test('algorithms(): kinds, options and limits of the node-set algorithms, accepted by ALGO', () => {
  const infos = jh.algorithms();
  const limits = jh.limits();
  assert.deepEqual(infos.map((info) => info.name), jh.language().algorithms);
  const nodeSet = infos.filter((info) => info.kind === 'node-set').map((info) => info.name);
  assert.deepEqual(nodeSet, ['ketama', 'libketama', 'nginx', 'groupcache', 'rendezvous', 'envoy-ring', 'maglev', 'memento', 'memento-java']);
  assert.ok(infos.slice(0, infos.length - nodeSet.length).every((info) => info.kind === 'bucket-count'), 'bucket-count ones first');
  for (const info of infos) {
    if (info.kind === 'node-set') {
      assert.deepEqual(info.limits, { maxBuckets: limits.maxNodes, maxTrace: 0 }, info.name);
    } else {
      assert.deepEqual(info.options, [], info.name);
      assert.equal(info.limits.maxBuckets, 2147483647, info.name);
    }
    // Every option's default is accepted by ALGO and by the API, and is the default.
    for (const option of info.options) {
      const assignment = `${option.name}=${option.defaultValue}`;
      assert.equal(jh.run(`ALGO ${info.name} ${assignment}\n`).exitCode, 0, `${info.name} ${assignment}`);
      assert.deepEqual(jh.buckets(`${info.name} ${assignment}`, NUMERIC_KEYS, CACHES), jh.buckets(info.name, NUMERIC_KEYS, CACHES), `${info.name} ${assignment}`);
      if (option.choices.length === 0) {
        assert.ok(option.min <= Number(option.defaultValue) && Number(option.defaultValue) <= option.max, `${info.name} ${option.name}`);
      } else {
        assert.ok(option.choices.includes(option.defaultValue), `${info.name} ${option.name}`);
      }
    }
  }
  const option = (algo, name) => infos.find((info) => info.name === algo).options.find((o) => o.name === name);
  assert.deepEqual({ ...option('ketama', 'mode'), description: '' }, { name: 'mode', defaultValue: 'weighted', description: '', choices: ['weighted', 'plain'], min: 0, max: 0 });
  assert.deepEqual([option('groupcache', 'replicas').defaultValue, option('groupcache', 'replicas').min, option('groupcache', 'replicas').max], ['50', 1, 100000]);
  assert.deepEqual([option('maglev', 'table').defaultValue, option('maglev', 'table').min, option('maglev', 'table').max], ['65537', 3, 10000019]);
  assert.deepEqual(option('memento-java', 'hash').choices, ['crc32', 'md5', 'xxhash32', 'murmur3']);
  assert.ok(option('envoy-ring', 'min_ring') && option('envoy-ring', 'max_ring'));
  // Capabilities the views read.
  const info = (name) => infos.find((i) => i.name === name);
  assert.equal(info('memento').removesAnyBucket, true);
  assert.equal(info('maglev').removesAnyBucket, false);
  assert.equal(info('rendezvous').weights, false);
  assert.equal(info('ketama').weights, true);
  assert.equal(info('jump').removesAnyBucket, false);
});

// ---- errors ---------------------------------------------------------------------

/** The interpreter's message for the last line of a script that must fail there. */
function cliError(lines) {
  const { stderr, exitCode } = jh.run(`${lines.join('\n')}\n`);
  assert.equal(exitCode, 1, `expected ${JSON.stringify(lines)} to fail`);
  assert.match(stderr, new RegExp(`^line ${lines.length}: error: `), stderr);
  return cliMessage(stderr);
}

function throwsRange(fn, message, label) {
  assert.throws(fn, (error) => {
    assert.equal(error.constructor, RangeError, `${label}: ${error}`);
    assert.equal(error.message, message, label);
    return true;
  }, label);
}

const nodesOf = (...nodes) => ({ kind: 'nodes', nodes: nodes.map((node) => (typeof node === 'string' ? { name: node } : node)) });

/** Every way a topology reaches the core: cluster, bucket, buckets, load, startLoad, moved, startResize. */
function everyEntry(algo, topology) {
  return [
    ['cluster', () => jh.cluster(algo, topology)],
    ['bucket', () => jh.bucket(algo, '"k"', topology)],
    ['buckets', () => jh.buckets(algo, NUMERIC_KEYS, topology)],
    ['load', () => jh.load(algo, '0..9', topology)],
    ['startLoad', () => jh.startLoad(algo, '0..9', topology)],
    ['moved from', () => jh.moved(algo, '0..9', topology, 3)],
    ['moved to', () => jh.moved(algo, '0..9', 3, topology)],
    ['startResize', () => jh.startResize(algo, '0..9', topology, [])],
  ];
}

test('bad node lists: a RangeError with the CLI NODES message, from every entry', () => {
  const cases = [
    ['a control character', nodesOf('a\u0001b', 'c'), ['NODES "a\u0001b" c']],
    ['a DEL in a name', nodesOf('x\u007fy'), ['NODES "x\u007fy"']],
    ['an empty name', nodesOf('', 'c'), ['NODES "" c']],
    ['a name of 1025 bytes', nodesOf('é'.repeat(512) + 'x'), [`NODES ${'é'.repeat(512)}x`]],
    ['a duplicate', nodesOf('a', { name: 'a', weight: 2 }), ['NODES a a*2']],
    ['a duplicate with a space', nodesOf('a b', 'a b'), ['NODES "a b" "a b"']],
    ['weight 0', nodesOf({ name: 'a', weight: 0 }), ['NODES a*0']],
    ['weight 1.5', nodesOf('b', { name: 'a', weight: 1.5 }), ['NODES b a*1.5']],
    ['weight 1000001', nodesOf({ name: 'a', weight: 1000001 }), ['NODES a*1000001']],
    ['weight -1', nodesOf({ name: 'a', weight: -1 }), ['NODES a*-1']],
    ['too many nodes', nodesOf(...Array.from({ length: 100001 }, (_, i) => `n${i}`)), [`NODES ${Array.from({ length: 100001 }, (_, i) => `n${i}`).join(' ')}`]],
  ];
  for (const [label, topology, script] of cases) {
    const message = cliError(['ALGO ketama', ...script]);
    for (const [entry, fn] of everyEntry('ketama', topology)) throwsRange(fn, message, `${label} (${entry})`);
  }
  // A name of exactly 1024 bytes is fine.
  const longest = jh.cluster('ketama', nodesOf('é'.repeat(512)));
  assert.equal(longest.nodes[0].name, 'é'.repeat(512));
  longest.dispose();
});

test('bad options and too many points: a RangeError with the CLI ALGO/placement message', () => {
  const cases = [
    ['maglev table=100', { name: 'maglev', options: { table: 100 } }, nodesOf('a', 'b'), ['ALGO maglev table=100']],
    ['maglev table=7 < 10 nodes', 'maglev table=7', CACHES, ['ALGO maglev table=7', topologyScript(CACHES)[0], 'HASH "k"']],
    ['ketama mode=fast', 'ketama mode=fast', CACHES, ['ALGO ketama mode=fast']],
    ['groupcache replicas=0', { name: 'groupcache', options: { replicas: 0 } }, CACHES, ['ALGO groupcache replicas=0']],
    ['memento-java hash=sha1', 'memento-java hash=sha1', CACHES, ['ALGO memento-java hash=sha1']],
    ['an unknown option', 'maglev size=7', CACHES, ['ALGO maglev size=7']],
    ['an option of a bucket-count algorithm', 'jump mode=plain', CACHES, ['ALGO jump mode=plain']],
    ['envoy-ring min_ring > max_ring', 'envoy-ring min_ring=2048 max_ring=1024', CACHES, ['ALGO envoy-ring min_ring=2048 max_ring=1024', topologyScript(CACHES)[0], 'HASH "k"']],
    ['nginx with huge weights', 'nginx', nodesOf({ name: 'big', weight: 1000000 }, 'small'), ['ALGO nginx', 'NODES big*1000000 small', 'HASH "k"']],
    ['groupcache with too many points', 'groupcache replicas=100000', nodesOf(...Array.from({ length: 168 }, (_, i) => String(i))), ['ALGO groupcache replicas=100000', 'NODES 168', 'HASH "k"']],
  ];
  for (const [label, algo, topology, script] of cases) {
    // "NODES 168" above stands for the numbered list; build it in full.
    const lines = script.map((line) => (line === 'NODES 168' ? topologyScript(168)[0] : line));
    const message = cliError(lines);
    for (const [entry, fn] of everyEntry(algo, topology)) throwsRange(fn, message, `${label} (${entry})`);
  }
});

test('bad changes: unknown node, a name already listed, the last node, bad weights', () => {
  const abc = nodesOf('a', 'b', 'c');
  // Applying a change to the list: the CLI's REMOVE/ADD message (MOVED adds
  // "MOVED <edit>: " before the same words).
  const applyCases = [
    ['remove an unknown node', abc, { kind: 'remove', name: 'nope' }, ['REMOVE nope'], 'MOVED -nope'],
    ['reweight an unknown node', abc, { kind: 'reweight', name: 'x', weight: 2 }, null, 'MOVED =x*2'],
    ['add a listed name', abc, { kind: 'add', name: 'a' }, ['ADD a'], 'MOVED +a'],
    ['remove the last node', nodesOf('a'), { kind: 'remove', name: 'a' }, ['REMOVE a'], 'MOVED -a'],
    ['an unknown name with a space', nodesOf('a b', 'c'), { kind: 'remove', name: 'x y' }, ['REMOVE "x y"'], 'MOVED -"x y"'],
  ];
  for (const [label, topology, change, edit, moved] of applyCases) {
    const setup = ['ALGO ketama', ...topologyScript(topology)];
    const viaMoved = cliError([...setup, 'KEYS 0..9', moved]);
    const prefix = `${moved}: `;
    assert.ok(viaMoved.startsWith(prefix), viaMoved);
    const message = viaMoved.slice(prefix.length);
    if (edit) assert.equal(cliError([...setup, ...edit]), message, label);
    throwsRange(() => jh.moved('ketama', '0..9', topology, [change]), message, `${label} (moved)`);
    throwsRange(() => jh.startResize('ketama', '0..9', topology, [change]), message, `${label} (startResize)`);
    for (const [entry, fn] of everyEntry('ketama', { ...topology, edits: [change] })) throwsRange(fn, message, `${label} (${entry}, edits)`);
  }
  // A remove after the list has been emptied down to one by earlier edits.
  throwsRange(
    () => jh.moved('memento', '0..9', abc, [{ kind: 'remove', name: 'a' }, { kind: 'remove', name: 'c' }, { kind: 'remove', name: 'b' }]),
    cliError(['ALGO memento', 'NODES a b c', 'REMOVE a', 'REMOVE c', 'REMOVE b']),
    'remove the last node after a chain',
  );
  // A bad weight in a change: MOVED's message for the same edit.
  const weightCases = [
    [{ kind: 'add', name: 'd', weight: 1000001 }, '+d*1000001'],
    [{ kind: 'add', name: 'd', weight: 0 }, '+d*0'],
    [{ kind: 'reweight', name: 'a', weight: 0 }, '=a*0'],
    [{ kind: 'reweight', name: 'a', weight: 1.5 }, '=a*1.5'],
    [{ kind: 'add', name: '' }, '+""'],
    [{ kind: 'add', name: 'x\ty' }, '+"x\ty"'],
  ];
  for (const [change, edit] of weightCases) {
    const message = cliError(['ALGO ketama', 'NODES a b c', 'KEYS 0..9', `MOVED ${edit}`]);
    throwsRange(() => jh.moved('ketama', '0..9', abc, [change]), message, edit);
    throwsRange(() => jh.cluster('ketama', { ...abc, edits: [change] }), message, `${edit} (edits)`);
  }
});

/** [label, what was thrown or returned] for each call that does not throw RangeError(message). */
function rangeMismatches(cases) {
  const wrong = [];
  for (const [label, call, message] of cases) {
    try {
      call();
      wrong.push([label, 'no error', message]);
    } catch (error) {
      if (error.constructor !== RangeError || error.message !== message) wrong.push([label, `${error.name}: ${error.message}`, message]);
    }
  }
  return wrong;
}

test('bucket counts under a node-set algorithm: the CLI message for the same count', () => {
  const load = (n) => cliError(['ALGO ketama', 'KEYS 0..9', `LOAD ${n}`]).replace(/^LOAD /, 'load: ');
  const wrong = rangeMismatches([
    ['bucket 100001', () => jh.bucket('ketama', 1n, 100001), cliError(['ALGO ketama', 'HASH 1 100001'])],
    ['cluster 0', () => jh.cluster('rendezvous', 0), cliError(['ALGO rendezvous', 'HASH 1 0'])],
    ['moved 10 -> 100001', () => jh.moved('ketama', '0..9', 10, 100001), cliError(['ALGO ketama', 'KEYS 0..9', 'MOVED 10 100001'])],
    ['moved 100001 -> 10', () => jh.moved('ketama', '0..9', 100001, 10), cliError(['ALGO ketama', 'KEYS 0..9', 'MOVED 100001 10'])],
    ['load 100001', () => jh.load('ketama', '0..9', 100001), load(100001)],
    ['load 0', () => jh.load('ketama', '0..9', 0), load(0)],
    ['startLoad 0', () => jh.startLoad('ketama', '0..9', 0), load(0).replace(/^load: /, 'startLoad: ')],
  ]);
  // [call, got, expected] for every call whose message differs.
  assert.deepEqual(wrong, []);
});

test('malformed topologies and changes: a TypeError that names the function', () => {
  const topologies = [
    null,
    'a b c',
    [{ name: 'a' }],
    { kind: 'ring', nodes: [{ name: 'a' }] },
    { kind: 'nodes' },
    { kind: 'nodes', nodes: 'a b' },
    { kind: 'nodes', nodes: ['a'] },
    { kind: 'nodes', nodes: [null] },
    { kind: 'nodes', nodes: [{ name: 5 }] },
    { kind: 'nodes', nodes: [{ weight: 2 }] },
    { kind: 'nodes', nodes: [{ name: 'a', weight: '2' }] },
    { kind: 'nodes', nodes: [{ name: 'a', weight: 2n }] },
    { kind: 'count', n: '3' },
    { kind: 'nodes', nodes: [{ name: 'a' }], edits: { kind: 'remove', name: 'a' } },
    { kind: 'nodes', nodes: [{ name: 'a' }, { name: 'b' }], edits: [{ kind: 'delete', name: 'a' }] },
  ];
  const entries = (topology) => [
    ['cluster', () => jh.cluster('ketama', topology)],
    ['bucket', () => jh.bucket('ketama', 1n, topology)],
    ['buckets', () => jh.buckets('ketama', NUMERIC_KEYS, topology)],
    ['load', () => jh.load('ketama', '0..9', topology)],
    ['startLoad', () => jh.startLoad('ketama', '0..9', topology)],
    ['startResize', () => jh.startResize('ketama', '0..9', 3, topology)],
    ['startResize', () => jh.startResize('ketama', '0..9', topology, [])],
  ];
  const show = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  for (const topology of topologies) {
    for (const [fn, call] of entries(topology)) {
      assert.throws(call, (error) => {
        assert.equal(error.constructor, TypeError, `${show(topology)} (${fn}): ${error}`);
        assert.ok(error.message.startsWith(`${fn}: `), error.message);
        return true;
      }, `${show(topology)} (${fn})`);
    }
  }
  const changes = [
    [null],
    ['-a'],
    [{ kind: 'delete', name: 'a' }],
    [{ name: 'a' }],
    [{ kind: 'remove' }],
    [{ kind: 'remove', name: 3 }],
    [{ kind: 'reweight', name: 'a' }],
    [{ kind: 'add', name: 'z', weight: '2' }],
  ];
  for (const list of changes) {
    for (const [fn, call] of [['startResize', () => jh.startResize('ketama', '0..9', nodesOf('a', 'b'), list)]]) {
      assert.throws(call, (error) => {
        assert.equal(error.constructor, TypeError, `${JSON.stringify(list)}: ${error}`);
        assert.ok(error.message.startsWith(`${fn}: `), error.message);
        return true;
      }, JSON.stringify(list));
    }
  }
  // A key that is a JavaScript number is a TypeError on node lists too.
  assert.throws(() => jh.bucket('ketama', 1, CACHES), TypeError);
  const cluster = jh.cluster('ketama', CACHES);
  assert.throws(() => cluster.bucket(1), TypeError);
  assert.throws(() => cluster.buckets([1n]), TypeError);
  assert.throws(() => cluster.buckets(NUMERIC_KEYS, new Int32Array(1)), RangeError);
  cluster.dispose();
  assert.throws(() => cluster.bucket(1n), /disposed/);
  cluster.dispose(); // idempotent
});

test('moved(): a TypeError for a malformed topology or change names moved', () => {
  // index.d.ts: "A wrong JavaScript type is a TypeError that names the function".
  const calls = [
    ['from', () => jh.moved('ketama', '0..9', { kind: 'nodes', nodes: 'a b' }, 3)],
    ['to', () => jh.moved('ketama', '0..9', 3, null)],
    ['change kind', () => jh.moved('ketama', '0..9', nodesOf('a', 'b'), [{ kind: 'delete', name: 'a' }])],
    ['reweight without weight', () => jh.moved('ketama', '0..9', nodesOf('a', 'b'), [{ kind: 'reweight', name: 'a' }])],
  ];
  const wrong = [];
  for (const [label, call] of calls) {
    try {
      call();
      wrong.push([label, 'no error']);
    } catch (error) {
      if (error.constructor !== TypeError || !error.message.startsWith('moved: ')) wrong.push([label, `${error.name}: ${error.message}`]);
    }
  }
  assert.deepEqual(wrong, []);
});
