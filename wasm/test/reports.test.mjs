// The structured reports (moved, load, trace and their chunked jobs) agree
// with the interpreter's text output on the same keys: two renderers of the
// same rows. Also: chunking does not change results, progress and cancel.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { asColumns, balanceInColumns, jumphash } from './helpers.mjs';

const jh = await jumphash();
const ALGORITHMS = ['jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo'];

/** "<key>: <a> -> <b>" lines and the "moved: X of Y" line of MOVED. */
function movedLines(algo, spec, from, to) {
  const { stdout, exitCode } = jh.run(`ALGO ${algo}\nKEYS ${spec}\nMOVED ${from} ${to}\n`);
  assert.equal(exitCode, 0);
  const lines = stdout.trimEnd().split('\n');
  const [, moved, total] = /^moved: (\d+) of (\d+)$/.exec(lines.pop());
  return { lines, moved: Number(moved), total: Number(total) };
}

/** LOAD n as numbers. */
function loadLines(algo, spec, n) {
  const { stdout, exitCode } = jh.run(`ALGO ${algo}\nKEYS ${spec}\nLOAD ${n}\n`);
  assert.equal(exitCode, 0);
  return stdout.trimEnd().split('\n').map((line, i) => {
    const [bucket, count] = line.split(': ').map(Number);
    assert.equal(bucket, i);
    return count;
  });
}

const SPEC = '0..4999 random:3000:11 "alice" "bob" 18446744073709551615 0xFFFFFFFF00000000';

test('moved(): counts, loads, flows and sample agree with MOVED and LOAD for every algorithm', () => {
  for (const algo of ALGORITHMS) {
    for (const [from, to] of [[10, 12], [16, 4], [7, 7], [1, 3]]) {
      const text = movedLines(algo, SPEC, from, to);
      const r = jh.moved(algo, SPEC, from, to, { sampleLimit: 1000000 });
      const label = `${algo} ${from}->${to}`;
      assert.equal(r.algorithm, algo);
      assert.equal(r.from, from);
      assert.equal(r.to, to);
      assert.equal(r.total, text.total, label);
      assert.equal(r.total, jh.keyCount(SPEC));
      assert.equal(r.moved, text.moved, label);
      assert.equal(r.sample.length, text.moved, label);
      assert.deepEqual(r.sample.map((s) => `${s.key}: ${s.oldBucket} -> ${s.newBucket}`), text.lines, label);
      for (const s of r.sample) {
        assert.equal(typeof s.value, 'bigint');
        assert.equal(s.value, jh.parseKey(s.key).value);
        assert.equal(jh.bucket(algo, s.value, from), s.oldBucket);
        assert.equal(jh.bucket(algo, s.value, to), s.newBucket);
      }
      assert.deepEqual([...r.loadsBefore], loadLines(algo, SPEC, from), label);
      assert.deepEqual([...r.loadsAfter], loadLines(algo, SPEC, to), label);
      assert.ok(r.loadsBefore instanceof Float64Array && r.flows instanceof Float64Array);
      assert.equal(r.flows.length, from * to);
      // Row sums are the loads before, column sums the loads after, the
      // off-diagonal mass is the moved count.
      let offDiagonal = 0;
      for (let a = 0; a < from; ++a) {
        let row = 0;
        for (let b = 0; b < to; ++b) {
          row += r.flows[a * to + b];
          if (a !== b) offDiagonal += r.flows[a * to + b];
        }
        assert.equal(row, r.loadsBefore[a]);
      }
      for (let b = 0; b < to; ++b) {
        let column = 0;
        for (let a = 0; a < from; ++a) column += r.flows[a * to + b];
        assert.equal(column, r.loadsAfter[b]);
      }
      assert.equal(offDiagonal, r.moved);
      assert.equal(r.flowBalance.length, from);
      r.flowBalance.forEach((fb, source) => {
        assert.equal(fb.source, source);
        let out = 0;
        for (let b = 0; b < to; ++b) if (b !== source) out += r.flows[source * to + b];
        assert.equal(fb.movedOut, out);
        assert.ok(fb.chiSquare >= 0 && Number.isInteger(fb.degreesOfFreedom));
      });
      assert.ok(Math.abs(r.minimumMovedExpected - (r.total * Math.abs(to - from)) / Math.max(from, to)) < 1e-6);
    }
  }
});

