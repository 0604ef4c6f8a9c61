import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page, test } from '@playwright/test';
import { openPage, type ReportCase, reportMs } from './pageTiming';

// Builds of the page against each other, served side by side and taken in
// turn: how the README's "served in turn" comparisons are made. Keep each
// build with `scripts/keep-build.sh <name>` (after `npm run build -w web` at
// the code to compare), then
//   JUMPHASH_BUILDS=before,after npx --prefix e2e playwright test --config e2e/bench.config.ts builds
// Each build gets a page per worker count (JUMPHASH_WORKERS, default 1,2),
// and the pages take turns for JUMPHASH_ROUNDS rounds (default 20): this
// host has slow spells tens of seconds long, and turns spread them over
// every build alike. The report is JUMPHASH_REPORT (algorithm, from, to,
// keys, key count; default the short jumpback report:
// `jumpback,1000,1001,random:10000000:1,10000000`). Prints, per page, the
// best and median ms from the report's start to its reply and to the
// screen, and per build the 1 -> 2 workers ratio of the bests. Skipped
// unless JUMPHASH_BUILDS names builds.

const repoDir = fileURLToPath(new URL('../../', import.meta.url));
const keptDir = path.join(repoDir, 'build/ab');
const servedDir = path.join(repoDir, 'web/dist/ab');

const builds = (process.env['JUMPHASH_BUILDS'] ?? '').split(',').filter(Boolean);
const workerCounts = (process.env['JUMPHASH_WORKERS'] ?? '1,2').split(',').map(Number);
const rounds = Number(process.env['JUMPHASH_ROUNDS'] ?? 20);
const [algo, from, to, keys, count] = (process.env['JUMPHASH_REPORT'] ?? 'jumpback,1000,1001,random:10000000:1,10000000').split(',');
const report: ReportCase = { name: `${algo} ${from} -> ${to}, keys ${keys}`, algo: algo!, from: Number(from), to: Number(to), keys: keys!, count: count! };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

test('builds of the page served side by side, taken in turn', async ({ context }) => {
  test.skip(builds.length === 0, 'JUMPHASH_BUILDS names no build (scripts/keep-build.sh <name> keeps one)');
  for (const name of builds) {
    if (!existsSync(path.join(keptDir, name, 'index.html'))) throw new Error(`no build ${name} in build/ab/: keep one with scripts/keep-build.sh ${name}`);
  }
  if (!(workerCounts.length > 0 && workerCounts.every((w) => Number.isInteger(w) && w >= 1))) throw new Error(`JUMPHASH_WORKERS must be worker counts such as 1,2, got ${process.env['JUMPHASH_WORKERS']}`);
  if (!(Number.isInteger(rounds) && rounds >= 1)) throw new Error(`JUMPHASH_ROUNDS must be a whole number >= 1, got ${process.env['JUMPHASH_ROUNDS']}`);
  if (![report.algo, report.keys, report.count].every(Boolean) || !(report.from >= 1 && report.to >= 1)) {
    throw new Error(`JUMPHASH_REPORT must be algorithm,from,to,keys,key count (e.g. jumpback,1000,1001,random:10000000:1,10000000), got ${process.env['JUMPHASH_REPORT']}`);
  }
  test.setTimeout(120_000 + rounds * builds.length * workerCounts.length * 30_000);
  // vite preview serves web/dist: each kept build under ab/<name>/ there.
  rmSync(servedDir, { recursive: true, force: true });
  mkdirSync(servedDir, { recursive: true });
  for (const name of builds) cpSync(path.join(keptDir, name), path.join(servedDir, name), { recursive: true });
  // Served only while this runs: `npm start` serves web/dist as it is.
  try {
    const pages: { label: string; build: string; workers: number; page: Page; reply: number[]; screen: number[] }[] = [];
    for (const build of builds) {
      for (const workers of workerCounts) {
        pages.push({ label: `${build}, ${workers} worker${workers === 1 ? '' : 's'}`, build, workers, page: await openPage(context, report, workers, `./ab/${build}/`), reply: [], screen: [] });
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const each of pages) {
        const times = await reportMs(each.page, report);
        each.reply.push(times.reply);
        each.screen.push(times.report);
      }
    }
    const lines = [`${report.name}, ${rounds} rounds taken in turn; ms from the report's start: best / median to the reply, best / median to the screen`, ''];
    for (const each of pages) {
      lines.push(`${each.label}: reply ${Math.min(...each.reply)} / ${median(each.reply)}, screen ${Math.min(...each.screen)} / ${median(each.screen)}`);
    }
    for (const build of builds) {
      const one = pages.find((each) => each.build === build && each.workers === 1);
      const two = pages.find((each) => each.build === build && each.workers === 2);
      if (one && two) {
        const ratio = (key: 'reply' | 'screen') => (Math.min(...one[key]) / Math.min(...two[key])).toFixed(2);
        lines.push(`${build}: 1 -> 2 workers, best against best: ${ratio('screen')}x to the screen (${ratio('reply')}x to the reply)`);
      }
    }
    lines.push('', 'Every reply (ms), in round order:', ...pages.map((each) => `${each.label}: ${each.reply.join(' ')}`));
    console.log(lines.join('\n'));
    for (const each of pages) await each.page.close();
  } finally {
    rmSync(servedDir, { recursive: true, force: true });
  }
});
