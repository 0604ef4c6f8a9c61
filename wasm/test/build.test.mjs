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
  assert.deepEqual(scripts.sort(), ['dist/jumphash_checker_wasm.mjs', 'dist/jumphash_wasm.mjs', 'src/index.js']);
  for (const file of scripts) {
    const text = readFileSync(path.join(packageDir, file), 'utf8');
    assert.ok(text.length > 1000, `${file} looks empty`);
    assert.equal(text.includes('new Function('), false, `${file} contains new Function(`);
    assert.equal(/\beval\(/.test(text), false, `${file} contains eval(`);
  }
});

for (const module of ['jumphash_wasm', 'jumphash_checker_wasm']) {
  test(`${module}.wasm is a WebAssembly binary that its glue code references`, () => {
    const wasm = readFileSync(path.join(packageDir, `dist/${module}.wasm`));
    assert.deepEqual([...wasm.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);
    assert.ok(WebAssembly.validate(wasm));
    const glue = readFileSync(path.join(packageDir, `dist/${module}.mjs`), 'utf8');
    assert.ok(glue.includes(`new URL("${module}.wasm",import.meta.url)`));
  });
}
