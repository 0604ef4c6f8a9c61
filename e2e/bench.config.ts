import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// Benchmarks of the page (not tests: nothing here asserts a time). They run
// against the built site like the tests:
//   npm run build -w web && cd e2e && npx playwright test --config bench.config.ts
export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '*.bench.ts',
  timeout: 600_000,
  reporter: [['list']],
  use: { ...base.use, trace: 'off' },
});
