// A plain-text editor for a large text (a pasted list of 10^5 keys, a long
// output) that the student asked to edit: CodeMirror 6, which lays out only
// the lines in view, so a keystroke costs the same on 10 lines as on 10^6 (a
// <textarea> lays all of them out on every keystroke: 300-500 ms for 10^5
// lines in Chromium). Loaded on first use (ui/largeTextBox.ts imports it
// lazily).

import './plainTextEditor.css';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, keymap, lineNumbers } from '@codemirror/view';

export interface PlainTextEditor {
  view: EditorView;
  /** The whole text (joins the lines: call it after a pause, not on every keystroke). */
  text(): string;
  focus(): void;
  destroy(): void;
}

export interface PlainTextEditorOptions {
  parent: HTMLElement;
  text: string;
  /** The accessible name of the text area (the field's label). */
  label: string;
  /** Called after each edit (cheap: it does not read the text). */
  onEdit(): void;
  /**
   * A paste of `pasted` in place of from..to that the editor should not take
   * (a large text): return true to stop it.
   */
  onPaste(pasted: string, textWithPaste: () => string): boolean;
}

export function plainTextEditor(options: PlainTextEditorOptions): PlainTextEditor {
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': options.label, spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onEdit();
        }),
        EditorView.domEventHandlers({
          paste(event, editor) {
            const pasted = event.clipboardData?.getData('text/plain') ?? '';
            const { from, to } = editor.state.selection.main;
            const whole = () => editor.state.sliceDoc(0, from) + pasted + editor.state.sliceDoc(to);
            if (!options.onPaste(pasted, whole)) return false;
            event.preventDefault();
            return true;
          },
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
