import { expect, test, type Page } from '@playwright/test';
import { CHECK_DIR, SCREENSHOT_DIR, checkFile, cliStdout, expectAccessible, parseCheckTranscript, snap, watchConsole } from './helpers';

// "Check my output" on the page: the outputs that tests/check/student.mjs
// prints with each classic mistake, checked against tests/check/exercise.script.
// The page must give every line the verdict and the diagnosis identifiers that
// the CLI's golden transcript (tests/check/<name>.stdout) gives it.

const SCRIPT = checkFile('exercise.script');
const EXERCISE = `./#view=exercise&script=${encodeURIComponent(SCRIPT)}`;

async function openExercise(page: Page): Promise<void> {
  await page.goto(EXERCISE);
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout(SCRIPT));
}

async function paste(page: Page, output: string): Promise<void> {
  await page.getByTestId('check-output').fill(output);
  await page.getByTestId('check').click();
}

/** Every line the CLI reports, with the same verdict and identifiers, and the same summary. */
async function expectLikeTranscript(page: Page, transcript: string): Promise<void> {
  const { lines, summary } = parseCheckTranscript(checkFile(transcript));
  expect(lines.length).toBeGreaterThan(0);
  await expect(page.getByTestId('check-summary')).toContainText(summary);
  // Exactly the reported lines are marked as not matching.
  await expect(page.locator('.check-line:not([data-verdict="match"])')).toHaveCount(lines.length);
  for (const line of lines) {
    const body = page.getByTestId(line.testid);
    await expect(body, line.testid).toHaveAttribute('data-verdict', line.verdict);
    const shown = await body.locator('[data-diagnosis]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-diagnosis')));
    expect(shown, `diagnoses of ${line.testid} in ${transcript}`).toEqual(line.ids);
  }
}

// Each variant: its output file, its CLI transcript, and one line checked by hand.
const VARIANTS: { output: string; transcript: string; line: string; id: string; text: RegExp }[] = [
  { output: 'js-number.output', transcript: 'js_number.stdout', line: 'check-line-1', id: 'js-number', text: /jump with JavaScript Numbers gives 1/ },
  { output: 'integer-division.output', transcript: 'integer_division.stdout', line: 'check-line-1', id: 'integer-division', text: /integer division gives 24/ },
  { output: 'key-as-double.output', transcript: 'key_as_double.stdout', line: 'check-line-2', id: 'key-as-double', text: /9007199254740993 as a double is 9007199254740992/ },
  { output: 'off-by-one.output', transcript: 'off_by_one.stdout', line: 'check-line-9', id: 'off-by-one-n', text: /at n - 1 = 9 gives 8/ },
  { output: 'estimate.output', transcript: 'estimate.stdout', line: 'check-line-28', id: 'moved-estimated', text: /rounded to 2; the keys that really move number 4/ },
  { output: 'no-wrap.output', transcript: 'no_wrap.stdout', line: 'check-line-1', id: 'no-64-bit-wrap', text: /the output stops here: jump of key 42 at n = 100/ },
  { output: 'jumpback-for-jump.output', transcript: 'jumpback_for_jump.stdout', line: 'check-line-1', id: 'other-algorithm', text: /jumpback gives 53/ },
];

for (const variant of VARIANTS) {
  test(`checker: ${variant.output} gets ${variant.id} on the right line, like the CLI`, async ({ page }) => {
    const problems = watchConsole(page);
    await openExercise(page);
    await paste(page, checkFile(variant.output));
    await expect(page.getByTestId('check-summary')).toContainText('✗ checked:');
    const line = page.getByTestId(variant.line);
    const diagnosis = line.locator(`[data-diagnosis="${variant.id}"]`);
    await expect(diagnosis).toHaveCount(1);
    await expect(diagnosis).toContainText(variant.text);
    // Readable by a student: the identifier, the detail, the explanation and the fix.
    await expect(diagnosis.locator('.diagnosis-id')).toHaveText(variant.id);
    await expect(diagnosis.locator('.fix')).toContainText(/^Fix: \S/);
    // The badge carries a word, not only a colour.
    await expect(line.getByTestId('verdict')).toHaveText(/wrong value|missing/);
    await expectLikeTranscript(page, variant.transcript);
    expect(problems).toEqual([]);
  });
}

