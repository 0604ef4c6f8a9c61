// A text box that never holds a large text: above LARGE_TEXT_CHARS characters
// or LARGE_TEXT_LINES lines (./largeText.ts) the text stays in memory (a
// string, or a file the browser holds) and the box is replaced by a summary —
// "1,000,000 keys pasted, 12.3 MB — Edit as text (slow) / Clear / Download".
// A large paste or drop is caught before the browser inserts it; "Edit as
// text" opens the text on request in an editor that lays out only the lines
// in view (./plainTextEditor.ts, CodeMirror, loaded then): a keystroke stays
// fast on 10^5 lines, where a text box takes 300-500 ms. While such a text is
// edited it is read at most every EDIT_READ_DELAY ms, not on every keystroke.

import { download, h } from './dom';
import { isLargeText, largePasteResult, pasteTooLargeMessage } from './largeText';
import type { PlainTextEditor } from './plainTextEditor';
import type { TextSource } from './textLanes';

/** Milliseconds of quiet after a keystroke before a large text being edited is read again. */
export const EDIT_READ_DELAY = 250;

export interface LargeTextBoxOptions {
  /** The text box (already labelled, in the page); the summary goes right after it. */
  textarea: HTMLTextAreaElement;
  /** The text at the start. */
  initial: TextSource;
  /** Where it came from (default 'loaded'). */
  initialOrigin?: TextOrigin;
  /** Summary of a large text, e.g. "1,000,000 keys pasted, 12.3 MB" (may resolve later; the box shows "Measuring…" meanwhile). */
  describe(source: TextSource, origin: TextOrigin): Promise<string>;
  /** The text changed (an edit, a paste, Clear): not called for `set`. */
  onChange(source: TextSource): void;
  /** File name for Download. */
  downloadName: string;
  /** Test id of the summary (e.g. `keys-summary`); the editor is `<testid>-editor`. */
  testid: string;
  /** The accessible name of the editor (the field's label). */
  label: string;
  /** Longest text a paste or drop may make; longer is refused with onTooLarge (default: no bound). */
  maxPasteChars?: number;
  /** Says why a paste or drop was refused (the text is unchanged). */
  onTooLarge?(message: string): void;
}

/** Where a large text came from, for the summary's wording. */
export type TextOrigin = 'pasted' | 'file' | 'loaded';

export interface LargeTextBox {
  /** The summary block (insert it after the text box). */
  summary: HTMLElement;
  /** The current text (the box's or the editor's own text when one shows it). */
  value(): TextSource;
  /** Whether the summary stands in for the text box. */
  summarized(): boolean;
  /** Replaces the text (a large one is summarized); does not call onChange. */
  set(source: TextSource, origin?: TextOrigin): void;
  destroy(): void;
}

