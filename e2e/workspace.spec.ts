import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { assemble } from '../tests/solutions/assemble.mjs';
import { ROOT, checkFile, cliStdout, expectAccessible, snap, startLongTaskLog, stopLongTaskLog, watchConsole } from './helpers';

// The Exercise view's workspace: a student's own program, written in the
// page, run in the sandbox (an opaque-origin iframe with its own policy) and
// checked inline. The programs are the starters (web/src/workspace/starters/)
// with the solutions of tests/solutions/ put into their YOUR CODE region,
// the same programs tests/solutions/run_solutions.mjs compares with the CLI.

const STARTER = {
  js: readFileSync(`${ROOT}web/src/workspace/starters/starter.js`, 'utf8'),
  python: readFileSync(`${ROOT}web/src/workspace/starters/starter.py`, 'utf8'),
};
function solution(name: string): { name: string; text: string } {
  const language = name.endsWith('.py') ? 'python' : 'js';
  return { name, text: assemble(STARTER[language], readFileSync(`${ROOT}tests/solutions/${name}`, 'utf8')) };
}

/** The exercise's cases as the checker's golden transcripts use them, and the 64-bit cases. */
const EXERCISE_SCRIPT = checkFile('exercise.script');
const WIDE_SCRIPT = [
  '# 64-bit keys: a double cannot hold them',
  'HASH 18446744073709551615 100',
  'HASH 0xFFFFFFFFFFFFFFFF 1000',
  'HASH 9007199254740993 1000',
  'KEYS 18446744073709551600..18446744073709551615 random:50:7',
  'BUCKETS 1000',
  'MOVED 1000 1001',
  'LOAD 7',
  'TRACE 18446744073709551615 100000',
  '',
].join('\n');

function consoleLink(script: string): string {
  return `./#view=exercise&script=${encodeURIComponent(script)}`;
}

async function loadProgram(page: Page, program: { name: string; text: string }): Promise<void> {
  await page.getByTestId('student-file').setInputFiles({ name: program.name, mimeType: 'text/plain', buffer: Buffer.from(program.text) });
  await expect(page.getByTestId('student-note')).toContainText(`Loaded ${program.name}`);
}

/** Runs the program and waits for its end, and for the output box to have laid out all it was given (aria-busy false). */
async function runAndWait(page: Page, timeout = 60_000): Promise<void> {
  await page.getByTestId('student-run').click();
  await expect(page.getByTestId('student-status')).toHaveAttribute('data-end', /.+/, { timeout });
  await expect(page.getByRole('region', { name: 'Your program’s output' })).toHaveAttribute('aria-busy', 'false');
}

test.beforeEach(async ({ page }) => {
  // Every test starts from a clean browser: no program kept from another.
  await page.addInitScript(() => {
    if (window !== window.top) return; // the sandbox frame has no storage at all
    if (!sessionStorage.getItem('workspace-test-started')) {
      localStorage.clear();
      sessionStorage.setItem('workspace-test-started', '1');
    }
  });
});

for (const [name, script] of [
  ['the exercise', EXERCISE_SCRIPT],
  ['64-bit keys', WIDE_SCRIPT],
] as const) {
  test(`a correct JavaScript solution: all lines match on ${name}`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.goto(consoleLink(script));
    await loadProgram(page, solution('reference.js'));
    await runAndWait(page);
    await expect(page.getByTestId('student-status')).toHaveAttribute('data-end', 'finished');
    await expect(page.getByTestId('student-report').getByTestId('check-summary')).toContainText(/✓ checked: (\d+) of \1 lines match/);
    expect(problems).toEqual([]);
  });
}

