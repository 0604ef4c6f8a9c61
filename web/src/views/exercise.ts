// Exercise console: the command language in an editor, run by the same
// interpreter as the native CLI (through WebAssembly, in a worker), output
// byte for byte as the CLI prints it.

import exerciseScript from '../../../examples/exercise.txt?raw';
import { CancelledError, EngineError, engine } from '../engine/client';
import type { CheckReply, RunReply } from '../engine/protocol';
import { field, progressPanel } from '../ui/controls';
import { download, grouped, h } from '../ui/dom';
import type { ScriptEditor, ScriptError } from '../ui/editor';
import { DEFAULT_SCRIPT } from '../urlState';
import type { AppContext, ViewInstance } from './context';

export const PRESETS: { name: string; script: string }[] = [
  { name: 'The exercise (examples/exercise.txt)', script: exerciseScript },
  { name: 'The playground’s default script', script: DEFAULT_SCRIPT },
  {
    name: '10 → 12 buckets on 10,000 keys',
    script: '# Growing 10 -> 12 moves about 1/6 of the keys, all to buckets 10 and 11.\nKEYS 0..9999\nMOVED 10 12\nLOAD 12\n',
  },
  {
    name: '16 → 4 with jumpback and jumpback-indep',
    script:
      '# Shrinking 16 -> 4: where do the keys of buckets 4..15 go?\n# Compare LOAD 4 of both and the destinations in MOVED.\nKEYS 0..39\nALGO jumpback\nMOVED 16 4\nALGO jumpback-indep\nMOVED 16 4\n',
  },
  {
    name: 'Strings as keys',
    script:
      '# A "quoted string" is the key XXH3-64 of its UTF-8 bytes.\nHASH "alice" 100\nHASH "say \\"hi\\"" 100\nHASH "café" 100\nKEYS "alice" "bob" "carol" "dave" "eve"\nBUCKETS 10\nMOVED 10 12\n',
  },
  {
    name: 'Common mistakes (errors)',
    script:
      '# Each failing line is marked and has no effect.\nHASH -1 100\nHASH 18446744073709551616 100\nHASH 42 0\nALGO ring\nKEYS 9..3\nHASH 42 100\n',
  },
];

/** Output shown in the page before it says "download for the rest". */
/** Laying out more text than this in one <pre> would block the page. */
export const MAX_SHOWN_OUTPUT = 1024 * 1024;

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export function parseErrors(stderr: string): ScriptError[] {
  const errors: ScriptError[] = [];
  for (const line of stderr.split('\n')) {
    const match = /^line (\d+): error: (.*)$/.exec(line);
    if (match) errors.push({ line: Number(match[1]), message: match[2]! });
  }
  return errors;
}

