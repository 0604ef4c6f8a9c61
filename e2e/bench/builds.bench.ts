import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page, test } from '@playwright/test';
import { openPage, type ReportCase, reportMs, workersText } from './pageTiming';

// Builds of the page against each other, served side by side and taken in
// turn: how the README's "served in turn" comparisons are made. Keep each
// build with `scripts/keep-build.sh <name>` (after `npm run build -w web` at
// the code to compare), then
//   JUMPHASH_BUILDS=before,after npx --prefix e2e playwright test --config e2e/bench.config.ts builds
// Each build gets a page per worker count (JUMPHASH_WORKERS, default 1,2),
// and the pages take turns for JUMPHASH_ROUNDS rounds (default 20): this
// host has slow spells tens of seconds long, and turns spread them over
// every build alike. With JUMPHASH_LOADS=N (default 1) that is done N
// times on fresh pages, the builds' order reversed every other time, for
// the first report after a page load (round 1 of each load). The report
// is JUMPHASH_REPORT (algorithm, from, to, keys, key count; default the
// short jumpback report: `jumpback,1000,1001,random:10000000:1,10000000`).
// Prints, per build and worker count, the best and median ms from the
// report's start to its reply and to the screen, the first report after
// a load and the later ones apart, and per build the 1 -> 2 workers ratio
// of the bests. Skipped unless JUMPHASH_BUILDS names builds.

const repoDir = fileURLToPath(new URL('../../', import.meta.url));
const keptDir = path.join(repoDir, 'build/ab');
const servedDir = path.join(repoDir, 'web/dist/ab');

const builds = (process.env['JUMPHASH_BUILDS'] ?? '').split(',').filter(Boolean);
const workerCounts = (process.env['JUMPHASH_WORKERS'] ?? '1,2').split(',').map(Number);
const rounds = Number(process.env['JUMPHASH_ROUNDS'] ?? 20);
const loads = Number(process.env['JUMPHASH_LOADS'] ?? 1);
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
  if (!(Number.isInteger(loads) && loads >= 1)) throw new Error(`JUMPHASH_LOADS must be a whole number >= 1, got ${process.env['JUMPHASH_LOADS']}`);
  if (![report.algo, report.keys, report.count].every(Boolean) || !(report.from >= 1 && report.to >= 1)) {
    throw new Error(`JUMPHASH_REPORT must be algorithm,from,to,keys,key count (e.g. jumpback,1000,1001,random:10000000:1,10000000), got ${process.env['JUMPHASH_REPORT']}`);
  }
  test.setTimeout(loads * (120_000 + rounds * builds.length * workerCounts.length * 30_000));
  // vite preview serves web/dist: each kept build under ab/<name>/ there.
  rmSync(servedDir, { recursive: true, force: true });
  mkdirSync(servedDir, { recursive: true });
  for (const name of builds) cpSync(path.join(keptDir, name), path.join(servedDir, name), { recursive: true });
  // Served only while this runs: `npm start` serves web/dist as it is.
  try {
    // Per build and worker count, every load's replies and times to the screen, in round order.
    const results: { label: string; build: string; workers: number; reply: number[][]; screen: number[][] }[] = [];
    for (const build of builds) {
      for (const workers of workerCounts) {
        results.push({ label: `${build}, ${workersText(workers)}`, build, workers, reply: [], screen: [] });
      }
    }
    for (let load = 0; load < loads; load++) {
      // Every other load opens the builds in reverse, so that neither always goes first.
      const order = load % 2 === 0 ? results : [...results].reverse();
      const pages: { each: (typeof results)[number]; page: Page; reply: number[]; screen: number[] }[] = [];
      for (const each of order) {
        pages.push({ each, page: await openPage(context, report, each.workers, `./ab/${each.build}/`), reply: [], screen: [] });
      }
      for (let round = 0; round < rounds; round++) {
        for (const open of pages) {
          const times = await reportMs(open.page, report);
          open.reply.push(times.reply);
          open.screen.push(times.report);
        }
      }
      for (const open of pages) {
        open.each.reply.push(open.reply);
        open.each.screen.push(open.screen);
        await open.page.close();
      }
    }
    const pageWord = loads === 1 ? 'a page each' : `${loads} fresh pages each`;
    const lines = [`${report.name}, ${rounds} rounds taken in turn on ${pageWord}; ms from the report's start: best / median to the reply, best / median to the screen`, ''];
    for (const each of results) {
      const reply = each.reply.flat();
      const screen = each.screen.flat();
      lines.push(`${each.label}: reply ${Math.min(...reply)} / ${median(reply)}, screen ${Math.min(...screen)} / ${median(screen)}`);
    }
    if (loads > 1) {
      lines.push('', 'The first report after a page load, and the later ones: median (best-worst) ms to the reply');
      for (const each of results) {
        const first = each.reply.map((replies) => replies[0]!);
        const later = each.reply.flatMap((replies) => replies.slice(1));
        const laterText = later.length > 0 ? `; later ${median(later)} (${Math.min(...later)}-${Math.max(...later)})` : '';
        lines.push(`${each.label}: first ${median(first)} (${Math.min(...first)}-${Math.max(...first)})${laterText}`);
      }
    }
    for (const build of builds) {
      const one = results.find((each) => each.build === build && each.workers === 1);
      const two = results.find((each) => each.build === build && each.workers === 2);
      if (one && two) {
        const ratio = (key: 'reply' | 'screen') => (Math.min(...one[key].flat()) / Math.min(...two[key].flat())).toFixed(2);
        lines.push(`${build}: 1 -> 2 workers, best against best: ${ratio('screen')}x to the screen (${ratio('reply')}x to the reply)`);
      }
    }
    lines.push('', 'Every reply (ms), in round order, a load a line:', ...results.flatMap((each) => each.reply.map((replies) => `${each.label}: ${replies.join(' ')}`)));
    console.log(lines.join('\n'));
  } finally {
    rmSync(servedDir, { recursive: true, force: true });
  }
});
