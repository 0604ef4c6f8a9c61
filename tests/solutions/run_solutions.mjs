// The exercise's starter programs and test solutions against the real CLI.
//
//   node tests/solutions/run_solutions.mjs <path to the jumphash CLI>
//
// Assembles each solution of this directory with its starter
// (web/src/workspace/starters/), runs it (JavaScript in a fresh node:vm
// context with `input` and `console`, Python as `python3` with the script on
// standard input) and checks:
//   - reference.js and reference.py print byte for byte what the CLI prints on
//     the exercise, on 64-bit keys, on string keys of every length class and
//     on bad input (there also failing on the same lines as the CLI);
//   - the unmodified starters run to the end and print TODO errors that name
//     the function to write, and report bad input as `line N: error: ...`;
//   - `jumphash check` names js-number and integer-division on the outputs of
//     js-number.js and integer-division.js (on the exercise, on every line it
//     reports);
//   - no-wrap.py prints the line before the hang and is still running after 3 s.
// One line per check; exit 0 only if every check passes. Node 20 or newer,
// python3, no npm packages.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { format } from 'node:util';
import vm from 'node:vm';

import { assemble } from './assemble.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const cli = process.argv[2];
if (!cli || !existsSync(cli)) {
  console.error('usage: node tests/solutions/run_solutions.mjs <path to the jumphash CLI>');
  console.error(cli ? `no file at ${cli}` : 'the CLI path is missing');
  process.exit(2);
}

const starters = {
  js: readFileSync(join(root, 'web/src/workspace/starters/starter.js'), 'utf8'),
  py: readFileSync(join(root, 'web/src/workspace/starters/starter.py'), 'utf8'),
};
const solution = (name) => readFileSync(join(here, name), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'jumphash-solutions-'));
const RUN_TIMEOUT_MS = 60000;

let passed = 0;
let failed = 0;

/** Prints one check's line: ok or FAIL, its name, its time and, on failure, why. */
function report(name, milliseconds, problem) {
  const time = milliseconds === undefined ? '' : ` (${Math.round(milliseconds)} ms)`;
  if (problem) {
    failed++;
    console.log(`FAIL ${name}${time}\n     ${problem.split('\n').join('\n     ')}`);
  } else {
    passed++;
    console.log(`ok   ${name}${time}`);
  }
}

// ----- The scripts -----

/** Deterministic bytes for the string keys: SplitMix64 from a fixed start. */
function* pseudoRandom(start) {
  let state = start;
  for (;;) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    yield Number((z ^ (z >> 31n)) & 0xffffn);
  }
}

/** A quoted key token whose string has exactly `bytes` UTF-8 bytes, all ASCII, with escapes. */
function asciiStringToken(bytes, random) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 #:._-"\\';
  let token = '"';
  for (let i = 0; i < bytes; i++) {
    const c = alphabet[random.next().value % alphabet.length];
    token += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return `${token}"`;
}

function stringsScript() {
  const random = pseudoRandom(20140606n);
  const lines = ['# String keys: XXH3-64 of every length class (0, 1-3, 4-8, 9-16, 17-128, 129-240, long)'];
  const lengths = [];
  for (let length = 0; length <= 300; length++) lengths.push(length);
  lengths.push(1000, 1023, 1024, 1025, 1088, 2048, 2049, 4113, 5000);
  for (const length of lengths) lines.push(`HASH ${asciiStringToken(length, random)} 2147483647`);
  // Non-ASCII: 2-, 3- and 4-byte UTF-8 sequences, short and long.
  const unicode = ['é', '中', '😀', 'ü€😀a', 'Grüße, 世界! 🌍', 'ñ'.repeat(100), '日本語'.repeat(30), '🎉'.repeat(300)];
  for (const text of unicode) lines.push(`HASH "${text}" 2147483647`);
  lines.push('HASH "say \\"hi\\"" 2147483647', 'HASH "back\\\\slash" 2147483647', 'HASH "a # not a comment" 1000');
  lines.push('KEYS "alpha" "beta" 0x10 "γάμμα" "" 7..9 "tab\there"');
  lines.push('BUCKETS 2147483647', 'MOVED 10 11', 'LOAD 5', 'TRACE "user:42" 2147483647');
  return `${lines.join('\n')}\n`;
}