test('a correct Python solution (Pyodide, served by this site): all lines match on the exercise and on 64-bit keys', async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchConsole(page);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(consoleLink(EXERCISE_SCRIPT));
  await loadProgram(page, solution('reference.py'));
  await expect(page.getByTestId('student-language')).toHaveValue('python');
  await runAndWait(page, 200_000);
  await expect(page.getByTestId('student-status')).toHaveAttribute('data-end', 'finished');
  await expect(page.getByTestId('student-report').getByTestId('check-summary')).toContainText(/✓ checked: (\d+) of \1 lines match/);
  // Pyodide came from this site, on this first Python run, and from nowhere else.
  const origin = new URL(page.url()).origin;
  expect(requests.filter((url) => url.includes('pyodide/')).length).toBeGreaterThan(0);
  expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'))).toEqual([]);

  // The same program on the 64-bit script: the warm interpreter, no second download.
  const downloads = requests.length;
  await page.goto(consoleLink(WIDE_SCRIPT));
  await expect(page.getByTestId('student-language')).toHaveValue('python');
  await runAndWait(page, 200_000);
  await expect(page.getByTestId('student-report').getByTestId('check-summary')).toContainText(/✓ checked: (\d+) of \1 lines match/);
  expect(requests.length).toBeGreaterThan(downloads);
  expect(problems).toEqual([]);
});

test('Numbers instead of BigInt: the checker names js-number on the large keys', async ({ page }) => {
  await page.goto(consoleLink(EXERCISE_SCRIPT));
  await loadProgram(page, solution('js-number.js'));
  await runAndWait(page);
  const report = page.getByTestId('student-report');
  await expect(report.getByTestId('check-summary')).toContainText('✗ checked:');
  await expect(report.locator('[data-diagnosis="js-number"]').first()).toBeVisible();
  // Named on the large keys too, where a double cannot even hold the key.
  for (const key of ['9007199254740993', '18446744073709551615']) {
    await expect(report.locator('.check-line', { hasText: `${key}: ` }).locator('[data-diagnosis="js-number"]').first()).toBeVisible();
  }
});

test('integer division: the checker names integer-division', async ({ page }) => {
  await page.goto(consoleLink(EXERCISE_SCRIPT));
  await loadProgram(page, solution('integer-division.js'));
  await runAndWait(page);
  const report = page.getByTestId('student-report');
  await expect(report.getByTestId('check-summary')).toContainText('✗ checked:');
  await expect(report.locator('[data-diagnosis="integer-division"]').first()).toBeVisible();
});

test('Python without the 64-bit wrap is stopped by the time limit, with the cause and the output so far', async ({ page }) => {
  test.setTimeout(240_000);
  // Without the mask the state passes 2^122 at the second step and the loop
  // never ends for any key from 1 up (key 0 still finishes).
  await page.goto(consoleLink('HASH 0 100\nHASH 42 100\n'));
  await loadProgram(page, solution('no-wrap.py'));
  await page.getByTestId('student-time-limit').fill('3');
  await runAndWait(page, 200_000);
  const status = page.getByTestId('student-status');
  await expect(status).toHaveAttribute('data-end', 'timeout');
  await expect(status).toContainText('Stopped after 3 s, the time limit');
  await expect(status).toContainText('without the 64-bit wrap');
  await expect(status).toContainText('0xFFFFFFFFFFFFFFFF');
  await expect(page.getByTestId('student-output')).toHaveText('0: 0\n');
  // The output so far is checked: the first line matches, the second is missing.
  await expect(page.getByTestId('student-report').getByTestId('check-summary')).toContainText('checked: 1 of 2 lines match');
});

test('an endless loop is stopped at the time limit and the page stays responsive meanwhile', async ({ page }) => {
  await page.goto(consoleLink(EXERCISE_SCRIPT));
  await loadProgram(page, { name: 'loop.js', text: 'console.log("started");\nfor (;;) {}\n' });
  await page.getByTestId('student-time-limit').fill('4');
  await startLongTaskLog(page);
  await page.getByTestId('student-run').click();
  await expect(page.getByTestId('student-output')).toHaveText('started\n');
  // While the loop runs, the page answers: a click on a view tab is handled.
  const started = Date.now();
  await page.getByTestId('student-language').selectOption('js');
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  expect(Date.now() - started).toBeLessThan(2000);
  await expect(page.getByTestId('student-status')).toHaveAttribute('data-end', 'timeout', { timeout: 15_000 });
  const longTasks = await stopLongTaskLog(page);
  expect(longTasks.tasks.filter((task) => task.ms > 100), longTasks.described).toEqual([]);
  // The next run works: a fresh worker.
  await loadProgram(page, solution('reference.js'));
  await runAndWait(page);
  await expect(page.getByTestId('student-status')).toHaveAttribute('data-end', 'finished');
});

