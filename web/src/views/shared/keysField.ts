// The Keys field of the report views (Resize, Balance, Compare), bound to
// state.keys. A pasted list of 10^6 keys is not poured into the text box: it
// stays in memory (in the state, so the link and the reports use it) and a
// summary stands in for the box; a worker turns it into the KEYS syntax and
// counts its keys (./largeKeys.ts, loaded on the first large list, so that a
// page that never gets one — the embed page — neither fetches nor counts it).

import { engine, keySpec } from '../../engine/client';
import type { KeyText } from '../../engine/protocol';
import { type FieldControl, field } from '../../ui/controls';
import { isLargeText, largePasteResult, pasteTooLargeMessage } from '../../ui/largeText';
import { type AppContext, keysHint } from '../context';
import type { LargeKeys } from './largeKeys';

export interface KeysField extends FieldControl {
  /** The keys in the KEYS syntax for a request (a Blob prepared in the worker when the text is large). */
  spec(): Promise<KeyText>;
  /**
   * `make(spec)`: at once for a small text (as typed), after the worker has
   * prepared a large one (a promise then). A report's build uses it.
   */
  withSpec<T>(make: (spec: KeyText) => T): T | Promise<T>;
  destroy(): void;
}

/**
 * `rerun` runs the view's report (after its input debounce). With
 * `countAhead` (the views whose reports may split across workers: Resize,
 * Balance), each typed text is counted at once (engine.reports.countAhead),
 * so the report has its count when it starts.
 */
export function keysField(context: AppContext, rerun: () => void, { countAhead = false } = {}): KeysField {
  const { state } = context;
  let large: LargeKeys | null = null;
  let loading: Promise<LargeKeys> | null = null;
  let destroyed = false;

  function update(text: string): void {
    state.keys = text;
    context.changed();
    if (countAhead && !isLargeText(text)) engine.reports.countAhead(keySpec(text));
    rerun();
  }

  const control = field({
    label: 'Keys',
    name: 'keys',
    value: isLargeText(state.keys) ? '' : state.keys,
    multiline: true,
    width: 'wide',
    hint: keysHint(),
    // Once loaded, the large-text box reads the box itself.
    onInput: (value) => {
      if (!large) update(value);
    },
  });
  const textarea = control.input as HTMLTextAreaElement;

  function loadLarge(origin: 'pasted' | 'loaded'): Promise<LargeKeys> {
    loading ??= import('./largeKeys').then(({ largeKeys }) => {
      if (destroyed) throw new Error('the view is gone');
      large = largeKeys({ context, textarea, origin, onChange: update, onTooLarge: (message) => control.setError(message) });
      return large;
    });
    return loading;
  }

  if (isLargeText(state.keys)) {
    textarea.hidden = true; // the summary comes with ./largeKeys
    void loadLarge('loaded');
  }

  // Until the large-text box is loaded, a large paste or text drop is caught
  // here: kept in the state, never inserted into the box; the box then shows it.
  function takeLarge(event: Event, inserted: string): void {
    if (large) return;
    const next = largePasteResult(textarea.value, textarea.selectionStart, textarea.selectionEnd, inserted);
    if (next === null) return;
    event.preventDefault();
    const tooLarge = pasteTooLargeMessage(next.length);
    if (tooLarge !== null) {
      control.setError(tooLarge); // what was typed stays
      return;
    }
    textarea.value = '';
    textarea.hidden = true;
    update(next);
    void loadLarge('pasted');
  }
  textarea.addEventListener('paste', (event) => takeLarge(event, event.clipboardData?.getData('text/plain') ?? ''));
  textarea.addEventListener('drop', (event) => {
    if (event.dataTransfer && event.dataTransfer.files.length === 0) takeLarge(event, event.dataTransfer.getData('text/plain'));
  });

  return {
    ...control,
    value: () => {
      const value = large ? large.box.value() : textarea.value;
      return typeof value === 'string' ? value : '';
    },
    async spec() {
      const text = state.keys;
      if (!isLargeText(text)) return keySpec(text);
      return (await loadLarge('loaded')).spec(text);
    },
    withSpec(make) {
      const text = state.keys;
      if (!isLargeText(text)) return make(keySpec(text));
      return loadLarge('loaded').then((loaded) => loaded.spec(text)).then(make);
    },
    destroy() {
      destroyed = true;
      large?.destroy();
    },
  };
}