test('checker: wrong separators are wrong format, with the tab made visible', async ({ page }) => {
  await openExercise(page);
  await paste(page, checkFile('separators.output'));
  await expectLikeTranscript(page, 'separators.stdout');
  const first = page.getByTestId('check-line-1');
  await expect(first.getByTestId('verdict')).toHaveText('¶ wrong format');
  await expect(first.locator('.format-problem')).toHaveText('Format: a tab where one space belongs.');
  await expect(first.locator('.actual .ws')).toHaveAttribute('title', 'a tab');
  await expect(page.getByTestId('check-line-24').locator('.format-problem')).toContainText("'->' needs exactly one space on each side");
});

test('checker: a correct output is all match', async ({ page }) => {
  await openExercise(page);
  await paste(page, checkFile('none.output'));
  await expect(page.getByTestId('check-summary')).toHaveText('✓ checked: 36 of 36 lines match');
  await expect(page.locator('.check-line[data-verdict="match"]')).toHaveCount(36);
  await expect(page.locator('.check-line:not([data-verdict="match"])')).toHaveCount(0);
});

test('checker: a dropped file and a chosen file are checked', async ({ page }) => {
  await openExercise(page);
  // Drop: a real DataTransfer with a File, as the browser builds it for a drag from the desktop.
  const text = checkFile('key-as-double.output');
  const dataTransfer = await page.evaluateHandle((content) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([content], 'key-as-double.output', { type: 'text/plain' }));
    return transfer;
  }, text);
  await page.dispatchEvent('[data-testid="check-drop"]', 'dragenter', { dataTransfer });
  await expect(page.getByTestId('check-drop')).toHaveClass(/dragging/);
  await page.dispatchEvent('[data-testid="check-drop"]', 'drop', { dataTransfer });
  await expect(page.getByTestId('check-drop')).not.toHaveClass(/dragging/);
  await expect(page.getByTestId('check-output')).toHaveValue(text);
  await expectLikeTranscript(page, 'key_as_double.stdout');
  await expect(page.getByTestId('check-line-2').locator('[data-diagnosis="key-as-double"]')).toHaveCount(1);

  // The file picker.
  await page.getByLabel('Or check a file:').setInputFiles(`${CHECK_DIR}off-by-one.output`);
  await expect(page.getByTestId('check-output')).toHaveValue(checkFile('off-by-one.output'));
  await expectLikeTranscript(page, 'off_by_one.stdout');
});

for (const motion of ['no-preference', 'reduce'] as const) {
  test(`checker: the first mismatch is scrolled into view (reduced motion: ${motion})`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: motion });
    await openExercise(page);
    await paste(page, checkFile('estimate.output'));
    const first = page.getByTestId('check-line-28');
    await expect(first).toHaveAttribute('data-verdict', 'wrong-value');
    // Without scrolling it would be out of sight: below the first screen of
    // the page and below the first screen of the table's own scroll box.
    const place = await first.evaluate((element) => {
      const wrap = element.closest('.check-table-wrap') as HTMLElement;
      const row = element.getBoundingClientRect();
      return {
        pageTop: row.top + window.scrollY,
        inWrap: row.top - wrap.getBoundingClientRect().top + wrap.scrollTop,
        wrapHeight: wrap.clientHeight,
      };
    });
    expect(place.pageTop).toBeGreaterThan(900);
    expect(place.inWrap).toBeGreaterThan(place.wrapHeight);
    await expect(first).toBeInViewport({ ratio: 0.9 });
    // The link to the first mismatch brings it back and gives it focus.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(first).not.toBeInViewport();
    await page.getByTestId('check-first-mismatch').click();
    await expect(first).toBeInViewport({ ratio: 0.9 });
    await expect(first).toBeFocused();
  });
}