export function exerciseView(context: AppContext): ViewInstance {
  const { state } = context;
  const editorHost = h('div', { class: 'editor-host' });
  const editorLoading = h('p', { class: 'muted' }, 'Loading the editor…');
  const output = h('pre', { class: 'output', 'data-testid': 'exercise-output', tabindex: 0, 'aria-label': 'Output' });
  const outputNote = h('p', { class: 'hint' });
  const errors = h('ul', { class: 'script-errors', 'aria-label': 'Errors' });
  const status = h('p', { class: 'status', role: 'status' });
  const progress = progressPanel();
  let editor: ScriptEditor | null = null;
  let lastOutput: RunReply | null = null;
  let generation = 0;

  const runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run' }, 'Run', h('kbd', {}, 'Ctrl+Enter'));
  const downloadButton = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Download output');
  const presetSelect = h(
    'select',
    { id: 'preset' },
    h('option', { value: '' }, 'Choose a preset…'),
    ...PRESETS.map((preset, i) => h('option', { value: String(i) }, preset.name)),
  );

  async function run(): Promise<void> {
    const current = ++generation;
    engine.jobs.cancel();
    const script = editor ? editor.text() : state.script;
    status.textContent = 'Running…';
    progress.start('Running the script…');
    const started = performance.now();
    try {
      const result = await engine.jobs.request({ kind: 'run', script });
      if (current !== generation) return;
      progress.finish('');
      show(result, performance.now() - started);
    } catch (error) {
      if (current !== generation) return;
      progress.finish(error instanceof CancelledError ? 'Cancelled.' : '');
      status.textContent = error instanceof CancelledError ? 'Cancelled: no output.' : String(error);
      output.textContent = '';
    }
  }
  progress.onCancel = () => engine.jobs.cancel();

  function show(result: RunReply, ms: number): void {
    lastOutput = result;
    downloadButton.disabled = false;
    if (result.stdout.length > MAX_SHOWN_OUTPUT) {
      output.textContent = result.stdout.slice(0, MAX_SHOWN_OUTPUT);
      outputNote.textContent = `The output has ${grouped(result.stdout.length)} characters; the first ${grouped(MAX_SHOWN_OUTPUT)} are shown. Download has all of it.`;
    } else {
      output.textContent = result.stdout;
      outputNote.textContent = '';
    }
    const parsed = parseErrors(result.stderr);
    errors.replaceChildren(
      ...parsed.map((error) => {
        const jump = h('button', { type: 'button', class: 'link' }, `line ${error.line}`);
        jump.addEventListener('click', () => editor?.focusLine(error.line));
        return h('li', { 'data-testid': 'error' }, jump, `: error: ${error.message}`);
      }),
    );
    editor?.markErrors(parsed);
    const lines = countLines(result.stdout);
    status.textContent =
      `Exit status ${result.exitCode}: ${grouped(lines)} output line${lines === 1 ? '' : 's'}` +
      (parsed.length ? `, ${parsed.length} failing line${parsed.length === 1 ? '' : 's'}` : '') +
      ` (${(ms / 1000).toFixed(2)} s).`;
  }

  runButton.addEventListener('click', () => void run());
  downloadButton.addEventListener('click', () => {
    if (lastOutput) download('jumphash-output.txt', lastOutput.stdout);
  });
  presetSelect.addEventListener('change', () => {
    const preset = PRESETS[Number(presetSelect.value)];
    if (!presetSelect.value || !preset) return;
    state.script = preset.script;
    context.changed();
    editor?.setText(preset.script);
    presetSelect.value = '';
    void run();
  });

  if (context.embedded) {
    const code = h('pre', { class: 'script', 'aria-label': 'Script' }, state.script);
    const root = h('section', { class: 'view' }, h('h2', { class: 'visually-hidden' }, 'Script and output'), code, status, errors, output, outputNote, progress.root);
    void run();
    return { root, destroy: () => engine.jobs.cancel() };
  }

  void import('../ui/editor').then(({ createEditor }) => {
    editorLoading.remove();
    editor = createEditor({
      host: editorHost,
      text: state.script,
      label: 'Script in the command language',
      onChange: (text) => {
        state.script = text;
        context.changed();
      },
      onRun: () => void run(),
    });
    if (lastOutput) editor.markErrors(parseErrors(lastOutput.stderr));
  });

  // The checker: compare a program's output with the script's, line by line,
  // and name the classic mistake that reproduces each wrong value.
  const outputField = field({
    label: 'Your program’s output',
    name: 'output',
    value: state.output,
    multiline: true,
    width: 'wide',
    hint: 'Paste what your implementation printed for this script; Check compares it line by line with the right output.',
    onInput: (value) => {
      state.output = value;
      context.changed();
    },
  });
  const checkButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'check' }, 'Check');
  const checkResult = h('div', { class: 'check-result', 'data-testid': 'check-result', 'aria-live': 'polite' });
  let checkGeneration = 0;
  async function check(): Promise<void> {
    const current = ++checkGeneration;
    outputField.setError(null);
    checkResult.replaceChildren(h('p', { class: 'muted' }, 'Checking…'));
    try {
      const result = await engine.quick.request({ kind: 'check', script: editor ? editor.text() : state.script, output: state.output });
      if (current === checkGeneration) showCheck(result);
    } catch (error) {
      if (current !== checkGeneration) return;
      checkResult.replaceChildren();
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof EngineError && error.field === 'output') outputField.setError(message);
      else checkResult.replaceChildren(h('p', { class: 'field-error', 'data-testid': 'error' }, message));
    }
  }
  function showCheck(result: CheckReply): void {
    const summary = h(
      'p',
      { class: result.allMatch ? 'check-summary ok' : 'check-summary bad', 'data-testid': 'check-summary' },
      result.allMatch
        ? `✓ All ${grouped(result.expectedLines)} lines match.`
        : `✗ ${grouped(result.matching)} of ${grouped(result.expectedLines)} expected lines match (your output has ${grouped(result.actualLines)} lines).`,
    );
    const problems = result.lines.filter((line) => line.verdict !== 'match');
    const shown = problems.slice(0, 200);
    const items = shown.map((line) => {
      const where =
        line.verdict === 'extra'
          ? `your line ${line.actualLine}: extra line`
          : `expected line ${line.expectedLine}: ${line.verdict.replace(/-/g, ' ')}`;
      const jump = line.scriptLine
        ? h('button', { type: 'button', class: 'link' }, `script line ${line.scriptLine}`)
        : null;
      jump?.addEventListener('click', () => editor?.focusLine(line.scriptLine));
      return h(
        'li',
        { class: 'check-line', 'data-verdict': line.verdict },
        h('p', {}, h('strong', {}, where), jump ? ' (' : '', jump, line.command ? h('code', {}, ` ${line.command}`) : '', jump ? ')' : ''),
        h('pre', { class: 'diff' }, `expected: ${line.expected || '(no line)'}\nyours:    ${line.actual || '(no line)'}`),
        line.formatProblem ? h('p', {}, `Format: ${line.formatProblem}.`) : null,
        line.diagnoses.length === 0 && line.verdict === 'wrong-value' ? h('p', { class: 'muted' }, 'No known mistake gives exactly this value.') : null,
        ...line.diagnoses.map((d) =>
          h(
            'div',
            { class: 'diagnosis', 'data-diagnosis': d.id },
            h('p', {}, h('strong', {}, d.id), `: ${d.detail}`),
            h('p', {}, d.explanation),
            h('p', {}, h('em', {}, 'Fix: '), d.fix),
          ),
        ),
      );
    });
    const parts: Node[] = [summary];
    if (result.scriptErrors.length) {
      parts.push(h('p', { class: 'hint' }, `The script itself has ${result.scriptErrors.length} failing line(s); the expected output is what the other lines print.`));
    }
    if (items.length) parts.push(h('ol', { class: 'check-lines' }, ...items));
    if (problems.length > shown.length) {
      parts.push(h('p', { class: 'hint' }, `The first ${shown.length} of ${grouped(problems.length)} differences are listed.`));
    }
    checkResult.replaceChildren(...parts);
  }
  checkButton.addEventListener('click', () => void check());
  const checker = h(
    'section',
    { class: 'checker', 'aria-labelledby': 'checker-title' },
    h('h3', { id: 'checker-title' }, 'Check your program’s output'),
    h('div', { class: 'inputs' }, outputField.root),
    h('div', { class: 'toolbar' }, checkButton),
    checkResult,
  );
  if (state.output) void check();

  const reference = h(
    'details',
    { class: 'reference' },
    h('summary', {}, 'The command language'),
    h(
      'pre',
      {},
      [
        'ALGO <name>          later commands use that algorithm (default jump)',
        'HASH <key> <n>       prints "<key>: <bucket>"',
        'KEYS <spec>...       replaces the key list (keys, A..B, random:COUNT:SEED)',
        'BUCKETS <n>          "<key>: <bucket>" for each current key',
        'MOVED <from> <to>    "<key>: <old> -> <new>" per moved key, then "moved: <count> of <total>"',
        'LOAD <n>             "<bucket>: <count>" for every bucket (n <= 10^6)',
        'TRACE <key> <max>    "<n>: <bucket>" where the bucket changes, n <= max',
        '# comment            keywords are case-insensitive',
      ].join('\n'),
    ),
  );

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Exercise console: run the command language exactly as the CLI does'),
    h(
      'div',
      { class: 'toolbar' },
      runButton,
      h('div', { class: 'field inline' }, h('label', { for: 'preset' }, 'Preset'), presetSelect),
      downloadButton,
    ),
    h('div', { class: 'console' }, h('div', { class: 'pane' }, h('h3', {}, 'Script'), editorLoading, editorHost, reference), h('div', { class: 'pane' }, h('h3', {}, 'Output'), status, errors, progress.root, output, outputNote)),
    checker,
  );
  void run();
  return {
    root,
    destroy: () => {
      generation++;
      engine.jobs.cancel();
      editor?.view.destroy();
    },
  };
}