const SIXTY_FOUR_BIT_SCRIPT = `# 64-bit keys: above 2^53, at the top of the range, hex, ranges, random sets
HASH 9007199254740993 1000            # 2^53 + 1: a double would round it
HASH 18446744073709551615 100         # 2^64 - 1
HASH 18446744073709551615 2147483647
HASH 0xFFFFFFFFFFFFFFFF 1
HASH 0x8000000000000000 12345
HASH 0X00ab 10
HASH 00000000000000000000042 100      # leading zeros
HASH 9223372036854775807 2147483647   # 2^63 - 1
hash 1 2                              # keywords ignore case
KEYS 18446744073709551600..18446744073709551615 0xFFFFFFFFFFFFFF00..0xffffffffffffff0f 9007199254740990..9007199254740999
BUCKETS 1000
BUCKETS 2147483647
MOVED 1000 1001
KEYS random:2000:7
BUCKETS 2147483647
LOAD 37
MOVED 100 137                         # grow
MOVED 137 100                         # shrink
MOVED 10 10
KEYS random:5:0xFFFFFFFFFFFFFFFF random:3:18446744073709551615 0..3 random:0:1
BUCKETS 7
LOAD 1
TRACE 18446744073709551615 2147483647
TRACE 9007199254740993 1000000
TRACE 0 1
TRACE 42 800
KEYS
MOVED 3 4                             # no keys: moved: 0 of 0
LOAD 3
`;

/** Bad input on which the starter and the CLI fail on the same lines; the good lines between still run. */
const ERRORS_SCRIPT = `KEYS 1..3
HASH abc 10
HASH 42 0
HASH 42 2147483648
HASH 18446744073709551616 10
HASH 0x 10
HASH 0x12345678901234567 10
HASH -1 10
HASH 1.5 10
FROB 1 2
HASH 42 100
HASH
HASH 1 2 3
KEYS 5..3
KEYS 1..2 random:10
KEYS random:-1:5
KEYS "abc
KEYS 0..999999999 0..1
KEYS random:5:1..3
KEYS abc
BUCKETS 10
BUCKETS 1 2
HASH "a\\q" 5
HASH "a"b 5
HASH a"b 5
LOAD 1000001
LOAD 0
TRACE 42 0
TRACE 42
MOVED 10
MOVED 0 5
MOVED
MOVED 10 12
ALGO
ALGO nosuch
ALGO jump x=1
ALGO JUMP
HASH 42 100
`;

/** Commands of the full language that the exercise leaves out, and bad input, for the starters alone. */
const NOT_IN_EXERCISE_SCRIPT = `HASH abc 10
HASH 42 0
FROB 1 2
KEYS 1..3
BUCKETS 10
ALGO jumpback
NODES a b c
REMOVE a
ADD d
HASH 42
BUCKETS
LOAD
MOVED -a
`;

const scripts = {
  exercise: readFileSync(join(root, 'tests/check/exercise.script'), 'utf8'),
  '64-bit': SIXTY_FOUR_BIT_SCRIPT,
  strings: stringsScript(),
  errors: ERRORS_SCRIPT,
};
const scriptFile = (name) => join(work, `${name}.script`);
for (const [name, text] of Object.entries(scripts)) writeFileSync(scriptFile(name), text);

// ----- Running programs -----

