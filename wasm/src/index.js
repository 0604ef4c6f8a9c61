// jumphash-wasm, the default entry: the .wasm files are separate assets
// beside this package's JavaScript. Each is referenced exactly once, as
// `new URL('../dist/<file>.wasm', import.meta.url)`: Vite, webpack 5 and
// Parcel emit it as an asset and rewrite the URL; a plain page (import map)
// fetches it from node_modules; Node reads it from disk. Bundlers that copy
// no assets (esbuild's defaults, Rollup without a plugin) want the
// `jumphash-wasm/inline` entry (src/inline.js). Everything else is in
// api.js; the types are in index.d.ts.
import createJumphashModule from '../dist/jumphash_wasm.mjs';
import { createApi, instantiate } from './api.js';

/**
 * Instantiates the WebAssembly module; see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadJumphash(options = {}) {
  const where = {
    fn: 'loadJumphash',
    file: 'jumphash_wasm.wasm',
    url: () => new URL('../dist/jumphash_wasm.wasm', import.meta.url),
  };
  return createApi(await instantiate(where, createJumphashModule, options));
}

/**
 * Instantiates the exercise checker's module (a separate download, imported
 * only when called, so pages that never check output do not fetch it); see
 * index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadChecker(options = {}) {
  const { loadChecker: load } = await import('./checker.js');
  return load(options);
}

/**
 * Instantiates the module of the articles' claims (a separate download,
 * imported only when called, so pages that never show the claims do not
 * fetch it); see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadClaims(options = {}) {
  const { loadClaims: load } = await import('./loadClaims.js');
  return load(options);
}