test('moved(): the sample keeps the first sampleLimit moved keys (default 100); flows null above 2^22 cells', () => {
  const text = movedLines('jump', '0..99999', 10, 12);
  assert.deepEqual(jh.moved('jump', '0..99999', 10, 12).sample.map((s) => `${s.key}: ${s.oldBucket} -> ${s.newBucket}`), text.lines.slice(0, 100));
  assert.equal(jh.moved('jump', '0..99999', 10, 12, { sampleLimit: 0 }).sample.length, 0);
  assert.equal(jh.moved('jump', '0..99999', 10, 12, { sampleLimit: 7 }).sample.length, 7);
  const big = jh.moved('jumpback', '0..9999', 3000, 2000);
  assert.equal(big.flows, null);
  assert.deepEqual(big.flowBalance, []);
  assert.equal(big.moved, movedLines('jumpback', '0..9999', 3000, 2000).moved);
  const keys = new BigUint64Array([1n, 2n ** 64n - 1n, 12345678901234567890n]);
  const before = [...jh.buckets('jumpback', keys, 100)]; // makes the batch views
  const edge = jh.moved('jumpback', '0..9', 2048, 2048); // exactly 2^22 cells: kept
  assert.equal(edge.flows.length, 2048 * 2048);
  // That grew the wasm memory (32 MiB of flows): views made before must not be stale.
  assert.deepEqual([...jh.buckets('jumpback', keys, 100)], before);
  assert.deepEqual(before, [...keys].map((k) => jh.bucket('jumpback', k, 100)));
  assert.equal(jh.bucket('jumpback', 2n ** 64n - 1n, 100), 73);
});

// The sample's keys cross from the module as one packed buffer (one decode
// when it is all ASCII, one per key otherwise): string keys may hold any
// character, a newline or a non-ASCII letter too, on bucket counts and on
// node lists alike.
test('moved(): sampled keys print as written, newlines and non-ASCII included, ASCII or not', () => {
  const written = ['"a\nb"', '5', '"é☃"', '0xFF', '"x y"', '"\\\\"', '7', '"q"'];
  const printedAs = (key) => (key.startsWith('"') ? key : String(jh.parseKey(key).value));
  for (const keys of [written, written.filter((key) => !/[^\x00-\x7F]/.test(key))]) {
    const spec = keys.join(' ');
    // modulo 1000 -> 999 moves a key unless value % 1000 == value % 999.
    const moves = (key) => { const v = jh.parseKey(key).value; return v % 1000n !== v % 999n; };
    const r = jh.moved('modulo', spec, 1000, 999, { sampleLimit: 100 });
    assert.deepEqual(r.sample.map((s) => s.key), keys.filter(moves).map(printedAs), spec);
    const nodes = jh.moved('rendezvous', spec, { kind: 'count', n: 2 }, [{ kind: 'remove', name: '0' }], { sampleLimit: 100 });
    assert.ok(nodes.sample.length > 0);
    for (const s of nodes.sample) assert.ok(keys.map(printedAs).includes(s.key), s.key);
    for (const s of [...r.sample, ...nodes.sample]) assert.equal(jh.parseKey(s.key).value, s.value, s.key);
  }
});

// resultInColumns() is result() with the sample in typed columns: the same
// report, and the text of only the keys that do not print in decimal.
test('resultInColumns(): the flow balance in columns, one buffer for the three, as result()\'s objects', () => {
  for (const [from, to] of [[10, 12], [1000, 1001], [30, 7]]) {
    const job = jh.startResize('jump', 'random:20000:4', from, to);
    try {
      while (!job.step(1 << 20));
      const objects = job.result().flowBalance;
      const { flowBalance } = job.resultInColumns({ flows: 'cells' });
      assert.equal(objects.length, from);
      assert.deepEqual(flowBalance, balanceInColumns(objects));
      if (Math.abs(to - from) > 1) assert.ok(objects.some((balance) => balance.degreesOfFreedom > 0 && balance.chiSquare > 0), `${from} -> ${to}: some source spread its keys`);
      const { movedOut, chiSquare, degreesOfFreedom } = flowBalance;
      assert.ok(movedOut.buffer === chiSquare.buffer && chiSquare.buffer === degreesOfFreedom.buffer);
      assert.equal(movedOut.buffer.byteLength, from * 3 * 8);
    } finally {
      job.dispose();
    }
  }
  // No flows kept (3000 x 2000 cells), and node lists: empty columns.
  const none = { movedOut: new Float64Array(0), chiSquare: new Float64Array(0), degreesOfFreedom: new Float64Array(0) };
  for (const start of [() => jh.startResize('jumpback', '0..9999', 3000, 2000), () => jh.startResize('ketama', '0..999', { kind: 'count', n: 3 }, [{ kind: 'remove', name: '1' }])]) {
    const job = start();
    try {
      while (!job.step(1 << 20));
      assert.deepEqual(job.result().flowBalance, []);
      assert.deepEqual(job.resultInColumns().flowBalance, none);
    } finally {
      job.dispose();
    }
  }
});

