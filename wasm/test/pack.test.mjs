// `npm pack` of the package installs into an empty folder, and there
// `await loadJumphash()` works in Node with no options, and its types resolve.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { packageDir } from './helpers.mjs';

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

test('npm pack -> npm install in an empty folder -> loadJumphash() works there', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'jumphash-pack-'));
  try {
    const packDir = path.join(work, 'pack');
    const appDir = path.join(work, 'app');
    run('mkdir', ['-p', packDir, appDir], work);
    run('npm', ['pack', '--pack-destination', packDir], packageDir);
    const [tarball] = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote no tarball');
    const listing = run('tar', ['-tzf', path.join(packDir, tarball)], work).split('\n').filter(Boolean).sort();
    assert.deepEqual(listing, [
      'package/LICENSE',
      'package/README.md',
      'package/dist/jumphash_checker_wasm.inline.mjs',
      'package/dist/jumphash_checker_wasm.mjs',
      'package/dist/jumphash_checker_wasm.wasm',
      'package/dist/jumphash_claims_wasm.inline.mjs',
      'package/dist/jumphash_claims_wasm.mjs',
      'package/dist/jumphash_claims_wasm.wasm',
      'package/dist/jumphash_wasm.inline.mjs',
      'package/dist/jumphash_wasm.mjs',
      'package/dist/jumphash_wasm.wasm',
      'package/package.json',
      'package/src/api.js',
      'package/src/checker.js',
      'package/src/checkerApi.js',
      'package/src/claimsApi.js',
      'package/src/index.d.ts',
      'package/src/index.js',
      'package/src/inline.js',
      'package/src/loadClaims.js',
      'package/src/wasm.d.ts',
    ]);

    writeFileSync(path.join(appDir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(packDir, tarball)], appDir);
    writeFileSync(path.join(appDir, 'main.js'), `
      import { loadChecker, loadJumphash } from 'jumphash-wasm';
      const jh = await loadJumphash();
      const checker = await loadChecker();
      const max = 18446744073709551615n;
      console.log(JSON.stringify({
        checked: checker.check('HASH 42 100\\n', '42: 43\\n').allMatch,
        jumpback: jh.bucket('jumpback', max, 100),
        jump: [...jh.buckets('jump', new BigUint64Array([max]), 100)],
        run: jh.run('HASH 42 100\\n'),
      }));
    `);
    const out = JSON.parse(run(process.execPath, ['main.js'], appDir));
    assert.equal(out.checked, true);
    assert.equal(out.jumpback, 73);
    assert.deepEqual(out.jump, [92]);
    assert.equal(out.run.exitCode, 0);
    assert.match(out.run.stdout, /^42: \d+\n$/);

    // The types resolve from the installed package.
    writeFileSync(path.join(appDir, 'check.ts'), `
      import { loadJumphash, type Jumphash } from 'jumphash-wasm';
      const jh: Jumphash = await loadJumphash();
      const b: number = jh.bucket('jump', 1n, 10);
      export { b };
    `);
    writeFileSync(path.join(appDir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', lib: ['es2022'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] },
      files: ['check.ts'],
    }));
    const tscPackage = fileURLToPath(import.meta.resolve('typescript/package.json'));
    run(process.execPath, [path.join(path.dirname(tscPackage), 'bin/tsc'), '-p', 'tsconfig.json'], appDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
