// loadChecker of the default entry, in a module of its own that src/index.js
// imports only when loadChecker is called: bundlers then put the checker's
// glue and its .wasm asset reference in a lazy chunk, and pages that never
// check output neither fetch nor count them.
import createCheckerModule from '../dist/jumphash_checker_wasm.mjs';
import { instantiate } from './api.js';
import { createChecker } from './checkerApi.js';

/** See index.d.ts. */
export async function loadChecker(options) {
  const where = {
    fn: 'loadChecker',
    file: 'jumphash_checker_wasm.wasm',
    url: () => new URL('../dist/jumphash_checker_wasm.wasm', import.meta.url),
  };
  return createChecker(await instantiate(where, createCheckerModule, options));
}