test('resultInColumns(): result() with the sample in columns, string keys labelled', () => {
  const written = ['"a\nb"', '5', '"é☃"', '0xFF', '"x y"', '"\\\\"', '7', '"q"', '18446744073709551615', 'random:2000:3'];
  const spec = written.join(' ');
  const cases = [
    () => jh.startResize('modulo', spec, 1000, 999, { sampleLimit: 100 }),
    () => jh.startResize('jump', spec, 10, 12, { sampleLimit: 5 }),
    () => jh.startResize('rendezvous', spec, { kind: 'count', n: 3 }, [{ kind: 'remove', name: '1' }], { sampleLimit: 100 }),
  ];
  for (const start of cases) {
    const job = start();
    try {
      while (!job.step(1000));
      const { sample, ...counts } = job.result();
      const columns = job.resultInColumns();
      assert.ok(columns.sample.values instanceof BigUint64Array && columns.sample.oldBuckets instanceof Int32Array);
      assert.deepEqual(columns, asColumns({ ...counts, sample }));
      assert.ok(sample.length > 0);
      if (sample.length > 5) assert.ok(columns.sample.labels.length > 0, 'string keys moved');
    } finally {
      job.dispose();
    }
  }
});

test('load(): loads equal LOAD; stats are computed from them', () => {
  for (const algo of ALGORITHMS) {
    const r = jh.load(algo, SPEC, 37);
    assert.equal(r.algorithm, algo);
    assert.equal(r.n, 37);
    assert.deepEqual([...r.loads], loadLines(algo, SPEC, 37));
    const total = r.loads.reduce((a, b) => a + b, 0);
    const mean = total / 37;
    assert.equal(r.stats.total, total);
    assert.equal(r.stats.min, Math.min(...r.loads));
    assert.equal(r.stats.max, Math.max(...r.loads));
    assert.ok(Math.abs(r.stats.mean - mean) < 1e-9);
    assert.ok(Math.abs(r.stats.maxOverMean - r.stats.max / mean) < 1e-9);
    const chi = r.loads.reduce((acc, x) => acc + ((x - mean) * (x - mean)) / mean, 0);
    assert.ok(Math.abs(r.stats.chiSquare - chi) < 1e-6 * Math.max(1, chi));
    assert.equal(r.stats.degreesOfFreedom, 36);
  }
  const empty = jh.load('jump', '', 4);
  assert.deepEqual([...empty.loads], [0, 0, 0, 0]);
  assert.equal(empty.stats.maxOverMean, 0);
});

test('trace(): rows equal TRACE, for bigint and text keys', () => {
  const cases = [
    ['jump', 42n, 800],
    ['jump', 2n ** 64n - 1n, 2147483647],
    ['jumpback', 2n ** 64n - 1n, 2147483647],
    ['jumpback', '"alice"', 1000],
    ['jumpback-indep', '0xDEADBEEF', 1000000],
    ['jump-guava', 18063469494497682072n, 2147483647],
    ['modulo', 12n, 30],
  ];
  for (const [algo, key, max] of cases) {
    const { stdout } = jh.run(`ALGO ${algo}\nTRACE ${typeof key === 'bigint' ? key.toString() : key} ${max}\n`);
    const rows = jh.trace(algo, key, max);
    assert.equal(rows.map((s) => `${s.n}: ${s.bucket}\n`).join(''), stdout, `${algo} ${key}`);
    assert.equal(rows[0].n, 1);
    assert.equal(rows[0].bucket, 0);
  }
});

