import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// The Content-Security-Policy of the built pages. It goes in only at build
// time: Vite's dev server injects inline <style> tags for hot reload, which
// this policy (rightly) refuses. 'wasm-unsafe-eval' lets the worker compile
// the WebAssembly module; nothing needs 'unsafe-eval' or 'unsafe-inline'.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "worker-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'jumphash-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' },
      ],
    },
  };
}

/**
 * The files of Pyodide (CPython compiled to WebAssembly) that the student
 * sandbox needs, served from this site under pyodide/: no third-party
 * requests. The Exercise view fetches them on the first Python run only.
 */
export const PYODIDE_FILES = ['pyodide.js', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

function pyodideFiles(): Plugin {
  const directory = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
  return {
    name: 'jumphash-pyodide',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const name = /\/pyodide\/([\w.-]+)$/.exec(request.url?.split('?')[0] ?? '')?.[1];
        if (!name || !PYODIDE_FILES.includes(name)) return next();
        response.setHeader('Content-Type', name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
        createReadStream(resolve(directory, name)).pipe(response);
      });
    },
    generateBundle() {
      for (const name of PYODIDE_FILES) {
        this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: readFileSync(resolve(directory, name)) });
      }
    },
  };
}

/**
 * The student-code sandbox's page (sandbox/index.html): src/workspace/
 * sandboxFrame.js inline, allowed by its SHA-256 and by nothing else. The
 * page runs in an <iframe sandbox="allow-scripts"> (an opaque origin) and
 * allows what student programs need (eval, blob: workers, WebAssembly) but
 * no URL at all: no script, fetch, XHR or WebSocket from anywhere. The
 * playground's own pages keep the policy above.
 */
export function sandboxPage(): string {
  const script = readFileSync(resolve(import.meta.dirname, 'src/workspace/sandboxFrame.js'), 'utf8');
  if (script.includes('</script')) throw new Error('src/workspace/sandboxFrame.js must not contain "</script" (it is put inline)');
  const hash = createHash('sha256').update(script).digest('base64');
  const policy = [
    "default-src 'none'",
    `script-src 'sha256-${hash}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
    'worker-src blob:',
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<!-- The jumphash student-code sandbox; made by web/vite.config.ts (sandboxPage) from src/workspace/sandboxFrame.js. -->',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${policy}" />`,
    '<title>jumphash sandbox</title>',
    '</head>',
    '<body>',
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function sandbox(): Plugin {
  return {
    name: 'jumphash-sandbox',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (!/\/sandbox\/index\.html$/.test(request.url?.split('?')[0] ?? '')) return next();
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(sandboxPage());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'sandbox/index.html', source: sandboxPage() });
    },
  };
}

export default defineConfig({
  // Relative asset URLs: the built site works from any sub-path and from
  // `python3 -m http.server`.
  base: './',
  plugins: [contentSecurityPolicy(), pyodideFiles(), sandbox()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // Inlining assets as data: URLs would be refused by the CSP.
    assetsInlineLimit: 0,
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        embed: resolve(import.meta.dirname, 'embed.html'),
      },
    },
  },
  preview: { port: 4173, strictPort: false },
  server: { port: 5173 },
});
