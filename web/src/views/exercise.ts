// Exercise console: the command language in an editor, run by the same
// interpreter as the native CLI (through WebAssembly, in a worker), output
// byte for byte as the CLI prints it.

import './exercise.css';
import exerciseScript from '../../../examples/exercise.txt?raw';
import { CancelledError, engine } from '../engine/client';
import { progressPanel } from '../ui/controls';
import { download, grouped, h } from '../ui/dom';
import { StreamedOutput } from '../ui/streamedOutput';
import { virtualText } from '../ui/virtualText';
import type { ScriptEditor, ScriptError } from '../ui/editor';
import { DEFAULT_SCRIPT } from '../url';
import type { Workspace, WorkspaceOptions } from '../workspace/workspace';
import type { CheckerOptions, CheckerPanel } from './checker';
import { PROBLEMS, type Problem, findProblem } from './checkerProblems';
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
/** While a run streams, its line count is redrawn at most this often (ms). */
const LABEL_EVERY_MS = 250;

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

/** The problem sets as a preset group: "Problem: Key 42 (output hidden)". */
function problemOptions(): HTMLOptGroupElement {
  return h(
    'optgroup',
    { label: 'Problems (expected output hidden)' },
    ...PROBLEMS.map((problem) => h('option', { value: `problem:${problem.id}` }, `Problem: ${problem.title}`)),
  );
}

/**
 * The Exercise view: the console, or a problem set (state.problem) with its
 * expected output hidden. Switching between the two mounts the other inside
 * the same view.
 */
export function exerciseView(context: AppContext): ViewInstance {
  const host = h('div', { class: 'exercise-host' });
  let inner: ViewInstance | null = null;
  const mount = () => {
    inner?.destroy();
    const problem = context.state.problem ? findProblem(context.state.problem) : undefined;
    if (problem) context.state.script = problem.script;
    inner = problem && !context.embedded ? problemView(context, problem, switchTo) : consoleView(context, switchTo);
    host.replaceChildren(inner.root);
  };
  /** Opens a problem set by id, or the console with '' (keeping the problem's script). */
  const switchTo = (id: string) => {
    const problem = findProblem(id);
    context.state.problem = problem ? problem.id : '';
    if (problem) context.state.script = problem.script;
    context.changed();
    mount();
    (host.querySelector('h2') as HTMLElement | null)?.focus();
  };
  mount();
  return { root: host, destroy: () => inner?.destroy() };
}

type SwitchTo = (problemId: string) => void;

/** The workspace (write, run and check your own program), loaded on first use. */
function lazyWorkspace(options: WorkspaceOptions): { root: HTMLElement; setRevealed(revealed: boolean): void; destroy(): void } {
  const root = h('div', { class: 'workspace-host' }, h('p', { class: 'muted' }, 'Loading the workspace…'));
  let workspace: Workspace | null = null;
  let revealed: boolean | null = null;
  let destroyed = false;
  void import('../workspace/workspace').then(({ workspacePanel }) => {
    if (destroyed) return;
    workspace = workspacePanel(options);
    if (revealed !== null) workspace.setRevealed(revealed);
    root.replaceChildren(workspace.root);
  });
  return {
    root,
    setRevealed(value) {
      revealed = value;
      workspace?.setRevealed(value);
    },
    destroy() {
      destroyed = true;
      workspace?.destroy();
    },
  };
}

/** The checker panel, loaded on first use (the embed page never needs it). */
function lazyChecker(options: CheckerOptions): CheckerPanel {
  const root = h('div', { class: 'checker-host' }, h('p', { class: 'muted' }, 'Loading the checker…'));
  let panel: CheckerPanel | null = null;
  let revealed: boolean | null = null;
  let destroyed = false;
  void import('./checker').then(({ checkerPanel }) => {
    if (destroyed) return;
    panel = checkerPanel(options);
    if (revealed !== null) panel.setRevealed(revealed);
    root.replaceChildren(panel.root);
  });
  return {
    root,
    setRevealed(value) {
      revealed = value;
      panel?.setRevealed(value);
    },
    checkText: async (output) => panel?.checkText(output),
    clear: (message) => panel?.clear(message),
    destroy() {
      destroyed = true;
      panel?.destroy();
    },
  };
}