/** Runs the jumphash CLI; stdout and stderr as text. */
function runCli(args) {
  const result = spawnSync(cli, args, { encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status, error: result.error };
}

/**
 * Runs a JavaScript program as the page does: the script in the global
 * `input`, console.log to stdout and console.error to stderr.
 */
function runJs(program, input) {
  const stdout = [];
  const stderr = [];
  const console = {
    log: (...values) => stdout.push(format(...values)),
    error: (...values) => stderr.push(format(...values)),
  };
  const context = vm.createContext({ console, input });
  let crash = null;
  try {
    vm.runInContext(program, context, { filename: 'starter.js', timeout: RUN_TIMEOUT_MS });
  } catch (error) {
    crash = error;
  }
  const text = (lines) => lines.map((line) => `${line}\n`).join('');
  return { stdout: text(stdout), stderr: text(stderr), crash };
}

/** Runs a Python program with the script on standard input. */
function runPython(program, input) {
  const file = join(work, 'program.py');
  writeFileSync(file, program);
  const result = spawnSync('python3', [file], {
    input,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    env: { ...process.env, PYTHONIOENCODING: 'utf-8' },
  });
  const crash =
    result.error ?? (result.status !== 0 || /Traceback/.test(result.stderr) ? `exit ${result.status}` : null);
  return { stdout: result.stdout, stderr: result.stderr, crash };
}

const run = { js: runJs, py: runPython };

/** Where two texts first differ, for a failure message. */
function firstDifference(actual, expected) {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) {
      return `first difference at output line ${i + 1}:\n  expected: ${JSON.stringify(e[i])}\n  actual:   ${JSON.stringify(a[i])}`;
    }
  }
  return 'the texts differ';
}

/** The script line numbers of `line N: error: ...` lines, and any other stderr lines. */
function errorLines(stderr) {
  const numbers = [];
  const other = [];
  for (const line of stderr.split('\n').filter((l) => l !== '')) {
    const match = /^line (\d+): error: .+/.exec(line);
    if (match) numbers.push(Number(match[1]));
    else other.push(line);
  }
  return { numbers, other };
}

/** A short form of an error message for a failure message. */
const head = (text) => (text.length > 400 ? `${text.slice(0, 400)}...` : text);

// ----- The checks -----

const cliOutputs = {};
for (const name of Object.keys(scripts)) {
  const started = performance.now();
  const result = runCli([scriptFile(name)]);
  cliOutputs[name] = result;
  const expectedStatus = name === 'errors' ? 1 : 0;
  report(
    `the CLI runs the ${name} script`,
    performance.now() - started,
    result.error || result.status !== expectedStatus
      ? `exit ${result.status}, expected ${expectedStatus}: ${head(result.stderr ?? String(result.error))}`
      : null,
  );
}

// assemble keeps the starter around the region and both marker lines.
{
  let problem = null;
  for (const [language, starter] of Object.entries(starters)) {
    const marker = language === 'js' ? '//' : '#';
    const code = language === 'js' ? solution('reference.js') : solution('reference.py');
    const program = assemble(starter, code);
    const begin = `${marker} ===== BEGIN YOUR CODE =====\n`;
    const end = `${marker} ===== END YOUR CODE =====\n`;
    const before = starter.slice(0, starter.indexOf(begin) + begin.length);
    const after = starter.slice(starter.indexOf(end));
    if (program !== before + code + after) problem = `assemble(starter.${language}, reference) is not starter + region`;
    let threw = false;
    try {
      assemble(code, 'x');
    } catch {
      threw = true;
    }
    if (!threw) problem = 'assemble accepted a text without marker lines';
  }
  report('assemble replaces the region between the marker lines and keeps them', undefined, problem);
}

// The references print exactly what the CLI prints, and fail on the same lines.
for (const [language, file] of [
  ['js', 'reference.js'],
  ['py', 'reference.py'],
]) {
  const program = assemble(starters[language], solution(file));
  for (const name of Object.keys(scripts)) {
    const started = performance.now();
    const result = run[language](program, scripts[name]);
    const elapsed = performance.now() - started;
    const expected = cliOutputs[name];
    let problem = null;
    if (result.crash) {
      problem = `crashed: ${head(String(result.crash))}\n${head(result.stderr)}`;
    } else if (result.stdout !== expected.stdout) {
      problem = `stdout differs from the CLI's\n${firstDifference(result.stdout, expected.stdout)}`;
    } else {
      const mine = errorLines(result.stderr);
      const theirs = errorLines(expected.stderr);
      if (mine.other.length > 0) {
        problem = `stderr has lines that are not "line N: error: ...": ${head(mine.other.join(' | '))}`;
      } else if (mine.numbers.join() !== theirs.numbers.join()) {
        problem = `errors on script lines [${mine.numbers}], the CLI's on [${theirs.numbers}]`;
      }
    }
    const lines = expected.stdout.split('\n').length - 1;
    const errors = errorLines(expected.stderr).numbers.length;
    report(
      `${file} on the ${name} script: stdout identical to the CLI (${lines} lines), errors on the same ${errors} lines`,
      elapsed,
      problem,
    );
  }
}