test('jobs: any chunking gives the same report; done/total advance; result() before the end is partial', () => {
  const spec = 'random:25000:3 0..4999';
  const whole = jh.moved('jumpback', spec, 20, 23, { sampleLimit: 50 });
  for (const chunk of [1, 999, 4096, 30000, 1e15]) {
    const job = jh.startResize('jumpback', spec, 20, 23, { sampleLimit: 50 });
    try {
      assert.equal(job.total, 30000);
      assert.equal(job.done, 0);
      let steps = 0;
      let previous = 0;
      while (!job.step(chunk)) {
        ++steps;
        assert.ok(job.done > previous && job.done < job.total);
        previous = job.done;
        if (steps === 1 && chunk === 999) {
          const partial = job.result();
          assert.equal(partial.total, 999);
          assert.equal(partial.loadsBefore.reduce((a, b) => a + b, 0), 999);
        }
        if (chunk === 1 && steps > 50) job.step(1e15); // finish quickly
      }
      assert.equal(job.done, 30000);
      assert.deepEqual(job.result(), whole);
      assert.equal(job.step(10), true); // stepping a finished job is a no-op
      assert.deepEqual(job.result(), whole);
    } finally {
      job.dispose();
    }
  }
  const loadJob = jh.startLoad('jump', spec, 64);
  while (!loadJob.step(7000));
  assert.deepEqual(loadJob.result(), jh.load('jump', spec, 64));
  loadJob.dispose();
});

test('onProgress: called after each chunk with (done, total); returning false throws AbortError', () => {
  const calls = [];
  const r = jh.load('jump', '0..9999', 10, { chunkSize: 3000, onProgress: (done, total) => { calls.push([done, total]); } });
  assert.deepEqual(calls, [[3000, 10000], [6000, 10000], [9000, 10000], [10000, 10000]]);
  assert.equal(r.stats.total, 10000);

  const seen = [];
  assert.throws(
    () => jh.moved('jump', '0..9999', 10, 12, { chunkSize: 1000, onProgress: (done) => { seen.push(done); return done < 3000; } }),
    (error) => error instanceof DOMException && error.name === 'AbortError',
  );
  assert.deepEqual(seen, [1000, 2000, 3000]);
  // true / undefined continue; a false after the last chunk has nothing left to cancel.
  assert.equal(jh.moved('jump', '0..9999', 10, 12, { chunkSize: 5000, onProgress: () => true }).total, 10000);
  assert.equal(jh.moved('jump', '0..9999', 10, 12, { chunkSize: 20000, onProgress: () => false }).total, 10000);
});

test('keyCount and parseKey', () => {
  assert.equal(jh.keyCount('0..9999 random:100:7 "alice"'), 10101);
  assert.equal(jh.keyCount(''), 0);
  assert.equal(jh.keyCount('0..999999999'), 1e9);
  assert.deepEqual(jh.parseKey('0xFFFFFFFFFFFFFFFF'), { value: 2n ** 64n - 1n, label: '18446744073709551615' });
  assert.deepEqual(jh.parseKey('18446744073709551615'), { value: 2n ** 64n - 1n, label: '18446744073709551615' });
  assert.deepEqual(jh.parseKey('007'), { value: 7n, label: '7' });
  const alice = jh.parseKey('"alice"');
  assert.equal(alice.label, '"alice"');
  assert.equal(jh.run('HASH "alice" 1000\n').stdout, `"alice": ${jh.bucket('jump', alice.value, 1000)}\n`);
  const escaped = jh.parseKey('"caf\u00e9 \\"q\\" \\\\"');
  assert.equal(escaped.label, '"caf\u00e9 \\"q\\" \\\\"');
  assert.equal(jh.bucket('jumpback', escaped.value, 99), jh.bucket('jumpback', '"caf\u00e9 \\"q\\" \\\\"', 99));
});

