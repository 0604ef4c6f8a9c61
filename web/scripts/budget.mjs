#!/usr/bin/env node
// Size budget of the built site (web/dist; run `npm run build -w web` first).
//
// "First load" of a page = what the browser fetches before the page can show
// its first result: the HTML's <script>, modulepreload and stylesheet links,
// every chunk they import statically, and what those chunks fetch at start
// with `new URL("...", import.meta.url)` (the engine worker and, from it, the
// .wasm), plus one view: each view is a chunk of its own behind import(), and
// a link may open any of them, so the largest view (with what it imports
// statically) is counted as part of the first load. Other chunks behind a
// dynamic import() (the editor, the charts, the other views) and their CSS
// are lazy: listed apart, not counted. Sizes are gzip -9.
//
// Prints one table per page and exits 1 when a page is over its budget.

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
// embed.html's was 120 KB until the WebAssembly SIMD128 batch kernels
// (JumpHash 1.9x and the independent-streams JumpBackHash 1.6x faster in the
// page, wasm/bench/simd.mjs) added 0.6 KB to the module it cannot do
// without; 122 KB kept that and little else. Reports split across Web
// Workers (key ranges and Job.absorb in the module, +3.2 KB; the split and
// the merge in the worker, +1.1 KB) took it to 126.1 KB, hence 127 KB: an
// embedded Resize or Balance view uses every core of the reader's machine too.
// Compiling the module's Embind glue for size (its per-count loops kept at
// -O3, wasm/CMakeLists.txt) brought it to 122.8 KB; 124 KB kept that, and
// it stood at 124.0 KB. The SIMD128 kernels working on four vectors at once
// (jump 1.7x faster, and a jump pair kernel for resizes), and a JumpBackHash
// kernel where its scalar loop is slowest (n just above a power of two,
// 1.3x), added 2.6 KB to the module (src/batch_simd128.cpp), hence 127 KB.
const BUDGETS = { 'index.html': 250 * 1024, 'embed.html': 127 * 1024 };

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`budget: ${dist}/index.html is missing; run \`npm run build -w web\` first.`);
  process.exit(2);
}

// The view ids, from the link schema (web/src/url/schema.ts): a view's chunk is named after its file.
const schema = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'url', 'schema.ts'), 'utf8');
const VIEW_IDS = JSON.parse(/export const VIEWS = (\[[^\]]*\])/.exec(schema)[1].replace(/'/g, '"'));

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  return gzipCache.get(file);
}

/** What one JS file pulls in: static imports, start-up fetches, lazy imports. */
function references(file) {
  const text = readFileSync(file, 'utf8');
  const base = dirname(file);
  const at = (spec) => resolve(base, spec);
  const eager = new Set();
  const lazy = new Set();
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)) eager.add(at(m[1]));
  for (const m of text.matchAll(/new URL\(\s*["'`]([^"'`]+\.(?:js|wasm))["'`]\s*,\s*import\.meta\.url\)/g)) {
    const target = at(m[1]);
    if (existsSync(target)) eager.add(target); // the worker and the wasm; a path that is not in dist is Node-only code
  }
  for (const m of text.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)) lazy.add(at(m[1]));
  // Vite lists a dynamic chunk's CSS in __vite__mapDeps: those load with it, lazily.
  for (const m of text.matchAll(/["'`](?:\.\/)?((?:assets\/)?[\w.-]+\.css)["'`]/g)) {
    const candidates = [resolve(base, m[1]), resolve(dist, m[1]), resolve(dist, 'assets', m[1])];
    const found = candidates.find((c) => existsSync(c));
    if (found) lazy.add(found);
  }
  return { eager, lazy };
}

function measure(page) {
  const html = readFileSync(join(dist, page), 'utf8');
  const eager = new Set();
  const queue = [];
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"[^>]*>/g)) {
    const tag = m[0];
    const url = m[1];
    if (/^(https?:)?\/\//.test(url)) throw new Error(`${page} loads a third-party URL: ${url}`);
    if (tag.startsWith('<link') && !/rel="(stylesheet|modulepreload)"/.test(tag)) continue;
    queue.push(resolve(dist, url));
  }
  const lazyRoots = new Set();
  while (queue.length) {
    const file = queue.shift();
    if (eager.has(file)) continue;
    eager.add(file);
    if (file.endsWith('.js')) {
      const refs = references(file);
      for (const next of refs.eager) queue.push(next);
      for (const next of refs.lazy) lazyRoots.add(next);
    }
  }
  // The largest view, with its static imports, is part of the first load.
  const closure = (root) => {
    const files = new Set();
    const todo = [root];
    while (todo.length) {
      const file = todo.shift();
      if (eager.has(file) || files.has(file)) continue;
      files.add(file);
      if (file.endsWith('.js')) for (const next of references(file).eager) todo.push(next);
    }
    return [...files];
  };
  const sizeOf = (files) => files.reduce((sum, f) => sum + gzipSize(f), 0);
  const views = [...lazyRoots].filter((f) => VIEW_IDS.some((id) => basename(f).startsWith(`${id}-`)));
  const largest = views.map(closure).sort((a, b) => sizeOf(b) - sizeOf(a))[0] ?? [];
  for (const file of largest) {
    eager.add(file);
    if (file.endsWith('.js')) for (const next of references(file).lazy) lazyRoots.add(next);
  }
  // Everything reachable from a lazy root that is not already loaded is lazy.
  const lazy = new Set();
  const lazyQueue = [...lazyRoots];
  while (lazyQueue.length) {
    const file = lazyQueue.shift();
    if (eager.has(file) || lazy.has(file)) continue;
    lazy.add(file);
    if (file.endsWith('.js')) {
      const refs = references(file);
      for (const next of [...refs.eager, ...refs.lazy]) lazyQueue.push(next);
    }
  }
  return { eager: [...eager], lazy: [...lazy], view: largest[0] };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const pad = (text, width) => text.padEnd(width);
let failed = false;

for (const [page, budget] of Object.entries(BUDGETS)) {
  const { eager, lazy, view } = measure(page);
  const counted = eager.filter((f) => /\.(js|css|wasm)$/.test(f));
  const total = counted.reduce((sum, f) => sum + gzipSize(f), 0);
  console.log(`\n${page}: first load (gzip -9), with the largest view${view ? ` (${relative(dist, view)})` : ''}`);
  for (const f of counted.sort()) console.log(`  ${pad(relative(dist, f), 44)} ${kb(gzipSize(f)).padStart(10)}`);
  const verdict = total <= budget ? 'within' : 'OVER';
  console.log(`  ${pad('total JS + wasm + CSS', 44)} ${kb(total).padStart(10)}   budget ${kb(budget)}: ${verdict}`);
  if (lazy.length) {
    console.log('  lazy (loaded when a view needs them, not counted):');
    for (const f of lazy.sort()) console.log(`    ${pad(relative(dist, f), 42)} ${kb(gzipSize(f)).padStart(10)}`);
    const all = total + lazy.reduce((sum, f) => sum + gzipSize(f), 0);
    console.log(`  ${pad('(first load plus every lazy chunk)', 44)} ${kb(all).padStart(10)}`);
  }
  if (total > budget) failed = true;
}

process.exit(failed ? 1 : 0);