// The unmodified starters run to the end and say which function to write.
const TODO_SCRIPT = `${scripts.exercise}LOAD 5\n`;
const todoFunctions = {
  js: { HASH: 'jumpHash', BUCKETS: 'reportBuckets', MOVED: 'reportMoved', LOAD: 'reportLoad', TRACE: 'reportTrace' },
  py: { HASH: 'jump_hash', BUCKETS: 'report_buckets', MOVED: 'report_moved', LOAD: 'report_load', TRACE: 'report_trace' },
};
for (const language of ['js', 'py']) {
  const started = performance.now();
  const result = run[language](starters[language], TODO_SCRIPT);
  const elapsed = performance.now() - started;
  let problem = result.crash ? `crashed: ${head(String(result.crash))}\n${head(result.stderr)}` : null;
  const errors = result.stderr.split('\n').filter((l) => l !== '');
  const scriptLines = TODO_SCRIPT.split('\n');
  for (const [number, line] of scriptLines.entries()) {
    const command = line.split(' ')[0];
    const name = todoFunctions[language][command];
    if (!name || problem) continue;
    const prefix = `line ${number + 1}: error: TODO: write ${name}(`;
    if (!errors.some((error) => error.startsWith(prefix))) {
      problem = `no "${prefix}..." for script line ${number + 1} (${line}); stderr:\n${head(result.stderr)}`;
    }
  }
  if (!problem && result.stdout !== '') problem = `printed without a solution: ${head(result.stdout)}`;
  report(
    `the unmodified starter.${language} runs every line and prints a TODO naming ${Object.values(todoFunctions[language]).join(', ')}`,
    elapsed,
    problem,
  );
}