export function largeTextBox(options: LargeTextBoxOptions): LargeTextBox {
  const { textarea } = options;
  let source: TextSource = '';
  /** The summary stands in for the box. */
  let summarized = false;
  /** The editor the student opened on a large text ("Edit as text"), or null. */
  let editor: PlainTextEditor | null = null;
  let readTimer: ReturnType<typeof setTimeout> | undefined;
  let describeGeneration = 0;
  /** Bumped by every change of the text: a slow "Edit as text" that finds it changed gives up. */
  let textGeneration = 0;

  const description = h('strong', { 'data-testid': `${options.testid}-text` });
  const status = h('span', { class: 'large-text-status', role: 'status' });
  const editButton = h('button', { type: 'button', class: 'secondary', 'data-testid': `${options.testid}-edit` }, 'Edit as text (slow)');
  const clearButton = h('button', { type: 'button', class: 'secondary', 'data-testid': `${options.testid}-clear` }, 'Clear');
  const downloadButton = h('button', { type: 'button', class: 'secondary', 'data-testid': `${options.testid}-download` }, 'Download');
  const editorHost = h('div', { class: 'large-text-editor', 'data-testid': `${options.testid}-editor`, hidden: true });
  const summaryBlock = h(
    'div',
    { class: 'large-text', 'data-testid': options.testid, hidden: true },
    h('p', {}, description, ' ', status),
    h('p', { class: 'hint' }, 'Too large to show in a text box without slowing the page: it is kept in this tab and used as it is.'),
    h('div', { class: 'toolbar' }, editButton, clearButton, downloadButton),
  );
  const summary = h('div', { class: 'large-text-host' }, summaryBlock, editorHost);

  function closeEditor(): void {
    clearTimeout(readTimer);
    editor?.destroy();
    editor = null;
    editorHost.hidden = true;
    editorHost.replaceChildren();
  }

  function showSummary(origin: TextOrigin): void {
    closeEditor();
    summarized = true;
    textarea.value = '';
    textarea.hidden = true;
    summaryBlock.hidden = false;
    status.textContent = '';
    editButton.disabled = false;
    const current = ++describeGeneration;
    const described = source;
    description.textContent = source instanceof File ? `${source.name}: measuring…` : 'Measuring…';
    // describe() hands the text to a worker a part per task (ui/textTransfer.ts), never all in this one.
    options.describe(described, origin).then(
      (text) => {
        if (current === describeGeneration) description.textContent = text;
      },
      (error: unknown) => {
        if (current === describeGeneration) description.textContent = `The text could not be measured: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  }

  function showBox(text: string): void {
    closeEditor();
    summarized = false;
    describeGeneration++;
    summaryBlock.hidden = true;
    textarea.hidden = false;
    textarea.value = text;
  }

  function set(next: TextSource, origin: TextOrigin = 'loaded'): void {
    textGeneration++;
    source = next;
    if (typeof next !== 'string' || isLargeText(next)) showSummary(typeof next === 'string' ? origin : 'file');
    else showBox(next);
  }

  function changed(next: TextSource, origin: TextOrigin): void {
    set(next, origin);
    options.onChange(next);
  }

  function onInput(): void {
    if (summarized || editor) return;
    textGeneration++;
    source = textarea.value;
    options.onChange(source);
  }

  /** The text a paste or drop of `inserted` makes, when it is large (the box must not take it). */
  function largeResult(inserted: string): string | null {
    return largePasteResult(textarea.value, textarea.selectionStart, textarea.selectionEnd, inserted);
  }

  /** False (and onTooLarge told why) when `next` is over maxPasteChars. */
  function fits(next: string): boolean {
    const message = options.maxPasteChars === undefined ? null : pasteTooLargeMessage(next.length, options.maxPasteChars);
    if (message !== null) options.onTooLarge?.(message);
    return message === null;
  }

  const onPaste = (event: ClipboardEvent) => {
    const next = largeResult(event.clipboardData?.getData('text/plain') ?? '');
    if (next === null) return; // the browser inserts it
    event.preventDefault();
    if (fits(next)) changed(next, 'pasted');
  };
  const onDrop = (event: DragEvent) => {
    if (!event.dataTransfer || event.dataTransfer.files.length > 0) return; // files: the owner's business
    const next = largeResult(event.dataTransfer.getData('text/plain'));
    if (next === null) return;
    event.preventDefault();
    if (fits(next)) changed(next, 'pasted');
  };
  textarea.addEventListener('input', onInput);
  textarea.addEventListener('paste', onPaste);
  textarea.addEventListener('drop', onDrop);

  editButton.addEventListener('click', () => {
    status.textContent = 'Opening the text in an editor…';
    editButton.disabled = true;
    const held = source;
    const current = textGeneration;
    void Promise.all([typeof held === 'string' ? held : held.text(), import('./plainTextEditor')]).then(
      ([text, { plainTextEditor }]) => {
        editButton.disabled = false;
        if (current !== textGeneration) return;
        summaryBlock.hidden = true;
        summarized = false;
        describeGeneration++;
        editorHost.hidden = false;
        source = text;
        editor = plainTextEditor({
          parent: editorHost,
          text,
          label: options.label,
          onEdit() {
            textGeneration++;
            clearTimeout(readTimer);
            readTimer = setTimeout(() => {
              if (!editor) return;
              source = editor.text();
              options.onChange(source);
            }, EDIT_READ_DELAY);
          },
          onPaste(pasted, whole) {
            if (!isLargeText(pasted)) return false;
            const next = whole();
            if (fits(next)) changed(next, 'pasted');
            return true;
          },
        });
        editor.focus();
        if (typeof held !== 'string') options.onChange(text);
      },
      (error: unknown) => {
        editButton.disabled = false;
        status.textContent = `The editor could not be opened: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  });
  clearButton.addEventListener('click', () => {
    changed('', 'loaded');
    textarea.focus();
  });
  downloadButton.addEventListener('click', () => {
    download(options.downloadName, typeof source === 'string' ? source : [source]);
  });

  set(options.initial, options.initialOrigin ?? 'loaded');
  return {
    summary,
    value: () => (editor ? editor.text() : summarized ? source : textarea.value),
    summarized: () => summarized,
    set,
    destroy() {
      closeEditor();
      describeGeneration++;
      textarea.removeEventListener('input', onInput);
      textarea.removeEventListener('paste', onPaste);
      textarea.removeEventListener('drop', onDrop);
    },
  };
}
