// run(script) against the CLI, byte for byte:
//   1. every golden transcript in tests/cli/ whose input is a script (a
//      <name>.script, a .args naming one script file, or "-" with <name>.stdin)
//      must give exactly <name>.stdout, <name>.stderr and <name>.exit;
//   2. when the native CLI is built (build/native/jumphash, or $JUMPHASH_CLI),
//      the same scripts and a few more are also run through it live.
// An .args of -e 'COMMAND' pairs is the script of those lines. Transcripts
// whose .args exercise only the CLI's option handling (two files, --help, a
// missing file, ...) have no script to give run(); they are listed as skipped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { haveNativeCli, jumphash, nativeCli, repoDir, testsDir } from './helpers.mjs';

const jh = await jumphash();
const cliDir = path.join(testsDir, 'cli');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The commands of an .args line made only of -e 'COMMAND' pairs, or null. */
function inlineCommands(args) {
  const commands = [];
  const rest = args.trim().replace(/-e\s+'([^']*)'\s*/g, (_, command) => {
    commands.push(command);
    return '';
  });
  return rest === '' && commands.length > 0 ? commands : null;
}

/** The script file an .args line runs, or null when it is not one script. */
function scriptOfArgs(args, name) {
  const words = args.trim().split(/\s+/);
  if (words.length !== 1) return null;
  const [word] = words;
  if (word === '-') {
    const stdin = path.join(cliDir, `${name}.stdin`);
    return existsSync(stdin) ? stdin : null;
  }
  if (word.startsWith('-') || /['"\\$`]/.test(word)) return null;
  return path.resolve(cliDir, word);
}

function transcripts() {
  // { name, base, script: path or null, text: the script for run() or null }
  const names = existsSync(cliDir)
    ? [...new Set(readdirSync(cliDir).filter((f) => f.endsWith('.stdout')).map((f) => f.slice(0, -7)))].sort()
    : [];
  return names.map((name) => {
    const base = path.join(cliDir, name);
    let script = null;
    if (existsSync(`${base}.script`)) script = `${base}.script`;
    else if (existsSync(`${base}.args`)) {
      const args = readFileSync(`${base}.args`, 'utf8');
      // `jumphash -e A -e B` runs the lines A and B as one script.
      const inline = inlineCommands(args);
      if (inline) return { name, base, script: null, text: inline.map((c) => `${c}\n`).join('') };
      script = scriptOfArgs(args, name);
    }
    script = script && existsSync(script) && statSync(script).isFile() ? script : null;
    return { name, base, script, text: script === null ? null : utf8.decode(readFileSync(script)) };
  });
}

const all = transcripts();
const runnable = all.filter((t) => t.text !== null);

test('tests/cli holds golden transcripts with scripts', () => {
  assert.ok(runnable.length > 0, `no script transcripts found in ${cliDir}`);
});

for (const { name, base, text } of all) {
  const skip = text === null ? 'the CLI options only (no script for run())' : false;
  test(`transcript ${name}: run() gives the golden stdout, stderr and exit status byte for byte`, { skip }, () => {
    const result = jh.run(text);
    assert.equal(Buffer.from(result.stdout, 'utf8').equals(readFileSync(`${base}.stdout`)), true,
      `stdout differs:\n${result.stdout.slice(0, 2000)}`);
    assert.equal(result.stdout, readFileSync(`${base}.stdout`, 'utf8'));
    assert.equal(result.stderr, readFileSync(`${base}.stderr`, 'utf8'));
    assert.equal(String(result.exitCode), readFileSync(`${base}.exit`, 'utf8').trim());
  });
}

// Scripts of our own, beyond the transcripts, for the live comparison.
const extraScripts = {
  'every command, every algorithm': ['jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo']
    .map((a) => `ALGO ${a}\nHASH 18446744073709551615 100\nHASH "caf\u00e9 \\"x\\"" 7\nKEYS 0..30 random:40:9 "a" "b"\nBUCKETS 13\nMOVED 13 9\nMOVED 9 13\nLOAD 17\nTRACE 0xDEADBEEF 100000\n`)
    .join(''),
  'errors without a trailing newline': 'HASH 1 0\nKEYS 5..1\nALGO nope\nFROB\nHASH "x',
  'CRLF and comments': 'ALGO jumpback\r\n# c\r\n\r\n  HASH 42 100 # trailing\r\nKEYS 1..3\r\nBUCKETS 2\r\n',
};

test('the native CLI gives the same bytes as run() on every script', { skip: haveNativeCli ? false : `native CLI not built (${nativeCli})` }, () => {
  const scripts = [
    ...runnable.map((t) => [t.name, t.text]),
    ...Object.entries(extraScripts),
  ];
  for (const [name, script] of scripts) {
    const native = spawnSync(nativeCli, ['-'], { input: script, cwd: repoDir, maxBuffer: 1 << 28 });
    assert.equal(native.error, undefined, `${name}: ${native.error}`);
    const result = jh.run(script);
    assert.equal(result.stdout, native.stdout.toString('utf8'), `${name}: stdout`);
    assert.equal(result.stderr, native.stderr.toString('utf8'), `${name}: stderr`);
    assert.equal(result.exitCode, native.status, `${name}: exit status`);
  }
});

test('the CLI --version transcript names the version this module reports', { skip: existsSync(path.join(cliDir, 'version.stdout')) ? false : 'no version transcript' }, () => {
  assert.equal(readFileSync(path.join(cliDir, 'version.stdout'), 'utf8'), `jumphash ${jh.version}\n`);
});