function consoleView(context: AppContext, switchTo: SwitchTo): ViewInstance {
  const { state } = context;
  const editorHost = h('div', { class: 'editor-host' });
  const editorLoading = h('p', { class: 'muted' }, 'Loading the editor…');
  const output = virtualText({ label: 'Output', testid: 'exercise-output' });
  const outputNote = h('p', { class: 'hint' });
  const errors = h('ul', { class: 'script-errors', 'aria-label': 'Errors' });
  const status = h('p', { class: 'status', role: 'status' });
  const progress = progressPanel();
  let editor: ScriptEditor | null = null;
  let lastOutput: StreamedOutput | null = null;
  let lastExit = 0;
  let generation = 0;
  /** The pending repaint: a timer, then a frame. */
  let paintTimer = 0;
  let paint = 0;

  const runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run' }, 'Run', h('kbd', {}, 'Ctrl+Enter'));
  const downloadButton = h('button', { type: 'button', class: 'secondary', disabled: true, 'data-testid': 'download-output' }, 'Download output');
  const runAllButton = h('button', { type: 'button', class: 'secondary', hidden: true, 'data-testid': 'run-all' }, 'Run all of it');
  const presetSelect = h(
    'select',
    { id: 'preset' },
    h('option', { value: '' }, 'Choose a preset…'),
    h('optgroup', { label: 'Scripts' }, ...PRESETS.map((preset, i) => h('option', { value: String(i) }, preset.name))),
    problemOptions(),
  );

  /**
   * Runs the script in the jobs worker; its output streams in. The page
   * lays out the first MAX_SHOWN_OUTPUT characters and keeps all of it, up
   * to the stream-output-bytes limit, as Blobs for Download. An embedded
   * console's automatic run also stops at embed-lookups: a reader clicks
   * "Run all of it" for more.
   */
  async function run(unbounded = false): Promise<void> {
    const current = ++generation;
    engine.jobs.cancel();
    const script = editor ? editor.text() : state.script;
    const streamed = new StreamedOutput();
    lastOutput = streamed;
    const lookupBound = context.embedded && !unbounded ? context.limits.maxEmbedLookups : 0;
    status.textContent = 'Running…';
    output.set('');
    let appended = 0;
    outputNote.textContent = '';
    errors.replaceChildren();
    runAllButton.hidden = true;
    downloadButton.disabled = true;
    progress.start('Running the script…');
    const started = performance.now();
    let labelled = 0;
    // New text shows on the next frame; the line count alone is redrawn at
    // most every LABEL_EVERY_MS: a frame's style, layout and paint cost the
    // main thread 5-25 ms on a busy 2-core machine (a Chromium trace of
    // e2e/stream.spec.ts), which it should not pay 60 times a second while a
    // run streams for minutes.
    const repaint = () => {
      if (paintTimer || paint) return;
      const wait = appended < streamed.shown.length ? 0 : Math.max(0, labelled + LABEL_EVERY_MS - performance.now());
      paintTimer = window.setTimeout(() => {
        paintTimer = 0;
        paint = requestAnimationFrame(() => {
          paint = 0;
          if (current !== generation) return;
          if (appended < streamed.shown.length) {
            output.append(streamed.shown.slice(appended));
            appended = streamed.shown.length;
          }
          labelled = performance.now();
          progress.label(`Running the script… ${grouped(streamed.lines)} output lines so far`);
        });
      }, wait);
    };
    try {
      const result = await engine.jobs.request(
        { kind: 'runStream', script, maxLookups: lookupBound, maxOutputBytes: context.limits.maxStreamOutputBytes, shownChars: MAX_SHOWN_OUTPUT },
        undefined,
        (message) => {
          if (current !== generation) return;
          streamed.add(message);
          if (message.type !== 'chunk' || message.stream === 'stdout') repaint();
        },
      );
      if (current !== generation) return;
      lastExit = result.exitCode;
      progress.finish('');
      output.append(streamed.shown.slice(appended));
      appended = streamed.shown.length;
      show(streamed, performance.now() - started, lookupBound);
    } catch (error) {
      if (current !== generation) return;
      const cancelled = error instanceof CancelledError;
      progress.finish(cancelled ? 'Cancelled.' : '');
      output.append(streamed.shown.slice(appended));
      appended = streamed.shown.length;
      show(streamed, performance.now() - started, lookupBound);
      status.textContent = !cancelled
        ? String(error)
        : streamed.lines === 0
          ? 'Cancelled: no output.'
          : `Cancelled after ${grouped(streamed.lines)} output line${streamed.lines === 1 ? '' : 's'} (Download has them).`;
    }
  }
  progress.onCancel = () => engine.jobs.cancel();

  /** Cancels a pending repaint (its timer or its frame). */
  function cancelRepaint(): void {
    clearTimeout(paintTimer);
    cancelAnimationFrame(paint);
    paintTimer = 0;
    paint = 0;
  }

  function show(result: StreamedOutput, ms: number, lookupBound: number): void {
    cancelRepaint();
    downloadButton.disabled = result.chars === 0;
    outputNote.textContent = result.truncated
      ? `The output has ${grouped(result.chars)} characters; the first ${grouped(MAX_SHOWN_OUTPUT)} are shown. Download has all of it.`
      : '';
    const parsed = parseErrors(result.errors);
    errors.replaceChildren(
      ...parsed.map((error) => {
        const jump = h('button', { type: 'button', class: 'link' }, `line ${error.line}`);
        jump.addEventListener('click', () => editor?.focusLine(error.line));
        return h('li', { 'data-testid': 'error' }, jump, `: error: ${error.message}`);
      }),
    );
    editor?.markErrors(parsed);
    const lines = result.lines;
    let text =
      `Exit status ${lastExit}: ${grouped(lines)} output line${lines === 1 ? '' : 's'}` +
      (parsed.length ? `, ${parsed.length} failing line${parsed.length === 1 ? '' : 's'}` : '') +
      ` (${(ms / 1000).toFixed(2)} s).`;
    if (parsed.some((error) => error.message.includes('output and error lines'))) {
      text += ` The output stopped at the page's limit of ${grouped(context.limits.maxStreamOutputBytes)} bytes (stream-output-bytes); Download has all of it up to there. The jumphash CLI prints output of any size: jumphash script.txt > output.txt`;
    }
    if (lookupBound && parsed.some((error) => error.message.includes('lookups'))) {
      runAllButton.hidden = false;
      text += ` An embedded console computes at most ${grouped(lookupBound)} lookups before a click: Run all of it for the rest.`;
    }
    status.textContent = text;
  }

  runButton.addEventListener('click', () => void run());
  runAllButton.addEventListener('click', () => void run(true));
  downloadButton.addEventListener('click', () => {
    if (lastOutput) download('jumphash-output.txt', lastOutput.blobParts());
  });
  presetSelect.addEventListener('change', () => {
    if (presetSelect.value.startsWith('problem:')) {
      switchTo(presetSelect.value.slice('problem:'.length));
      return;
    }
    const preset = PRESETS[Number(presetSelect.value)];
    if (!presetSelect.value || !preset) return;
    state.script = preset.script;
    context.changed();
    editor?.setText(preset.script);
    presetSelect.value = '';
    void run();
  });

  if (context.embedded) {
    const code = h('pre', { class: 'script', role: 'region', 'aria-label': 'Script' }, state.script);
    const root = h('section', { class: 'view' }, h('h2', { class: 'visually-hidden' }, 'Script and output'), code, status, runAllButton, errors, output.root, outputNote, progress.root);
    void run();
    return { root, destroy: () => engine.jobs.cancel() };
  }

  void import('../ui/editor').then(({ createEditor }) => {
    editorLoading.remove();
    editor = createEditor({
      host: editorHost,
      text: state.script,
      label: 'Script in the command language',
      words: context.language,
      onChange: (text) => {
        state.script = text;
        context.changed();
      },
      onRun: () => void run(),
    });
    if (lastOutput) editor.markErrors(parseErrors(lastOutput.errors));
  });

  // The checker: compare a program's output with the script's, line by line,
  // and name the classic mistake that reproduces each wrong value.
  const checker = lazyChecker({
    script: () => (editor ? editor.text() : state.script),
    focusScriptLine: (line) => editor?.focusLine(line),
    problem: false,
    revealed: () => true,
  });

  const workspace = lazyWorkspace({
    place: 'console',
    script: () => (editor ? editor.text() : state.script),
    state,
    changed: () => context.changed(),
    problem: false,
    revealed: () => true,
    focusScriptLine: (line) => editor?.focusLine(line),
  });

  const reference = h(
    'details',
    { class: 'reference' },
    h('summary', {}, 'The command language'),
    h(
      'pre',
      {},
      [
        'ALGO <name> [opt=v]  later commands use that algorithm (default jump)',
        'HASH <key> <n>       prints "<key>: <bucket>"',
        'KEYS <spec>...       replaces the key list (keys, A..B, random:COUNT:SEED)',
        'BUCKETS <n>          "<key>: <bucket>" for each current key',
        'MOVED <from> <to>    "<key>: <old> -> <new>" per moved key, then "moved: <count> of <total>"',
        'LOAD <n>             "<bucket>: <count>" for every bucket (n <= 10^6)',
        'TRACE <key> <max>    "<n>: <bucket>" where the bucket changes, n <= max',
        'NODES <node>...      sets a node list: name or name*weight, "quoted name"',
        'REMOVE <name>...     removes any nodes; ADD <node>... adds nodes at the end',
        'HASH <key>           "<key>: <node>"; BUCKETS and LOAD without n use the list',
        'MOVED <edit>...      -name, +name*w, =name*w on a copy: "<key>: <old> -> <new>"',
        '# comment            keywords are case-insensitive',
      ].join('\n'),
    ),
  );

  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title', tabindex: -1 }, 'Exercise console: run the command language exactly as the CLI does'),
    h(
      'div',
      { class: 'toolbar' },
      runButton,
      h('div', { class: 'field inline' }, h('label', { for: 'preset' }, 'Preset'), presetSelect),
      downloadButton,
    ),
    h('div', { class: 'console' }, h('div', { class: 'pane' }, h('h3', {}, 'Script'), editorLoading, editorHost, reference), h('div', { class: 'pane' }, h('h3', {}, 'Output'), status, errors, progress.root, output.root, outputNote)),
    workspace.root,
    checker.root,
  );
  void run();
  return {
    root,
    destroy: () => {
      generation++;
      engine.jobs.cancel();
      output.destroy();
      checker.destroy();
      workspace.destroy();
      editor?.view.destroy();
    },
  };
}

