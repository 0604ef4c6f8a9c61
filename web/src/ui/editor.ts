// The exercise console's editor: CodeMirror 6 with a small highlighter for
// the command language and the failing lines marked. Loaded lazily (only the
// Exercise view imports it).

import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, type StreamParser, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension, Prec, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { LanguageWords } from 'jumphash-wasm';

/** `^(word|...)` followed by a separator; longer words first so that
 *  `jumpback-indep` wins over `jumpback` and `jump`. */
function wordsPattern(words: readonly string[]): RegExp {
  const escaped = [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  return new RegExp(`^(${escaped.join('|') || '(?!)'})(?=\\s|$|#)`, 'i');
}

/** Commands whose arguments are node names or edits (NODES a b*2, MOVED -a). */
const NODE_COMMANDS = new Set(['NODES', 'REMOVE', 'ADD', 'MOVED']);

interface TokenState {
  first: boolean;
  command: string;
}

/** Tokens of the command language: commands, numbers, hex, "strings",
 *  ranges (..), random:COUNT:SEED, algorithm names and their options,
 *  node names and edits, and # comments. Every word comes from the core. */
export function jumphashTokenizer(words: LanguageWords): StreamParser<TokenState> {
  const commands = wordsPattern(words.commands);
  const algorithms = wordsPattern(words.algorithms);
  return {
    name: 'jumphash',
    startState: () => ({ first: true, command: '' }),
    token(stream, state) {
      if (stream.sol()) {
        state.first = true;
        state.command = '';
      }
      if (stream.eatSpace()) return null;
      const first = state.first;
      state.first = false;
      if (stream.peek() === '#') {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.peek() === '"' || (!first && /^[-+=]"/.test(stream.string.slice(stream.pos, stream.pos + 2)))) {
        if (stream.peek() !== '"') stream.next();
        stream.next();
        let escaped = false;
        while (!stream.eol()) {
          const c = stream.next();
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') break;
        }
        stream.match(/^\*[0-9]+/);
        return 'string';
      }
      if (first) {
        const command = stream.match(commands) as RegExpMatchArray | null;
        if (command) {
          state.command = command[1]!.toUpperCase();
          return 'keyword';
        }
      }
      if (state.command === 'ALGO') {
        if (stream.match(algorithms)) return 'variableName';
        if (stream.match(/^[a-z_]+=[^\s#]*/i)) return 'attributeName';
      }
      if (stream.match(/^random(?=:)/i)) return 'atom';
      if (stream.match('..') || stream.match(':')) return 'operator';
      if (stream.match(/^0x[0-9a-fA-F]+(?=\s|$|#|\.\.)/)) return 'number';
      if (stream.match(/^[0-9]+(?=\s|$|#|\.\.|:)/)) return 'number';
      if (NODE_COMMANDS.has(state.command) && stream.match(/^[^\s#"]+/)) return 'string';
      stream.match(/^[^\s#".:]+/) || stream.next();
      return 'invalid';
    },
    languageData: { commentTokens: { line: '#' } },
  };
}

/** The command language for CodeMirror, highlighted from the core's words. */
export function jumphashLanguage(words: LanguageWords): StreamLanguage<TokenState> {
  return StreamLanguage.define(jumphashTokenizer(words));
}

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--hl-keyword)', fontWeight: '600' },
  { tag: tags.number, color: 'var(--hl-number)' },
  { tag: tags.string, color: 'var(--hl-string)' },
  { tag: tags.comment, color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: tags.variableName, color: 'var(--hl-name)' },
  { tag: tags.attributeName, color: 'var(--hl-operator)' },
  { tag: tags.atom, color: 'var(--hl-name)' },
  { tag: tags.operator, color: 'var(--hl-operator)' },
  { tag: tags.invalid, color: 'var(--hl-invalid)', textDecoration: 'underline wavy' },
]);

export interface ScriptError {
  line: number;
  message: string;
}

const setErrors = StateEffect.define<ScriptError[]>();

const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    for (const effect of transaction.effects) {
      if (effect.is(setErrors)) {
        const builder = new RangeSetBuilder<Decoration>();
        const lines = [...new Map(effect.value.map((e) => [e.line, e])).values()].sort((a, b) => a.line - b.line);
        for (const error of lines) {
          if (error.line < 1 || error.line > transaction.state.doc.lines) continue;
          const line = transaction.state.doc.line(error.line);
          builder.add(
            line.from,
            line.from,
            Decoration.line({ class: 'cm-error-line', attributes: { title: error.message, 'data-error-line': String(error.line) } }),
          );
        }
        return builder.finish();
      }
    }
    // Edits invalidate the marks of the lines they touch: map the rest.
    return transaction.docChanged ? decorations.map(transaction.changes) : decorations;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface ScriptEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  markErrors(errors: ScriptError[]): void;
  focusLine(line: number): void;
}

/** The editor's look, in the page's colours (CSS variables cross the shadow root). */
const theme = EditorView.theme({
  '&': { height: '26rem', background: 'var(--bg)', color: 'var(--ink)', fontSize: '0.92rem' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace" },
  '.cm-gutters': { background: 'var(--bg-soft)', color: 'var(--ink-muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { background: 'color-mix(in srgb, var(--accent) 7%, transparent)' },
  '.cm-activeLineGutter': { background: 'color-mix(in srgb, var(--accent) 12%, transparent)' },
  '.cm-error-line': { background: 'var(--error-line)', boxShadow: 'inset 4px 0 0 var(--error)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--ink)' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '-3px' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': {
    background: 'color-mix(in srgb, var(--accent) 25%, transparent)',
  },
});

/**
 * Makes the editor inside a shadow root of `host`. CodeMirror injects its
 * styles with a <style> element when mounted in the document, which the
 * page's Content-Security-Policy (style-src 'self', no 'unsafe-inline')
 * refuses; in a shadow root it uses a constructed stylesheet instead
 * (adoptedStyleSheets), which the policy allows.
 */
export function createEditor(options: {
  host: HTMLElement;
  text: string;
  label: string;
  /** The command language's words from the core, for highlighting a script. */
  words?: LanguageWords;
  /** Another language instead (the workspace's JavaScript or Python mode). */
  language?: Extension;
  /** Tab indents (a program); Escape then Tab leaves the editor. Default: Tab moves focus. */
  tabIndents?: boolean;
  /** The editable element's data-testid (default script-editor). */
  testId?: string;
  onChange: (text: string) => void;
  onRun: () => void;
}): ScriptEditor {
  const shadow = options.host.shadowRoot ?? options.host.attachShadow({ mode: 'open' });
  const parent = document.createElement('div');
  shadow.replaceChildren(parent);
  const view = new EditorView({
    parent,
    root: shadow,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        options.language ?? jumphashLanguage(options.words ?? { commands: [], algorithms: [] }),
        syntaxHighlighting(highlight),
        theme,
        errorField,
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                options.onRun();
                return true;
              },
            },
          ]),
        ),
        keymap.of([...defaultKeymap, ...historyKeymap, ...(options.tabIndents ? [indentWithTab] : [])]),
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'data-testid': options.testId ?? 'script-editor' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  // A program is longer than the box: its scroll area must be reachable by
  // keyboard (axe: scrollable-region-focusable).
  if (options.tabIndents) view.scrollDOM.tabIndex = 0;
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, effects: setErrors.of([]) });
    },
    markErrors(errors) {
      view.dispatch({ effects: setErrors.of(errors) });
    },
    focusLine(line) {
      if (line < 1 || line > view.state.doc.lines) return;
      const position = view.state.doc.line(line).from;
      view.dispatch({ selection: { anchor: position }, scrollIntoView: true });
      view.focus();
    },
  };
}
