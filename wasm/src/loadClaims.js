// loadClaims of the default entry, in a module of its own that src/index.js
// imports only when loadClaims is called (not named claims.js: a bundled
// page's Claims view is already a chunk claims-<hash>.js): bundlers then put the claims'
// glue and its .wasm asset reference in a lazy chunk, and pages that never
// show the Claims view neither fetch nor count them.
import createClaimsModule from '../dist/jumphash_claims_wasm.mjs';
import { instantiate } from './api.js';
import { createClaims } from './claimsApi.js';

/** See index.d.ts. */
export async function loadClaims(options) {
  const where = {
    fn: 'loadClaims',
    file: 'jumphash_claims_wasm.wasm',
    url: () => new URL('../dist/jumphash_claims_wasm.wasm', import.meta.url),
  };
  return createClaims(await instantiate(where, createClaimsModule, options));
}