test('algorithms(): the core registry with kinds, capabilities, options and limits, fresh objects each call', () => {
  const list = jh.algorithms();
  const names = list.map((a) => a.name);
  assert.deepEqual(names.slice(0, ALGORITHMS.length), ALGORITHMS);
  assert.deepEqual(names, jh.language().algorithms);
  for (const a of list) {
    assert.deepEqual(Object.keys(a).sort(), ['consistent', 'expectedCost', 'kind', 'limits', 'memory', 'name', 'options',
      'paper', 'removesAnyBucket', 'title', 'weights']);
    assert.ok(a.title.length > 0 && a.paper.length > 0 && a.expectedCost.length > 0 && a.memory.length > 0);
    assert.equal(a.kind, ALGORITHMS.includes(a.name) ? 'bucket-count' : 'node-set', a.name);
    assert.equal(a.limits.maxBuckets, a.kind === 'bucket-count' ? 2147483647 : 100000, a.name);
  }
  const byName = Object.fromEntries(list.map((a) => [a.name, a]));
  assert.equal(byName.modulo.consistent, false);
  assert.equal(byName.jump.consistent, true);
  assert.equal(byName.modulo.limits.maxTrace, 1000000);
  assert.equal(byName.jump.limits.maxTrace, 2147483647);
  assert.equal(byName.ketama.limits.maxTrace, 0);
  // Capabilities as the core's registry states them.
  assert.equal(byName.ketama.removesAnyBucket, false);
  assert.equal(byName.memento.removesAnyBucket, true);
  assert.equal(byName.rendezvous.removesAnyBucket, true);
  assert.equal(byName.jump.removesAnyBucket, false);
  assert.equal(byName.nginx.weights, true);
  assert.equal(byName.jump.weights, false);
  assert.deepEqual(byName.jump.options, []);
  const table = byName.maglev.options.find((o) => o.name === 'table');
  assert.equal(table.defaultValue, '65537');
  assert.deepEqual(table.choices, []);
  assert.ok(table.min > 0 && table.max >= 65537, JSON.stringify(table));
  const hash = byName['memento-java'].options.find((o) => o.name === 'hash');
  assert.deepEqual(hash.choices.map((c) => c.toLowerCase()).sort(), ['crc32', 'md5', 'murmur3', 'xxhash32']);
  // Fresh objects: changing one changes nothing the next call returns.
  list[0].name = 'changed';
  list[0].limits.maxBuckets = 1;
  table.choices.push('x');
  assert.equal(jh.algorithms()[0].name, 'jump');
  assert.equal(jh.algorithms()[0].limits.maxBuckets, 2147483647);
  // The interpreter accepts exactly these names.
  for (const a of jh.algorithms()) assert.equal(jh.run(`ALGO ${a.name}\n`).exitCode, 0);
});

test('limits(): the core\'s table', () => {
  const { table, ...named } = jh.limits();
  assert.deepEqual(named, {
    maxBuckets: 2147483647, maxLoadBuckets: 1000000, maxModuloTrace: 1000000, maxKeysPerSet: 1000000000,
    maxNodes: 100000, maxNodeWeight: 1000000, maxNodeNameBytes: 1024, maxPlacementPoints: 16777216, maxFlowCells: 4194304,
    maxCheckedLines: 1000000, maxCheckOutputBytes: 67108864, maxScriptBytes: 67108864, maxRunOutputBytes: 67108864,
    maxStreamOutputBytes: 268435456, maxEmbedLookups: 10000000, maxLinkFieldChars: 1000000,
    maxLinkChars: 2000000, maxPastedListChars: 67108864,
  });
  // The whole table, row for row as the README's Limits section states it.
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split('\n## Limits\n')[1].split('\n## ')[0];
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [name, value, unit, bounds, enforcedBy] = line.slice(2, -2).split(' | ');
      return { name: name.replaceAll('`', ''), value: Number(value), unit, bounds, enforcedBy };
    });
  assert.equal(rows.length, 18);
  assert.deepEqual(table.map((row) => ({ ...row })), rows);
  assert.ok(Object.isFrozen(table) && Object.isFrozen(table[0]));
});

test('language(): the commands and every algorithm name, from the core', () => {
  const words = jh.language();
  assert.deepEqual(words.commands, ['ALGO', 'HASH', 'KEYS', 'BUCKETS', 'MOVED', 'LOAD', 'TRACE', 'NODES', 'REMOVE', 'ADD']);
  // The bucket-count algorithms first, as algorithms() lists them, then the node-set ones.
  assert.deepEqual(words.algorithms.slice(0, ALGORITHMS.length), ALGORITHMS);
  assert.deepEqual(words.algorithms.slice(ALGORITHMS.length),
    ['ketama', 'libketama', 'nginx', 'groupcache', 'rendezvous', 'envoy-ring', 'maglev', 'memento', 'memento-java']);
  // run() accepts every command and every algorithm named there.
  for (const name of words.algorithms) assert.equal(jh.run(`ALGO ${name}\n`).exitCode, 0, name);
  const unknown = jh.run('FROB\n').stderr;
  for (const command of words.commands) assert.ok(unknown.includes(command), command);
});

test('version is the package version', async () => {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(jh.version, pkg.version);
});
