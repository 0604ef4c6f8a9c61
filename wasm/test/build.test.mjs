// The built JavaScript runs under a strict Content-Security-Policy: no
// `new Function(` and no `eval(` anywhere in what the package ships.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { packageDir } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));

test('the package files exist (build first: cmake --preset wasm && cmake --build --preset wasm)', () => {
  for (const file of pkg.files) assert.ok(existsSync(path.join(packageDir, file)), `missing ${file}`);
});

test('no new Function( and no eval( in the shipped JavaScript', () => {
  const scripts = pkg.files.filter((f) => /\.(m?js)$/.test(f));
  assert.deepEqual(scripts.sort(), [
    'dist/jumphash_checker_wasm.inline.mjs', 'dist/jumphash_checker_wasm.mjs',
    'dist/jumphash_claims_wasm.inline.mjs', 'dist/jumphash_claims_wasm.mjs',
    'dist/jumphash_wasm.inline.mjs', 'dist/jumphash_wasm.mjs',
    'src/api.js', 'src/checker.js', 'src/checkerApi.js', 'src/claimsApi.js', 'src/index.js', 'src/inline.js', 'src/loadClaims.js',
  ]);
  for (const file of scripts) {
    const text = readFileSync(path.join(packageDir, file), 'utf8');
    assert.ok(text.length > 500, `${file} looks empty`);
    assert.equal(text.includes('new Function('), false, `${file} contains new Function(`);
    assert.equal(/\beval\(/.test(text), false, `${file} contains eval(`);
  }
});

test('import.meta only as new URL("../dist/<file>.wasm", import.meta.url), once per .wasm', () => {
  // Any other use makes webpack embed the build machine's absolute path, and
  // a dynamic import of a Node module makes it warn; both are checked in
  // consumers.test.mjs, this is the quick check.
  const uses = [];
  for (const file of pkg.files.filter((f) => /\.(m?js)$/.test(f))) {
    // Code only: without line comments and template literals (messages).
    const text = readFileSync(path.join(packageDir, file), 'utf8').replace(/^\s*\/\/.*$/gm, '').replace(/`[^`]*`/g, '``');
    for (const m of text.matchAll(/^.*import\.meta.*$/gm)) uses.push(`${file}: ${m[0].trim()}`);
    assert.equal(/\bimport\(\s*[^'"\s]/.test(text), false, `${file} has an import() of a computed name`);
  }
  assert.deepEqual(uses.sort(), [
    "src/checker.js: url: () => new URL('../dist/jumphash_checker_wasm.wasm', import.meta.url),",
    "src/index.js: url: () => new URL('../dist/jumphash_wasm.wasm', import.meta.url),",
    "src/loadClaims.js: url: () => new URL('../dist/jumphash_claims_wasm.wasm', import.meta.url),",
  ]);
});

for (const module of ['jumphash_wasm', 'jumphash_checker_wasm', 'jumphash_claims_wasm']) {
  test(`${module}.wasm is a WebAssembly binary, and ${module}.inline.mjs holds the same bytes`, async () => {
    const wasm = readFileSync(path.join(packageDir, `dist/${module}.wasm`));
    assert.deepEqual([...wasm.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
    assert.ok(WebAssembly.validate(wasm));
    const { default: base64 } = await import(`../dist/${module}.inline.mjs`);
    assert.ok(Buffer.from(base64, 'base64').equals(wasm), `dist/${module}.inline.mjs is not dist/${module}.wasm (rebuild)`);
  });
}

test('LICENSE: the package\'s is the repository\'s (MIT)', () => {
  const license = readFileSync(path.join(packageDir, 'LICENSE'), 'utf8');
  assert.equal(license, readFileSync(path.join(packageDir, '../LICENSE'), 'utf8'));
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 the jumphash authors\n/);
  assert.equal(pkg.license, 'MIT');
});