test('checker: keyboard only, Ctrl+Enter checks; script errors are shown', async ({ page }) => {
  const script = 'HASH 42 100\nHASH 42 0\nHASH 7 10\n';
  await page.goto(`./#view=exercise&script=${encodeURIComponent(script)}`);
  await expect(page.getByTestId('exercise-output')).toHaveText(cliStdout(script));
  await page.getByTestId('check-output').focus();
  await page.keyboard.type('42: 43\n7: 1\n');
  await page.keyboard.press('Control+Enter');
  const errors = page.getByTestId('check-script-errors');
  await expect(errors).toContainText('The script itself has 1 failing line');
  await expect(errors.getByTestId('error')).toHaveText(/^line 2: error: .*bucket count must be an integer in 1\.\.2147483647/);
  await expect(page.getByTestId('check-summary')).toContainText(/checked: [12] of 2 lines match/);
  // Tab order: the output box, then Check, then the file picker.
  await page.getByTestId('check-output').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('check')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Or check a file:')).toBeFocused();
});

test('problem set: the expected output stays hidden until asked; the link names the problem', async ({ page, context }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('./#view=exercise');
  await expect(page.getByTestId('exercise-output')).not.toBeEmpty();
  await page.getByLabel('Preset').selectOption({ label: 'Problem: The largest key' });
  await expect(page.getByRole('heading', { name: 'Problem: The largest key' })).toBeVisible();
  const script = 'HASH 18446744073709551615 100\nHASH 9007199254740993 1000\n';
  const expected = cliStdout(script);
  expect(expected).toBe('18446744073709551615: 92\n9007199254740993: 446\n');
  await expect(page.getByTestId('problem-script')).toContainText(script);
  await expect(page).toHaveURL(/#view=exercise&problem=largest-key$/);

  // Nothing of the expected output is in the page.
  const body = page.locator('body');
  await expect(page.getByTestId('exercise-output')).toBeHidden();
  await expect(body).not.toContainText(': 92');
  await expect(body).not.toContainText(': 446');

  // Checking gives verdicts and diagnoses, still without the expected lines.
  await paste(page, '18446744073709551615: 0\n9007199254740993: 446\n');
  await expect(page.getByTestId('check-summary')).toHaveText('✗ checked: 1 of 2 lines match');
  const wrong = page.getByTestId('check-line-1');
  await expect(wrong.getByTestId('verdict')).toHaveText('✗ wrong value');
  await expect(wrong.locator('[data-diagnosis="js-number"]')).toContainText('jump with JavaScript Numbers gives 0');
  await expect(wrong.locator('[data-diagnosis="key-as-double"]')).toHaveCount(1);
  await expect(wrong.locator('.expected')).toHaveText('hidden Show');
  // A matching line's expected text is the student's own line.
  await expect(page.getByTestId('check-line-2').locator('.expected')).toHaveText('9007199254740993: 446');
  await expect(body).not.toContainText(': 92');
  await expectAccessible(page, testInfo, 'problem-checked');

  // One wrong line shown on request; the other wrong lines stay hidden.
  await paste(page, '18446744073709551615: 0\n9007199254740993: 0\n');
  await expect(page.getByTestId('check-summary')).toHaveText('✗ checked: 0 of 2 lines match');
  await wrong.getByRole('button', { name: 'Show expected line 1' }).click();
  await expect(wrong.locator('.expected')).toHaveText('18446744073709551615: 92');
  await expect(page.getByTestId('check-line-2').locator('.expected')).toHaveText('hidden Show');
  await expect(body).not.toContainText(': 446');

  // The whole expected output on request, exactly as the CLI prints it.
  await page.getByTestId('show-expected').click();
  await expect(page.getByTestId('show-expected')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('exercise-output')).toHaveText(expected);
  await expect(page.getByTestId('check-line-2').locator('.expected')).toHaveText('9007199254740993: 446');
  await page.getByTestId('show-expected').click();
  await expect(page.getByTestId('exercise-output')).toBeHidden();
  await expect(page.getByTestId('exercise-output')).toHaveText('');

  // The share link names the problem and carries no output.
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-output').inputValue();
  expect(link).toMatch(/#view=exercise&problem=largest-key$/);
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'Problem: The largest key' })).toBeVisible();
  await expect(other.getByTestId('check-output')).toHaveValue('');
  await expect(other.getByTestId('check-summary')).toHaveCount(0);
  await expect(other.locator('body')).not.toContainText(': 92');

  // Leaving the problem opens the console on its script, output shown.
  await page.getByTestId('leave-problem').click();
  await expect(page.getByTestId('exercise-output')).toHaveText(expected);
  await expect(page).not.toHaveURL(/problem=/);
  expect(problems).toEqual([]);
});