// Bad input and commands outside the exercise: one clear error each, and the run goes on.
const expectedStarterErrors = [
  [1, /'abc' is not a key \(a key is a decimal integer 0\.\.18446744073709551615, 0x followed by 1 to 16 hex digits, or a "quoted string"\)$/],
  [2, /bucket count must be an integer in 1\.\.2147483647 \(got '0'\)$/],
  [3, /unknown command 'FROB' \(known: ALGO, HASH, KEYS, BUCKETS, MOVED, LOAD, TRACE\)$/],
  [5, /TODO: write (reportBuckets|report_buckets)\(/],
  [6, /algorithm 'jumpback' is not part of this exercise, which computes jump only/],
  [7, /NODES works on a node list, which is not part of this exercise/],
  [8, /REMOVE works on a node list, which is not part of this exercise/],
  [9, /ADD works on a node list, which is not part of this exercise/],
  [10, /HASH <key> without n places the key on a node list, which is not part of this exercise \(write HASH <key> <n>\)/],
  [11, /BUCKETS without n places keys on a node list, which is not part of this exercise/],
  [12, /LOAD without n counts keys on a node list, which is not part of this exercise/],
  [13, /MOVED -a edits a node list .*, which is not part of this exercise \(write MOVED <from> <to>\)/],
];
for (const language of ['js', 'py']) {
  const started = performance.now();
  const result = run[language](starters[language], NOT_IN_EXERCISE_SCRIPT);
  const elapsed = performance.now() - started;
  let problem = result.crash ? `crashed: ${head(String(result.crash))}` : null;
  const errors = result.stderr.split('\n').filter((l) => l !== '');
  if (!problem && errors.length !== expectedStarterErrors.length) {
    problem = `${errors.length} error lines, expected ${expectedStarterErrors.length}:\n${head(result.stderr)}`;
  }
  for (const [index, [number, pattern]] of expectedStarterErrors.entries()) {
    if (problem) break;
    const prefix = `line ${number}: error: `;
    if (!errors[index]?.startsWith(prefix) || !pattern.test(errors[index].slice(prefix.length))) {
      problem = `expected "${prefix}" matching ${pattern}, got: ${errors[index]}`;
    }
  }
  report(
    `starter.${language} on bad input (bad key, n = 0, unknown command) and node-list commands: line N: error: ..., and the run goes on`,
    elapsed,
    problem,
  );
}

// The classic mistakes, diagnosed by `jumphash check`. On the exercise script
// every reported line must name the mistake. On the 64-bit script, every
// reported HASH and BUCKETS line (one per key, so always paired with its own
// key): the checker does not diagnose LOAD lines, and when the moved key sets
// differ it pairs MOVED lines of different keys.
const DIAGNOSED_EVERYWHERE = { exercise: /./, '64-bit': /^[^\n]*script line \d+: (HASH|BUCKETS)\b/i };
for (const [file, mistake] of [
  ['js-number.js', 'js-number'],
  ['integer-division.js', 'integer-division'],
]) {
  for (const [name, scope] of Object.entries(DIAGNOSED_EVERYWHERE)) {
    const started = performance.now();
    const result = runJs(assemble(starters.js, solution(file)), scripts[name]);
    let problem = result.crash ? `crashed: ${head(String(result.crash))}` : null;
    let summary = '';
    if (!problem) {
      const outputFile = join(work, `${mistake}.${name}.output`);
      writeFileSync(outputFile, result.stdout);
      const checked = runCli(['check', scriptFile(name), outputFile]);
      const text = checked.stdout ?? '';
      summary = (/^checked: .*$/m.exec(text) ?? ['(no summary)'])[0];
      // Each reported line starts a block ("expected line ..." or "actual line ...").
      const blocks = text
        .split(/^(?=expected line |actual line )/m)
        .filter((block) => /^(expected|actual) line /.test(block) && scope.test(block));
      const unexplained = blocks.filter((block) => !block.includes(`\n  ${mistake}: `));
      if (checked.status !== 1) problem = `jumphash check exited ${checked.status}, expected 1: ${head(checked.stderr)}`;
      else if (blocks.length === 0) problem = `jumphash check reports no wrong line in scope: ${summary}`;
      else if (unexplained.length > 0) {
        problem = `${unexplained.length} of ${blocks.length} reported lines do not name ${mistake}:\n${head(unexplained[0])}`;
      } else {
        summary += `; ${blocks.length} reported lines checked`;
      }
    }
    const where = name === 'exercise' ? 'every reported line' : 'every reported HASH and BUCKETS line';
    report(
      `${file} on the ${name} script: jumphash check names ${mistake} on ${where} (${summary})`,
      performance.now() - started,
      problem,
    );
  }
}

// No 64-bit wrap in Python: the line before the hang, then no end (and no OverflowError).
{
  const started = performance.now();
  const file = join(work, 'no-wrap.py');
  writeFileSync(file, assemble(starters.py, solution('no-wrap.py')));
  const child = spawn('python3', ['-u', file], { env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
  child.stdin.end('HASH 0 100\nHASH 42 100\nHASH 18446744073709551615 100\n');
  await new Promise((done) => setTimeout(done, 3000));
  const stillRunning = child.exitCode === null && child.signalCode === null;
  child.kill('SIGKILL');
  await exited;
  let problem = null;
  if (!stillRunning) problem = `it ended (exit ${child.exitCode}); stderr: ${head(stderr)}`;
  else if (stdout !== '0: 0\n') problem = `stdout ${JSON.stringify(stdout)}, expected "0: 0\\n"`;
  else if (stderr !== '') problem = `stderr: ${head(stderr)}`;
  report(
    'no-wrap.py prints "0: 0" for HASH 0 100, then hangs on HASH 42 100: still running after 3 s, no error',
    performance.now() - started,
    problem,
  );
}

rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
