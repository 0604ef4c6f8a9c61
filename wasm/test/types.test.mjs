// Keeps the hand-written index.d.ts honest:
//   - tsc type-checks test/types/usage.ts (every export called with the
//     declared types; misuse marked @ts-expect-error must not compile);
//   - the same file compiled and run, so the declared types match what the
//     module really returns;
//   - every runtime export and every member of each returned object is
//     declared, and every declared member exists at runtime.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import * as packageExports from 'jumphash-wasm';
import { loadChecker, loadClaims } from 'jumphash-wasm';

import { jumphash, packageDir } from './helpers.mjs';

const jh = await jumphash();
const dts = readFileSync(path.join(packageDir, 'src/index.d.ts'), 'utf8');
const tsconfig = path.join(packageDir, 'test/types/tsconfig.json');

function tscPath() {
  const pkg = fileURLToPath(import.meta.resolve('typescript/package.json'));
  return path.join(path.dirname(pkg), JSON.parse(readFileSync(pkg, 'utf8')).bin.tsc);
}

function tsc(...args) {
  const result = spawnSync(process.execPath, [tscPath(), ...args], { encoding: 'utf8' });
  assert.equal(result.status, 0, `tsc ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
}

/** Member names declared in `export interface <name> { ... }` (own members only). */
function declaredMembers(name) {
  const match = new RegExp(`export interface ${name}(?:<[^>]*>)?(?: extends [^{]*)? \\{\\n([\\s\\S]*?)\\n\\}`).exec(dts);
  assert.ok(match, `interface ${name} not found in index.d.ts`);
  const members = new Set();
  for (const line of match[1].split('\n')) {
    const m = /^ {2}(?:readonly )?(?:get )?([A-Za-z_]\w*)\??[(:<]/.exec(line);
    if (m) members.add(m[1]);
  }
  return members;
}

/** Own property names of a runtime object, getters included. */
const runtimeMembers = (object) => new Set(Object.keys(object));

test('tsc --noEmit accepts usage.ts (and rejects each marked misuse)', () => {
  tsc('-p', tsconfig);
});

test('usage.ts compiled and run: the declared types are what the module returns', async () => {
  const outDir = path.join(packageDir, 'dist/test-types');
  rmSync(outDir, { recursive: true, force: true });
  tsc('-p', tsconfig, '--noEmit', 'false', '--outDir', outDir);
  const usage = await import(pathToFileURL(path.join(outDir, 'usage.js')).href);
  const done = await usage.exercise();
  // It exercised every member of Jumphash, of Checker and of Claims.
  assert.deepEqual(new Set(done), new Set([...declaredMembers('Jumphash'),
                                           ...[...declaredMembers('Checker')].map((m) => `checker.${m}`),
                                           ...[...declaredMembers('Claims')].map((m) => `claims.${m}`)]));
});

test('every runtime export of the package is declared, and only those', () => {
  const declared = new Set([...dts.matchAll(/^export (?:declare )?(?:async )?(?:function|const|class|let) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual(new Set(Object.keys(packageExports)), declared);
  assert.deepEqual([...declared].sort(), ['loadChecker', 'loadClaims', 'loadJumphash']);
});

test('every member of the returned objects is declared, and every declared member exists', async () => {
  const resize = jh.moved('jump', '0..99', 4, 5);
  const load = jh.load('jump', '0..99', 4);
  const job = jh.startLoad('jump', '0..9', 3);
  const cluster = jh.cluster('ketama', { kind: 'nodes', nodes: [{ name: 'a' }] });
  const checker = await loadChecker();
  const checked = checker.check('HASH 42 100\nHASH 1 2\n', '42: 42\n1: 0\n');
  const claims = await loadClaims();
  const claimRun = claims.run('jump-key-42-history');
  try {
    const cases = [
      ['Jumphash', jh],
      ['Job', job],
      ['AlgorithmInfo', jh.algorithms()[0]],
      ['OptionInfo', jh.algorithms().find((a) => a.name === 'maglev').options[0]],
      ['AlgorithmLimits', jh.algorithms()[0].limits],
      ['Limits', jh.limits()],
      ['Cluster', cluster],
      ['ClusterNode', cluster.nodes[0]],
      ['LanguageWords', jh.language()],
      ['ParsedKey', jh.parseKey('1')],
      ['ScriptResult', jh.run('HASH 1 2\n')],
      ['ResizeResult', resize],
      ['FlowBalance', resize.flowBalance[0]],
      ['MovedKeySample', resize.sample[0]],
      ['LoadResult', load],
      ['LoadStats', load.stats],
      ['TraceStep', jh.trace('jump', 1n, 10)[0]],
      ['Checker', checker],
      ['CheckResult', checked],
      ['CheckLine', checked.lines[0]],
      ['CheckDiagnosis', checked.lines[0].diagnoses[0]],
      ['Claims', claims],
      ['ClaimInfo', claims.list()[0]],
      ['ClaimResult', claimRun],
      ['ClaimChart', claimRun.chart],
      ['ClaimSeries', claimRun.chart.series[0]],
    ];
    for (const [name, object] of cases) {
      assert.ok(object, `no ${name} sample`);
      assert.deepEqual(runtimeMembers(object), declaredMembers(name), name);
    }
  } finally {
    job.dispose();
    cluster.dispose();
  }
  // Every function member is a function, every other one is not.
  for (const name of declaredMembers('Jumphash')) {
    const isMethod = new RegExp(`^ {2}${name}\\(`, 'm').test(dts);
    assert.equal(typeof jh[name] === 'function', isMethod, name);
  }
});

test('every export and interface member has a doc comment', () => {
  const lines = dts.split('\n');
  const undocumented = [];
  lines.forEach((line, i) => {
    if (/^(export |  (readonly )?[A-Za-z_]\w*\??[(:<])/.test(line)) {
      let j = i - 1;
      while (j >= 0 && lines[j].trim().startsWith('@')) j -= 1;
      if (!lines[j].trim().endsWith('*/')) undocumented.push(line.trim());
    }
  });
  assert.deepEqual(undocumented, []);
});
