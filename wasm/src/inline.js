// jumphash-wasm/inline: the same API as the default entry (src/index.js),
// with each .wasm embedded in the JavaScript as base64 (dist/*.inline.mjs,
// written by the build). For bundlers that copy no assets, such as esbuild
// with its defaults: nothing to serve beside the bundle, at the price of
// about a third more bytes than the .wasm itself. The checker's module is
// still imported only when loadChecker is called, the claims' only when
// loadClaims is.
import createJumphashModule from '../dist/jumphash_wasm.mjs';
import { createApi, instantiate } from './api.js';
import { createChecker } from './checkerApi.js';

/**
 * Instantiates the WebAssembly module; see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadJumphash(options = {}) {
  const where = {
    fn: 'loadJumphash',
    file: 'jumphash_wasm.wasm',
    inline: async () => (await import('../dist/jumphash_wasm.inline.mjs')).default,
  };
  return createApi(await instantiate(where, createJumphashModule, options));
}

/**
 * Instantiates the exercise checker's module; see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadChecker(options = {}) {
  const where = {
    fn: 'loadChecker',
    file: 'jumphash_checker_wasm.wasm',
    inline: async () => (await import('../dist/jumphash_checker_wasm.inline.mjs')).default,
  };
  const { default: createCheckerModule } = await import('../dist/jumphash_checker_wasm.mjs');
  return createChecker(await instantiate(where, createCheckerModule, options));
}

/**
 * Instantiates the module of the articles' claims; see index.d.ts.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function loadClaims(options = {}) {
  const where = {
    fn: 'loadClaims',
    file: 'jumphash_claims_wasm.wasm',
    inline: async () => (await import('../dist/jumphash_claims_wasm.inline.mjs')).default,
  };
  const { default: createClaimsModule } = await import('../dist/jumphash_claims_wasm.mjs');
  const { createClaims } = await import('./claimsApi.js');
  return createClaims(await instantiate(where, createClaimsModule, options));
}
