// The Exercise view's workspace: the student writes their own solution in
// JavaScript or Python, runs it on the current script in the sandbox
// (sandbox.ts), and gets the checker's report on its output inline, the same
// report as "Check my output" and `jumphash check`.
//
// Programs are kept in this browser per problem and language (storage.ts);
// one enters a link only through "Copy a link with my program". Loaded by
// the Exercise view on first use; the language modes, the sandbox and
// Pyodide load on the first edit or Run that needs them.

import './workspace.css';
import starterJs from './starters/starter.js?raw';
import starterPy from './starters/starter.py?raw';
import type { Extension } from '@codemirror/state';
import { download, grouped, h, uniqueId } from '../ui/dom';
import type { ScriptEditor } from '../ui/editor';
import { virtualText } from '../ui/virtualText';
import { encodeLink, type State } from '../url';
import type { CheckerPanel } from '../views/checker';
import { LANGUAGES, LANGUAGE_NAMES, type Language, type RunOutcome, Sandbox } from './sandbox';
import { type Place, forgetProgram, loadProgram, loadSetting, saveProgram, saveSetting } from './storage';

export const STARTERS: Record<Language, string> = { js: starterJs, python: starterPy };

/** File name of a downloaded program, per language. */
const FILE_NAMES: Record<Language, string> = { js: 'solution.js', python: 'solution.py' };

/** The time limit: default, and what a student may set (seconds). */
export const TIME_LIMIT_S = { default: 5, min: 1, max: 120 } as const;

/** A program is stopped once it has printed more than this (characters). */
export const OUTPUT_CAP_CHARS = 8_000_000;

/** Output laid out in the page; the rest is kept for the check and Download. */
export const SHOWN_OUTPUT_CHARS = 200_000;

/** Standard error kept from one run (characters). */
const KEPT_ERROR_CHARS = 64 * 1024;

/** Largest program file Load reads (bytes). */
export const MAX_PROGRAM_FILE_BYTES = 1_000_000;

/** What a stopped-by-the-clock program most often is, per language. */
const WRAP_FIX: Record<Language, string> = {
  js: 'keep the key a BigInt and take BigInt.asUintN(64, key * 2862933555777941757n + 1n)',
  python: 'mask it: key = (key * 2862933555777941757 + 1) & 0xFFFFFFFFFFFFFFFF',
};

export interface WorkspaceOptions {
  /** Where the program is kept: the problem's id, or 'console'. */
  place: Place;
  /** The script the program runs on (the console's editor, or the problem's). */
  script(): string;
  /** The page state: a link may carry a shared program (lang, code). */
  state: State;
  /** Call after changing `state`. */
  changed(): void;
  /** Problem mode: the report keeps expected lines hidden until revealed. */
  problem: boolean;
  revealed(): boolean;
  focusScriptLine?: (line: number) => void;
}

export interface Workspace {
  root: HTMLElement;
  setRevealed(revealed: boolean): void;
  destroy(): void;
}

