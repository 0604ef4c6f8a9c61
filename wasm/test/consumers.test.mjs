// The package as its users get it: `npm pack`, installed from the tarball into
// a temporary project, then used the ways the README shows, with the README's
// own snippets (each starts with a `// <file>` or `<!-- <file> -->` line):
//   Node:     ESM, CommonJS (require), the error messages as the README prints
//             them, the wasmBinary override, and bundles for Node made by
//             esbuild and Rollup, run from the project;
//   Chromium: esbuild and Rollup browser bundles of `jumphash-wasm/inline`,
//             an esbuild bundle of the default entry (the loading error, word
//             for word, with nothing on the console), Vite with the README's
//             worker under Vite's defaults, webpack 5 (no warnings, no
//             absolute path in the output), a plain page with an import map;
//   tsc:      the types of the entries and of the .wasm subpaths.
// Each app checks 92 and 73: jump and jumpback of key 2^64-1 at n = 100.
// The bundlers are the root package's devDependencies (pinned in
// package-lock.json); nothing is downloaded.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CSP, chromium, haveChromium, runInChromium } from './browser/harness.mjs';
import { packageDir } from './helpers.mjs';

const fixtures = fileURLToPath(new URL('./consumers/', import.meta.url));
const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');

/** The README's code blocks that start with a file name, by that name. */
function readmeSnippets() {
  const snippets = new Map();
  for (const [, body] of readme.matchAll(/```\w+\n([\s\S]*?)```/g)) {
    const name = /^(?:\/\/|<!--) (\S+)/.exec(body)?.[1];
    if (name) snippets.set(name, body);
  }
  return snippets;
}
const snippets = readmeSnippets();
function snippet(name) {
  assert.ok(snippets.has(name), `README.md has no snippet starting with "// ${name}"`);
  return snippets.get(name);
}

function run(command, args, cwd, { env = {}, allowFailure = false } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
    timeout: 120000,
  });
  if (!allowFailure) {
    assert.equal(result.status, 0, `${command} ${args.join(' ')} in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

const node = (file, cwd) => run(process.execPath, [file], cwd).stdout;

/** Every file under `dir`, relative paths. */
function walk(dir, prefix = '') {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

const MAX = '18446744073709551615n';
let work; // the temporary folder
let app; // the project, with jumphash-wasm installed from the tarball

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'jumphash-consumers-'));
  const packDir = path.join(work, 'pack');
  app = path.join(work, 'app');
  mkdirSync(packDir);
  mkdirSync(app);
  run('npm', ['pack', '--silent', '--pack-destination', packDir], packageDir);
  const [tarball] = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', path.join(packDir, tarball)], app);
  for (const [name, body] of snippets) writeFileSync(path.join(app, name), body);
  cpSync(path.join(fixtures, 'report.js'), path.join(app, 'report.js'));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('Node', () => {
  test('ESM: the README quick start runs as written and prints what its comments say', () => {
    const lines = node('quickstart.mjs', app).split('\n');
    assert.deepEqual(lines.slice(0, 5), ['92', '73', '9', 'Int32Array(2) [ 549, 338 ]', '42: 43']);
    assert.equal(lines.at(-2), '166566 12 3');
  });

  test('the README\'s node-list example runs as written and prints what its comments say', () => {
    assert.deepEqual(node('nodes.mjs', app).split('\n'), [
      'cache-3 12800', 'ketama 10187 10000', 'memento 10132 10000', 'jump 78896 10000', "{ name: 'big', weight: 2 } 110", '',
    ]);
  });

  test('CommonJS: require() of the package (Node 20.19+)', () => {
    assert.equal(node('main.cjs', app), '73\n');
  });

  test('the wasmBinary override as the README shows it', () => {
    assert.equal(node('options.mjs', app), '92\n');
  });

  test('the README\'s error messages are the real ones, word for word', () => {
    const printed = /```js\n\/\/ errors\.mjs\n[\s\S]*?```\n\nprints\n\n```text\n([\s\S]*?)```/.exec(readme);
    assert.ok(printed, 'README.md: errors.mjs is not followed by "prints" and a text block');
    assert.equal(node('errors.mjs', app), printed[1]);
  });

  test('an esbuild bundle for Node (default entry) runs from the project', async () => {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      absWorkingDir: app, entryPoints: ['quickstart.mjs'], bundle: true, platform: 'node', format: 'esm',
      outfile: 'out/esbuild-node/main.mjs', logLevel: 'silent',
    });
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(node('out/esbuild-node/main.mjs', app).split('\n').slice(0, 2), ['92', '73']);
  });

  test('a Rollup bundle for Node (default entry, @rollup/plugin-node-resolve) runs from the project', async () => {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const warnings = [];
    const bundle = await rollup({ input: path.join(app, 'quickstart.mjs'), plugins: [nodeResolve()], onwarn: (w) => warnings.push(w.message) });
    await bundle.write({ dir: path.join(app, 'out/rollup-node'), format: 'es' });
    await bundle.close();
    assert.deepEqual(warnings, []);
    assert.deepEqual(node('out/rollup-node/quickstart.js', app).split('\n').slice(0, 2), ['92', '73']);
  });
});

describe('types', () => {
  test('tsc: both entries and the .wasm subpaths resolve with their types', () => {
    writeFileSync(path.join(app, 'types.ts'), `
      import { loadJumphash, type Jumphash, type LoadOptions } from 'jumphash-wasm';
      import { loadChecker as loadInlineChecker, loadJumphash as loadInline } from 'jumphash-wasm/inline';
      import wasmUrl from 'jumphash-wasm/jumphash_wasm.wasm';
      import checkerUrl from 'jumphash-wasm/jumphash_checker_wasm.wasm';
      const url: string = wasmUrl;
      const options: LoadOptions = { wasmUrl: url };
      const jh: Jumphash = await loadJumphash(options);
      const inline: Jumphash = await loadInline({ wasmUrl: new URL(checkerUrl) });
      export const answers: number[] = [jh.bucket('jump', 1n, 10), inline.bucket('jump', 1n, 10)];
      export const checker = loadInlineChecker();
    `);
    const tsc = path.join(path.dirname(fileURLToPath(import.meta.resolve('typescript/package.json'))), 'bin/tsc');
    for (const moduleResolution of ['bundler', 'nodenext']) {
      writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'es2022', lib: ['es2022', 'dom'], module: moduleResolution === 'bundler' ? 'esnext' : 'nodenext',
          moduleResolution, strict: true, noEmit: true, types: [],
        },
        files: ['types.ts'],
      }));
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
    }
  });
});

const browserSkip = haveChromium ? false : `no Chromium at ${chromium}`;

/** Opens `page` under `root` in Chromium; the page ends when its text or log matches `until`. */
function openPage(root, page, until, options = {}) {
  return runInChromium(`${page}?until=${encodeURIComponent(until)}`, { root, timeoutMs: 60000, ...options });
}

/** A page that loads report.js, then the app's module `script`. */
function page(dir, script, reportPath = '../report.js') {
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>consumer</title></head>
<body><script type="module" src="${reportPath}"></script><script type="module" src="${script}"></script></body></html>
`);
}

