import { defineConfig } from '@playwright/test';

// Runs against the BUILT site (web/dist, `npm run build -w web` first),
// served by `vite preview`, in Debian's Chromium (never a downloaded browser).
const PORT = Number(process.env['E2E_PORT'] ?? 4173);
/** A plain static server with the site under a sub-path (web/dist/ as /dist/). */
export const STATIC_PORT = Number(process.env['E2E_STATIC_PORT'] ?? 4175);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One worker: the long-task check (main thread never blocked > 100 ms) measures wall
  // time, and two browsers busy on 2 cores stretch tasks that are short on their own.
  workers: Number(process.env['E2E_WORKERS'] ?? 1),
  // In CI a failed test runs once more. Several tests bound wall-clock time
  // (no main-thread task over 100 ms, an answer within seconds) on a 2-core
  // machine that the browser, its workers and the runner share; a real
  // regression fails both tries. A test that passed only on its retry still
  // shows: the runner lists it as "flaky" and scripts/test.sh names it, with
  // its first error, in the closing summary.
  retries: process.env['CI'] ? 1 : 0,
  forbidOnly: !!process.env['CI'],
  reporter: [['list'], ['html', { outputFolder: '../test-results/e2e-report', open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
      cwd: '../web',
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: !process.env['CI'],
      timeout: 60_000,
    },
    {
      command: `python3 -m http.server ${STATIC_PORT} --bind 127.0.0.1 --directory ../web`,
      url: `http://127.0.0.1:${STATIC_PORT}/dist/index.html`,
      stdout: 'ignore',
      stderr: 'ignore',
      reuseExistingServer: !process.env['CI'],
      timeout: 60_000,
    },
  ],
});