test('the sandbox cannot reach the page, its storage or the network', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto(consoleLink('HASH 42 100\n'));
  await page.evaluate(() => localStorage.setItem('secret', 'page-only'));
  const probe = [
    'const report = (what, f) => { try { const v = f(); console.log(what + ": reached " + String(v).slice(0, 40)); } catch (e) { console.log(what + ": refused"); } };',
    'report("parent DOM", () => parent.document.title);',
    'report("top DOM", () => top.document.title);',
    'report("localStorage", () => localStorage.getItem("secret"));',
    'report("cookie", () => document.cookie);',
    'const asyncReport = async (what, f) => { try { await f(); console.log(what + ": reached"); } catch (e) { console.log(what + ": refused"); } };',
    'await asyncReport("fetch", () => fetch(location.origin === "null" ? "http://127.0.0.1:4173/" : "/"));',
    'await asyncReport("fetch page", () => fetch("http://127.0.0.1:4173/index.html"));',
    'await asyncReport("indexedDB", () => new Promise((ok, fail) => { const r = indexedDB.open("x"); r.onsuccess = ok; r.onerror = fail; }));',
    'await asyncReport("caches", () => caches.keys());',
    'await asyncReport("xhr", () => new Promise((ok, fail) => { const x = new XMLHttpRequest(); x.open("GET", "http://127.0.0.1:4173/"); x.onload = ok; x.onerror = fail; x.send(); }));',
    'await asyncReport("websocket", () => new Promise((ok, fail) => { const w = new WebSocket("ws://127.0.0.1:4173/"); w.onopen = ok; w.onerror = fail; }));',
    'report("importScripts", () => importScripts("http://127.0.0.1:4173/sandbox/sandbox.js"));',
  ].join('\n');
  await loadProgram(page, { name: 'probe.js', text: `(async () => {\n${probe}\n})();\n` });
  await runAndWait(page);
  const output = await page.getByTestId('student-output').textContent();
  const lines = (output ?? '').trim().split('\n');
  expect(lines.length, output ?? '').toBe(11);
  for (const line of lines) expect(line).toMatch(/: refused$/);
  // The page itself is untouched.
  expect(await page.evaluate(() => localStorage.getItem('secret'))).toBe('page-only');
  // CSP reports from the sandbox's refusals are expected in the console; nothing else.
  expect(problems.filter((p) => !/Content Security Policy|Failed to load resource|ERR_|net::|WebSocket/.test(p))).toEqual([]);
});

test('a run\'s end is announced once the output box has every line: laid out, or busy laying it out', async ({ page }) => {
  await page.goto(consoleLink('HASH 42 100\n'));
  // Forty lines at once: they and the end arrive within a frame or two.
  await loadProgram(page, { name: 'lines.js', text: 'for (let i = 0; i < 40; i++) console.log("line " + i);\n' });
  // What the output box holds at the moment the status says the run ended.
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid="student-status"]')!;
    const box = document.querySelector('[data-testid="student-output"]')!;
    new MutationObserver(() => {
      if (!status.hasAttribute('data-end')) return;
      const w = window as unknown as { atEnd: { busy: string | null; lines: number } };
      w.atEnd = { busy: box.closest('[aria-busy]')!.getAttribute('aria-busy'), lines: (box.textContent ?? '').trim().split('\n').filter(Boolean).length };
    }).observe(status, { attributes: true, attributeFilter: ['data-end'] });
  });
  await runAndWait(page);
  const atEnd = await page.evaluate(() => (window as unknown as { atEnd: { busy: string | null; lines: number } }).atEnd);
  expect(atEnd.busy === 'true' || atEnd.lines === 40, JSON.stringify(atEnd)).toBe(true);
  await expect(page.getByTestId('student-output')).toHaveText(Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join(''));
});

