// Runs a page of this package in headless Chromium: a small static server
// over wasm/ (with a strict Content-Security-Policy: no 'unsafe-eval'), the
// page posts its JSON result to /result, and the browser is closed.
// Used by test/browser.test.mjs and bench/bench.mjs. No npm dependency.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const haveChromium = existsSync(chromium);

const packageRoot = fileURLToPath(new URL('../..', import.meta.url)); // wasm/
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'";

/**
 * Opens `page` (a path under `root`, wasm/ by default, e.g.
 * "test/browser/page.html?x=1") and resolves with what the page POSTs to
 * /result (parsed JSON). `csp(pathname)` may give another policy per file.
 */
export async function runInChromium(page, { timeoutMs = 120000, root = packageRoot, csp = () => CSP } = {}) {
  root = path.resolve(root) + path.sep;
  let settle;
  const result = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/result') {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        response.end('ok');
        try { settle.resolve(JSON.parse(body)); } catch (error) { settle.reject(error); }
      });
      return;
    }
    let file = path.join(root, path.normalize(decodeURIComponent(url.pathname)));
    if (file.endsWith(path.sep)) file = path.join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': csp(url.pathname),
      'Cache-Control': 'no-store',
    });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const profile = mkdtempSync(path.join(tmpdir(), 'jumphash-chromium-'));
  const browser = spawn(chromium, [
    '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions',
    `--user-data-dir=${profile}`, `http://127.0.0.1:${port}/${page}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'], detached: true }); // own process group: renderers too
  const killBrowser = (signal) => {
    try { process.kill(-browser.pid, signal); } catch { /* already gone */ }
  };
  let stderr = '';
  browser.stderr.on('data', (chunk) => { stderr += chunk; });
  browser.on('exit', (code) => settle.reject(new Error(`chromium exited (${code}) before the page reported:\n${stderr.slice(-3000)}`)));
  const timer = setTimeout(() => settle.reject(new Error(`no result from ${page} after ${timeoutMs} ms:\n${stderr.slice(-3000)}`)), timeoutMs);
  try {
    return await result;
  } finally {
    clearTimeout(timer);
    browser.removeAllListeners('exit');
    const exited = new Promise((resolve) => browser.once('exit', resolve));
    killBrowser('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    killBrowser('SIGKILL'); // whatever of the group is left
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
