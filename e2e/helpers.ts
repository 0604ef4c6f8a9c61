import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** Console errors and uncaught exceptions (CSP violations land here too). */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Attaches a full-page screenshot to the report and saves it for a look. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const body = await page.screenshot({ fullPage: true, path: `${SCREENSHOT_DIR}${name}.png` });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** No serious or critical axe-core violations. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(
    bad.map((v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`),
    `axe violations on ${name}`,
  ).toEqual([]);
}

/** Waits until the page's views have rendered their results. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => {
    const progress = document.querySelector('[data-testid="progress"]') as HTMLElement | null;
    const cancel = document.querySelector('[data-testid="cancel"]') as HTMLElement | null;
    return !progress || progress.hidden || !cancel || cancel.hidden;
  });
  await page.waitForTimeout(300); // charts draw on the next animation frame
}