test('the main page keeps its strict policy; the sandbox has its own', async ({ page, request }) => {
  await page.goto('./#view=exercise');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toBe(
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
  );
  await page.getByTestId('student-run').click();
  const frame = page.locator('iframe.student-sandbox');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
  const sandboxHtml = await (await request.get('./sandbox/index.html')).text();
  expect(sandboxHtml).toContain("connect-src 'none'");
});

test('the program survives a reload, per problem and language; Reset brings the starter back', async ({ page }) => {
  await page.goto('./#view=exercise&problem=key-42');
  const editor = page.getByTestId('student-editor');
  await expect(editor).toContainText('BEGIN YOUR CODE');
  await editor.click();
  // At the top: CodeMirror lays out only the lines in view.
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText('// my note for key 42\n');
  await page.reload();
  await expect(page.getByTestId('student-editor')).toContainText('// my note for key 42');
  // Another problem has its own program: the starter.
  await page.goto('./#view=exercise&problem=trace-42');
  await page.reload();
  await expect(page.getByTestId('student-editor')).toContainText('BEGIN YOUR CODE');
  await expect(page.getByTestId('student-editor')).not.toContainText('// my note for key 42');
  // Python for key-42 is separate too.
  await page.goto('./#view=exercise&problem=key-42');
  await page.reload();
  await page.getByTestId('student-language').selectOption('python');
  await expect(page.getByTestId('student-editor')).toContainText('BEGIN YOUR CODE');
  await expect(page.getByTestId('student-editor')).not.toContainText('// my note');
  await page.getByTestId('student-language').selectOption('js');
  await expect(page.getByTestId('student-editor')).toContainText('// my note for key 42');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Reset to the starter' }).click();
  await expect(page.getByTestId('student-editor')).not.toContainText('// my note for key 42');
});

test('a program enters a link only when shared, and the link says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('./#view=exercise&problem=key-42');
  await loadProgram(page, solution('reference.js'));
  expect(page.url()).not.toContain('code=');
  await page.getByTestId('student-share').click();
  await expect(page.getByTestId('student-note')).toContainText('whoever opens it sees your code');
  const link = await page.getByTestId('student-share-link').inputValue();
  expect(link).toMatch(/lang=js|v=5/);
  // A fresh browser opens it: the program is shown, not run, and the address bar drops it.
  const other = await context.browser()!.newContext();
  const reader = await other.newPage();
  await reader.goto(link);
  await expect(reader.getByTestId('student-note')).toContainText('This link carries a JavaScript program');
  await expect(reader.getByTestId('student-editor')).toContainText('asUintN');
  await expect(reader.getByTestId('student-status')).toHaveText('');
  await expect.poll(() => reader.url()).not.toContain('code=');
  // The problem still hides its expected output.
  await expect(reader.locator('#problem-expected')).toBeHidden();
  await other.close();
});

test('in a problem, the report keeps the expected output hidden', async ({ page }) => {
  await page.goto('./#view=exercise&problem=largest-key');
  await loadProgram(page, solution('js-number.js'));
  await runAndWait(page);
  const report = page.getByTestId('student-report');
  await expect(report.getByTestId('check-summary')).toContainText('✗ checked:');
  await expect(page.locator('#problem-expected')).toBeHidden();
  // The expected line of the largest key (the student got it wrong) is nowhere in the page.
  const expected = cliStdout('HASH 18446744073709551615 100\n').trim();
  await expect(page.getByTestId('student-output')).not.toContainText(expected);
  expect(await page.locator('main').textContent()).not.toContain(expected);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`workspace: accessible in the ${scheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(consoleLink(EXERCISE_SCRIPT));
    await loadProgram(page, solution('integer-division.js'));
    await runAndWait(page);
    await page.getByTestId('workspace').scrollIntoViewIfNeeded();
    await expectAccessible(page, testInfo, `workspace-${scheme}`);
    await snap(page, testInfo, `workspace-${scheme}`);
  });
}