async function languageMode(language: Language): Promise<Extension> {
  if (language === 'python') return (await import('@codemirror/lang-python')).python();
  return (await import('@codemirror/lang-javascript')).javascript();
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export function workspacePanel(options: WorkspaceOptions): Workspace {
  const id = uniqueId('workspace');
  const sandbox = new Sandbox();

  // ---- which program is in the editor ----
  const shared = options.state.code !== '' ? { language: (options.state.lang || 'js') as Language, code: options.state.code } : null;
  if (shared) {
    // Opened from a link that carries a program: shown, not kept, and taken
    // out of the address bar (it is someone's work, not this page's state).
    options.state.lang = '';
    options.state.code = '';
    options.changed();
  }
  const savedLanguage = loadSetting('language');
  let language: Language = shared?.language ?? ((LANGUAGES as readonly string[]).includes(savedLanguage ?? '') ? (savedLanguage as Language) : 'js');
  /** True while the editor shows a linked program the student has not edited. */
  let showingShared = shared !== null;
  const programOf = (lang: Language) => loadProgram(options.place, lang) ?? STARTERS[lang];
  let code = shared ? shared.code : programOf(language);

  // ---- controls ----
  const languageSelect = h(
    'select',
    { id: `${id}-language`, 'data-testid': 'student-language' },
    ...LANGUAGES.map((lang) => h('option', { value: lang, selected: lang === language }, LANGUAGE_NAMES[lang])),
  );
  const runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'student-run' }, 'Run my program', h('kbd', {}, 'Ctrl+Enter'));
  const stopButton = h('button', { type: 'button', class: 'secondary', disabled: true, 'data-testid': 'student-stop' }, 'Stop');
  const savedLimit = Number(loadSetting('time-limit'));
  const limitInput = h('input', {
    id: `${id}-limit`,
    type: 'number',
    min: TIME_LIMIT_S.min,
    max: TIME_LIMIT_S.max,
    step: 1,
    value: String(Number.isInteger(savedLimit) && savedLimit >= TIME_LIMIT_S.min && savedLimit <= TIME_LIMIT_S.max ? savedLimit : TIME_LIMIT_S.default),
    'aria-describedby': `${id}-limit-error`,
    'data-testid': 'student-time-limit',
  });
  const limitError = h('p', { class: 'field-error', id: `${id}-limit-error`, 'aria-live': 'polite' });
  const resetButton = h('button', { type: 'button', class: 'secondary' }, 'Reset to the starter');
  const downloadButton = h('button', { type: 'button', class: 'secondary' }, 'Download my program');
  const fileInput = h('input', { type: 'file', id: `${id}-file`, accept: '.js,.mjs,.py,.txt,text/plain', 'data-testid': 'student-file' });
  const shareButton = h('button', { type: 'button', class: 'secondary', 'data-testid': 'student-share' }, 'Copy a link with my program');
  const shareBox = h('textarea', { readonly: true, rows: 2, class: 'share-output', hidden: true, 'aria-label': 'Link with your program', 'data-testid': 'student-share-link' });
  const note = h('div', { class: 'workspace-note', role: 'status', 'data-testid': 'student-note' });
  const editorHost = h('div', { class: 'editor-host' });
  const editorLoading = h('p', { class: 'muted' }, 'Loading the editor…');
  const status = h('p', { class: 'run-status', role: 'status', 'data-testid': 'student-status' });
  const output = virtualText({ label: 'Your program’s output', testid: 'student-output' });
  const outputNote = h('p', { class: 'hint' });
  const errors = h('pre', { class: 'output stderr', tabindex: 0, hidden: true, role: 'region', 'aria-label': 'Your program’s errors', 'data-testid': 'student-errors' });
  const downloadOutputButton = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Download the output');
  const reportHost = h('div', { class: 'student-report', 'data-testid': 'student-report' });

  let editor: ScriptEditor | null = null;
  let destroyed = false;
  let report: CheckerPanel | null = null;
  let revealed = options.revealed();
  /** The script of the last run: its output is checked against this one. */
  let runScript = options.script();
  const reportReady = import('../views/checker').then(({ checkerPanel }) => {
    if (destroyed) return null;
    report = checkerPanel({ script: () => runScript, problem: options.problem, revealed: () => revealed, reportOnly: true, focusScriptLine: options.focusScriptLine });
    reportHost.replaceChildren(report.root);
    return report;
  });

  function setNote(...parts: (Node | string)[]): void {
    note.replaceChildren(...(parts.length ? [h('p', {}, ...parts)] : []));
  }

  function keep(text: string): void {
    code = text;
    if (showingShared) {
      showingShared = false;
      setNote('You changed the linked program: it is now kept in this browser as yours.');
    }
    const problem = saveProgram(options.place, language, text);
    if (problem) setNote(problem);
  }

  async function mountEditor(): Promise<void> {
    const [{ createEditor }, mode] = await Promise.all([import('../ui/editor'), languageMode(language)]);
    if (destroyed) return;
    editor?.view.destroy();
    editorLoading.remove();
    editor = createEditor({
      host: editorHost,
      text: code,
      label: `Your program in ${LANGUAGE_NAMES[language]}`,
      language: mode,
      tabIndents: true,
      testId: 'student-editor',
      onChange: keep,
      onRun: () => void run(),
    });
  }

  function switchLanguage(next: Language): void {
    if (next === language) return;
    sandbox.cancel();
    language = next;
    saveSetting('language', next);
    showingShared = false;
    setNote();
    code = programOf(next);
    void mountEditor();
  }

  if (shared) {
    const back = h('button', { type: 'button', class: 'link', 'data-testid': 'student-back-to-mine' }, 'Back to my own program');
    back.addEventListener('click', () => {
      showingShared = false;
      code = programOf(language);
      editor?.setText(code);
      setNote();
    });
    setNote(
      `This link carries a ${LANGUAGE_NAMES[shared.language]} program (${grouped(lineCount(shared.code))} lines), shown in the editor and not run. `,
      'Your own program for this problem is still kept: ',
      back,
      '.',
    );
  }

  // ---- running ----
  let stdoutParts: string[] = [];
  let stdoutChars = 0;
  let stderrText = '';
  let shownChars = 0;
  /** Output within SHOWN_OUTPUT_CHARS not laid out yet. */
  let unshown = '';
  let paint = 0;
  let generation = 0;

  function timeLimitSeconds(): number | null {
    const text = limitInput.value.trim();
    const value = Number(text);
    if (text === '' || !Number.isInteger(value) || value < TIME_LIMIT_S.min || value > TIME_LIMIT_S.max) {
      limitError.textContent = `The time limit must be a whole number of seconds from ${TIME_LIMIT_S.min} to ${TIME_LIMIT_S.max} (got "${text.slice(0, 20)}").`;
      limitInput.setAttribute('aria-invalid', 'true');
      return null;
    }
    limitError.textContent = '';
    limitInput.removeAttribute('aria-invalid');
    return value;
  }

  /** Lays out the first SHOWN_OUTPUT_CHARS of the output, once per frame. */
  function schedulePaint(): void {
    if (paint) return;
    paint = requestAnimationFrame(paintNow);
  }

  /**
   * Hands the output not shown yet to the output box now (which lays it out
   * over its next frames, aria-busy until then), and the errors: at a run's
   * end, so that the status that announces the end never describes lines
   * the box has not been given (a test read 7 lines of an 11-line run there
   * once, the last 4 still waiting for a frame).
   */
  function paintNow(): void {
    if (paint) cancelAnimationFrame(paint);
    paint = 0;
    output.append(unshown);
    unshown = '';
    outputNote.textContent =
      stdoutChars > SHOWN_OUTPUT_CHARS
        ? `The output has ${grouped(stdoutChars)} characters; the first ${grouped(SHOWN_OUTPUT_CHARS)} are shown. Download the output for all of it; the check reads all of it.`
        : '';
    errors.hidden = stderrText === '';
    errors.textContent = stderrText;
  }

  function describe(outcome: RunOutcome, limitS: number): string {
    const lines = lineCount(stdoutParts.join(''));
    const printed = `${grouped(lines)} output line${lines === 1 ? '' : 's'}`;
    const took = `${(outcome.ms / 1000).toFixed(2)} s`;
    switch (outcome.end) {
      case 'finished':
        return `Finished in ${took}: ${printed}. The check below compares them with the script’s output.`;
      case 'error':
        return `Your program stopped with an error after ${took} (shown under the output); ${printed} before it. The check below reads them.`;
      case 'timeout':
        return (
          `Stopped after ${limitS} s, the time limit; ${printed} so far, kept and checked below. ` +
          `A program that never ends is most often the jump loop without the 64-bit wrap: after each step of the generator, ${WRAP_FIX[language]}. ` +
          `If your program is only slow, raise the time limit.`
        );
      case 'output-cap':
        return `Stopped: your program printed more than ${grouped(OUTPUT_CAP_CHARS)} characters, the output limit (a loop that prints without end?). The ${printed} so far are kept and checked below.`;
      case 'cancelled':
        return `Stopped by you; ${printed} so far.`;
      case 'crashed':
        return `The sandbox could not run your program: ${outcome.message}`;
    }
  }

  async function run(): Promise<void> {
    const limitS = timeLimitSeconds();
    if (limitS === null) {
      limitInput.focus();
      return;
    }
    saveSetting('time-limit', String(limitS));
    const current = ++generation;
    const program = editor ? editor.text() : code;
    runScript = options.script();
    stdoutParts = [];
    stdoutChars = 0;
    stderrText = '';
    shownChars = 0;
    unshown = '';
    output.set('');
    outputNote.textContent = '';
    errors.hidden = true;
    errors.textContent = '';
    downloadOutputButton.disabled = true;
    stopButton.disabled = false;
    runButton.setAttribute('aria-busy', 'true');
    (await reportReady)?.clear('Your program is running; its output is checked when it ends.');
    const outcome = await sandbox.run({
      language,
      code: program,
      input: runScript,
      timeLimitMs: limitS * 1000,
      outputCapChars: OUTPUT_CAP_CHARS,
      onStatus: (text) => {
        if (current === generation) status.textContent = text;
      },
      onOutput: (stream, text) => {
        if (current !== generation) return;
        if (stream === 'stdout') {
          stdoutParts.push(text);
          stdoutChars += text.length;
          if (shownChars < SHOWN_OUTPUT_CHARS) {
            const piece = text.slice(0, SHOWN_OUTPUT_CHARS - shownChars);
            unshown += piece;
            shownChars += piece.length;
          }
        } else if (stderrText.length < KEPT_ERROR_CHARS) {
          stderrText = (stderrText + text).slice(0, KEPT_ERROR_CHARS);
        }
        schedulePaint();
      },
    });
    if (current !== generation || destroyed) return;
    stopButton.disabled = true;
    runButton.removeAttribute('aria-busy');
    if (outcome.end === 'error' && outcome.message) {
      stderrText = (stderrText + (stderrText && !stderrText.endsWith('\n') ? '\n' : '') + outcome.message).slice(-KEPT_ERROR_CHARS);
    }
    paintNow();
    status.textContent = describe(outcome, limitS);
    status.dataset['end'] = outcome.end;
    downloadOutputButton.disabled = stdoutChars === 0;
    if (outcome.end === 'cancelled' || outcome.end === 'crashed') {
      report?.clear();
      return;
    }
    const text = stdoutParts.join('');
    stdoutParts = [text];
    await report?.checkText(text);
  }

  // ---- events ----
  languageSelect.addEventListener('change', () => switchLanguage(languageSelect.value as Language));
  runButton.addEventListener('click', () => void run());
  stopButton.addEventListener('click', () => sandbox.cancel());
  limitInput.addEventListener('change', () => void timeLimitSeconds());
  resetButton.addEventListener('click', () => {
    if (!window.confirm(`Replace your ${LANGUAGE_NAMES[language]} program with the starter? Download it first to keep a copy.`)) return;
    forgetProgram(options.place, language);
    showingShared = false;
    code = STARTERS[language];
    editor?.setText(code);
    setNote('The starter is back in the editor.');
  });
  downloadButton.addEventListener('click', () => download(FILE_NAMES[language], editor ? editor.text() : code));
  downloadOutputButton.addEventListener('click', () => download('my-output.txt', stdoutParts.join('')));
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    if (!file) return;
    if (file.size > MAX_PROGRAM_FILE_BYTES) {
      setNote(`The file ${file.name} has ${grouped(file.size)} bytes; a program may have at most ${grouped(MAX_PROGRAM_FILE_BYTES)}. Your program in the editor is unchanged.`);
      return;
    }
    void file.text().then((text) => {
      const fileLanguage: Language | null = /\.py$/i.test(file.name) ? 'python' : /\.m?js$/i.test(file.name) ? 'js' : null;
      if (fileLanguage && fileLanguage !== language) {
        languageSelect.value = fileLanguage;
        switchLanguage(fileLanguage);
      }
      code = text;
      keep(text);
      editor?.setText(text);
      setNote(`Loaded ${file.name} (${grouped(lineCount(text))} lines) as your ${LANGUAGE_NAMES[language]} program.`);
    });
  });
  shareButton.addEventListener('click', () => {
    const program = editor ? editor.text() : code;
    const base = location.href.split('#')[0]!;
    void encodeLink({ ...options.state, lang: language, code: program }, { prefixLength: base.length + 1 }).then(async (result) => {
      if (!result.ok) {
        // Never hand out a link the page would refuse to open or a browser would drop.
        const { tooLargeMessage } = await import('../url/messages');
        shareBox.hidden = true;
        setNote(`${tooLargeMessage(result)}. Use “Download my program” and share the file instead.`);
        return;
      }
      const link = `${base}#${result.fragment}`;
      shareBox.hidden = false;
      shareBox.value = link;
      shareBox.select();
      const what = `This link carries your ${LANGUAGE_NAMES[language]} program (${grouped(lineCount(program))} lines): whoever opens it sees your code.`;
      try {
        await navigator.clipboard.writeText(link);
        setNote(`Link copied. ${what}`);
      } catch {
        setNote(`Select the link below and copy it. ${what}`);
      }
    });
  });

  void mountEditor();

  const root = h(
    'section',
    { class: 'workspace', 'aria-labelledby': `${id}-title`, 'data-testid': 'workspace' },
    h('h3', { id: `${id}-title` }, 'Your solution: write it, run it, check it'),
    h(
      'p',
      { class: 'hint' },
      'The starter reads the commands and parses the keys; write the hash and the reports where it says TODO. ',
      'JavaScript: the script is the string ',
      h('code', {}, 'input'),
      '; print with ',
      h('code', {}, 'console.log'),
      '. Python: read the script from ',
      h('code', {}, 'sys.stdin'),
      ' and print. Your program runs in a sandbox with no network and no access to this page, and is kept in this browser only.',
    ),
    h(
      'div',
      { class: 'toolbar' },
      h('div', { class: 'field inline' }, h('label', { for: `${id}-language` }, 'Language'), languageSelect),
      runButton,
      stopButton,
      h('div', { class: 'field inline' }, h('label', { for: `${id}-limit` }, 'Time limit (s)'), limitInput),
    ),
    limitError,
    note,
    editorLoading,
    editorHost,
    h(
      'div',
      { class: 'toolbar' },
      resetButton,
      downloadButton,
      h('span', { class: 'file-pick' }, h('label', { for: `${id}-file` }, 'Load a program file:'), fileInput),
      shareButton,
    ),
    shareBox,
    h('h4', {}, 'Output'),
    status,
    output.root,
    outputNote,
    errors,
    h('div', { class: 'toolbar' }, downloadOutputButton),
    h('h4', {}, 'Check'),
    reportHost,
  );

  return {
    root,
    setRevealed(value) {
      revealed = value;
      report?.setRevealed(value);
    },
    destroy() {
      destroyed = true;
      generation++;
      if (paint) cancelAnimationFrame(paint);
      output.destroy();
      sandbox.destroy();
      report?.destroy();
      editor?.view.destroy();
    },
  };
}
