// The same package, unchanged, in headless Chromium: in a page and in a
// module Web Worker, served with a Content-Security-Policy without
// 'unsafe-eval'; both give exactly the answers Node gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checks } from './browser/checks.js';
import { chromium, haveChromium, runInChromium } from './browser/harness.mjs';

test('page and Web Worker in Chromium (strict CSP) give the same answers as Node', { skip: haveChromium ? false : `no Chromium at ${chromium}`, timeout: 180000 }, async () => {
  const expected = await checks();
  assert.equal(expected.jumpback, 73);
  assert.deepEqual(expected.jump, [92, 0]);
  assert.equal(expected.numberKey, 'TypeError');
  assert.equal(expected.badN, "RangeError: bucket count must be an integer in 1..2147483647 (got '0')");
  const report = await runInChromium('test/browser/page.html');
  assert.equal(report.error, undefined, report.error);
  assert.match(report.userAgent, /HeadlessChrome|Chrome/);
  assert.deepEqual(report.page, expected);
  assert.deepEqual(report.worker, expected);
});
