import { resolve } from 'node:path';
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

export default defineConfig({
  // Relative asset URLs: the built site works from any sub-path and from
  // `python3 -m http.server`.
  base: './',
  plugins: [contentSecurityPolicy()],
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