test('problem set: the whole exercise is the checker’s golden script', async ({ page }) => {
  await page.goto('./#view=exercise&problem=exercise');
  await expect(page.getByTestId('problem-script')).toHaveText(SCRIPT);
  await paste(page, checkFile('js-number.output'));
  await expectLikeTranscript(page, 'js_number.stdout');
});

test('share: the link never contains the student output, also from an old v=3 link', async ({ page, context }) => {
  await openExercise(page);
  const output = checkFile('off-by-one.output').replace('42: 43', '42: 4242424242');
  await paste(page, output);
  await expect(page.getByTestId('check-summary')).toContainText('✗ checked:');
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-output').inputValue();
  const fragment = decodeURIComponent(new URL(link).hash);
  expect(fragment).toContain('view=exercise');
  expect(fragment).toContain('TRACE 42 800');
  expect(fragment).not.toContain('4242424242');
  expect(fragment).not.toContain('output');
  expect(decodeURIComponent(page.url())).not.toContain('4242424242');

  // A readable link that the previous page wrote with the output opens without it.
  const old = await context.newPage();
  await old.goto(`./#view=exercise&script=${encodeURIComponent('HASH 42 100\n')}&output=${encodeURIComponent('42: 4242424242\n')}`);
  await expect(old.getByTestId('exercise-output')).toHaveText('42: 43\n');
  await expect(old.getByTestId('check-output')).toHaveValue('');
  await expect(old.getByTestId('check-summary')).toHaveCount(0);
  await expect(old.getByTestId('error')).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });
    test(`checker view is accessible and photographed (${scheme})`, async ({ page }, testInfo) => {
      const problems = watchConsole(page);
      await openExercise(page);
      // A mix: the off-by-one student, with a tab and a swapped pair.
      const lines = checkFile('off-by-one.output').split('\n');
      lines[0] = lines[0]!.replace(': ', ':\t');
      [lines[4], lines[5]] = [lines[5]!, lines[4]!];
      await paste(page, lines.join('\n'));
      await expect(page.getByTestId('check-summary')).toContainText('✗ checked:');
      await expect(page.getByTestId('check-line-1')).toHaveAttribute('data-verdict', 'wrong-format');
      await expect(page.locator('.check-line[data-verdict="out-of-order"]')).not.toHaveCount(0);
      await page.waitForTimeout(400);
      await expectAccessible(page, testInfo, `checker-${scheme}`);
      await snap(page, testInfo, `checker-${scheme}`);
      // Close-up of a wrong-format line (the visible tab) for the report.
      const closeUp = await page.getByTestId('check-line-1').screenshot({ path: `${SCREENSHOT_DIR}checker-line-${scheme}.png` });
      await testInfo.attach(`checker-line-${scheme}`, { body: closeUp, contentType: 'image/png' });
      await page.goto('./#view=exercise&problem=key-42');
      await paste(page, '42: 43\n42: 570\n');
      await expect(page.getByTestId('check-summary')).toHaveText('✗ checked: 1 of 2 lines match');
      await expectAccessible(page, testInfo, `problem-${scheme}`);
      await snap(page, testInfo, `problem-${scheme}`);
      expect(problems).toEqual([]);
    });
  });
}