/**
 * A problem set: the task, the script (read-only) and the checker; the
 * expected output stays out of the page until the student asks for it.
 */
function problemView(context: AppContext, problem: Problem, switchTo: SwitchTo): ViewInstance {
  let revealed = false;
  let runGeneration = 0;
  const expectedPre = h('pre', {
    class: 'output',
    id: 'problem-expected',
    'data-testid': 'exercise-output',
    tabindex: 0,
    'aria-label': 'Expected output',
    hidden: true,
  });
  const expectedStatus = h('p', { class: 'status', role: 'status' });
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-expanded': 'false',
      'aria-controls': 'problem-expected',
      'data-testid': 'show-expected',
    },
    'Show expected output',
  );
  const checker = lazyChecker({ script: () => problem.script, problem: true, revealed: () => revealed });
  const workspace = lazyWorkspace({
    place: problem.id,
    script: () => problem.script,
    state: context.state,
    changed: () => context.changed(),
    problem: true,
    revealed: () => revealed,
  });

  async function showExpected(): Promise<void> {
    const current = ++runGeneration;
    expectedStatus.textContent = 'Running the script…';
    try {
      const result = await engine.jobs.request({ kind: 'run', script: problem.script });
      if (current !== runGeneration || !revealed) return;
      expectedPre.textContent = result.stdout;
      expectedPre.hidden = false;
      expectedStatus.textContent = result.exitCode === 0 ? '' : result.stderr;
    } catch (error) {
      if (current !== runGeneration) return;
      expectedStatus.textContent = error instanceof CancelledError ? 'Cancelled.' : String(error);
    }
  }
  toggle.addEventListener('click', () => {
    revealed = !revealed;
    toggle.setAttribute('aria-expanded', String(revealed));
    toggle.textContent = revealed ? 'Hide expected output' : 'Show expected output';
    checker.setRevealed(revealed);
    workspace.setRevealed(revealed);
    if (revealed) void showExpected();
    else {
      runGeneration++;
      expectedPre.hidden = true;
      expectedPre.textContent = ''; // out of the page again, not only hidden
      expectedStatus.textContent = '';
    }
  });

  const problemSelect = h(
    'select',
    { id: 'problem-select' },
    ...PROBLEMS.map((p) => h('option', { value: p.id, selected: p.id === problem.id }, p.title)),
  );
  problemSelect.addEventListener('change', () => switchTo(problemSelect.value));
  const leave = h('button', { type: 'button', class: 'secondary', 'data-testid': 'leave-problem' }, 'Open in the console (shows the output)');
  leave.addEventListener('click', () => switchTo(''));

  const root = h(
    'section',
    { class: 'view problem', 'aria-labelledby': 'view-title', 'data-testid': 'problem' },
    h('h2', { id: 'view-title', tabindex: -1 }, `Problem: ${problem.title}`),
    h('div', { class: 'toolbar' }, h('div', { class: 'field inline' }, h('label', { for: 'problem-select' }, 'Problem'), problemSelect), leave),
    h('p', { class: 'problem-task', 'data-testid': 'problem-task' }, problem.task),
    h(
      'div',
      { class: 'console' },
      h(
        'div',
        { class: 'pane' },
        h('h3', {}, 'The script your program must reproduce'),
        h('pre', { class: 'script', 'data-testid': 'problem-script', tabindex: 0, role: 'region', 'aria-label': 'Script' }, problem.script),
        h('p', { class: 'hint' }, 'Write a program that prints what this script prints (the command language is described in the console), run it, and check its output below.'),
      ),
      h(
        'div',
        { class: 'pane' },
        h('h3', {}, 'Expected output'),
        h('p', { class: 'hint' }, 'Hidden until you ask: try first, then check. Checking shows a verdict on every line without showing the expected lines; each wrong line has its own Show button.'),
        h('div', { class: 'toolbar' }, toggle),
        expectedStatus,
        expectedPre,
      ),
    ),
    workspace.root,
    checker.root,
  );
  return {
    root,
    destroy: () => {
      runGeneration++;
      checker.destroy();
      workspace.destroy();
    },
  };
}