function assertQuiet(report) {
  assert.equal(report.rejection, undefined, JSON.stringify(report.rejection));
  assert.deepEqual(report.consoleCalls.filter((c) => c.level !== 'log'), []);
}

describe('browser (Chromium, strict CSP)', { skip: browserSkip }, () => {
  test('esbuild: browser bundle of jumphash-wasm/inline, with no configuration', async () => {
    const esbuild = await import('esbuild');
    const dir = path.join(app, 'esbuild-inline');
    mkdirSync(dir);
    // The README's command: esbuild inline.js --bundle --format=esm --outdir=out
    const result = await esbuild.build({ absWorkingDir: app, entryPoints: ['inline.js'], bundle: true, format: 'esm', outdir: 'esbuild-inline/out', logLevel: 'silent' });
    assert.deepEqual(result.warnings, []);
    page(dir, './out/inline.js');
    const report = await openPage(app, 'esbuild-inline/', '^jumpback: ');
    assertQuiet(report);
    assert.equal(report.text, 'jumpback: 73');
    assert.deepEqual(walk(path.join(dir, 'out')), ['inline.js']); // nothing to serve beside it
  });

  test('esbuild: a bundle of the default entry rejects with the URL, what came back and the two fixes', async () => {
    const esbuild = await import('esbuild');
    const dir = path.join(app, 'esbuild-default');
    mkdirSync(dir);
    await esbuild.build({ absWorkingDir: app, entryPoints: ['main.js'], bundle: true, format: 'esm', outdir: 'esbuild-default/out', logLevel: 'silent' });
    page(dir, './out/main.js');
    const report = await openPage(app, 'esbuild-default/', '^jump: ');
    assert.deepEqual(report.consoleCalls, []); // nothing printed before the rejection
    assert.equal(report.rejection.name, 'Error');
    assert.equal(report.rejection.message,
      `loadJumphash: could not load jumphash_wasm.wasm from ${report.origin}/esbuild-default/dist/jumphash_wasm.wasm: ` +
      'got HTTP 404 Not Found with an empty body. Fix it either way: import { loadJumphash } from ' +
      "'jumphash-wasm/inline' (the .wasm embedded in the JavaScript, nothing to serve), or serve " +
      'node_modules/jumphash-wasm/dist/jumphash_wasm.wasm yourself and pass its URL, loadJumphash({ wasmUrl }), ' +
      'or its bytes, loadJumphash({ wasmBinary }).');
  });

  test('Rollup: browser bundle of jumphash-wasm/inline (@rollup/plugin-node-resolve)', async () => {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const dir = path.join(app, 'rollup-inline');
    mkdirSync(dir);
    const warnings = [];
    const bundle = await rollup({ input: path.join(app, 'inline.js'), plugins: [nodeResolve({ browser: true })], onwarn: (w) => warnings.push(w.message) });
    await bundle.write({ dir: path.join(dir, 'out'), format: 'es' });
    await bundle.close();
    assert.deepEqual(warnings, []);
    page(dir, './out/inline.js');
    const report = await openPage(app, 'rollup-inline/', '^jumpback: ');
    assertQuiet(report);
    assert.equal(report.text, 'jumpback: 73');
  });

  test('Vite (defaults, no config file): the README\'s worker and page build and answer', async () => {
    const { build } = await import('vite');
    const dir = path.join(app, 'vite');
    mkdirSync(dir);
    cpSync(path.join(app, 'worker.js'), path.join(dir, 'worker.js'));
    cpSync(path.join(app, 'page.js'), path.join(dir, 'page.js'));
    cpSync(path.join(app, 'report.js'), path.join(dir, 'report.js'));
    page(dir, './page.js', './report.js');
    await build({ root: dir, configFile: false, logLevel: 'silent' });
    const built = walk(path.join(dir, 'dist'));
    assert.ok(built.some((f) => /^assets\/jumphash_wasm-.*\.wasm$/.test(f)), built.join(' '));
    const report = await openPage(path.join(dir, 'dist'), '', ' keys moved$');
    assertQuiet(report);
    const logs = report.consoleCalls.map((c) => c.text);
    assert.deepEqual(logs.filter((l) => l.startsWith('jump')).sort(), ['jump: 92 0', 'jumpback: 73 25']);
    assert.deepEqual(logs.filter((l) => l.endsWith('%')), ['35%', '70%']);
    assert.equal(logs.at(-1), '498722 of 3000000 keys moved');
  });

  test('webpack 5 (defaults): no warning, no absolute path in the output, and it answers', async () => {
    const { default: webpack } = await import('webpack');
    const dir = path.join(app, 'webpack');
    mkdirSync(dir);
    const stats = await new Promise((resolve, reject) => {
      webpack({ mode: 'production', context: app, entry: './main.js', output: { path: path.join(dir, 'out') } },
        (error, result) => (error ? reject(error) : resolve(result)));
    });
    const info = stats.toJson({ all: false, warnings: true, errors: true });
    assert.deepEqual(info.errors, []);
    // No warning at all: not about the package's code (webpack used to say
    // "Critical dependency: the request of a dependency is an expression"),
    // and no asset above webpack's 244 KiB hint (every .wasm file is below).
    assert.deepEqual(info.warnings.map((w) => w.message), []);
    const files = walk(path.join(dir, 'out'));
    assert.ok(files.some((f) => f.endsWith('.wasm')), files.join(' '));
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(path.join(dir, 'out', file), 'utf8');
      assert.equal(text.includes(work), false, `${file} contains the build folder ${work}`);
      assert.equal(text.includes('file://'), false, `${file} contains a file:// URL`);
    }
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>webpack</title></head>
<body><script type="module" src="../report.js"></script><script src="./out/main.js"></script></body></html>
`);
    const report = await openPage(app, 'webpack/', '^jump: ');
    assertQuiet(report);
    assert.equal(report.text, 'jump: 92');
  });

  test('a plain page with an import map, as the README shows it', async () => {
    const html = `${snippet('index.html')}<script type="module" src="./report.js"></script>\n`;
    writeFileSync(path.join(app, 'index.html'), html);
    // The README's page has inline scripts: allow exactly those by hash.
    const hashes = [...html.matchAll(/<script type="(?:importmap|module)">([\s\S]*?)<\/script>/g)]
      .map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    assert.equal(hashes.length, 2);
    const csp = CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`);
    const report = await openPage(app, '', '^jump: ', { csp: () => csp });
    assertQuiet(report);
    assert.equal(report.text.trim(), 'jump: 92, jumpback: 73');
  });
});
