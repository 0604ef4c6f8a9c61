// The large-list half of the Keys field (./keysField.ts), loaded on the first
// large list: the summary that stands in for the text box
// (ui/largeTextBox.ts), and the text worker that turns the list into the
// KEYS syntax and counts its keys with the core. The text goes to the worker
// as a Blob (ui/textTransfer.ts) and its KEYS form comes back as a Blob,
// which the reports hand to the engine workers: no main-thread task copies,
// splits or scans it whole (a 12 MB string in a message costs the main
// thread 35-80 ms to copy, measured in a Chromium trace of the paste).

import type { AppContext } from '../context';
import { grouped } from '../../ui/dom';
import { formatBytes } from '../../ui/textMeasure';
import { MAX_PASTED_LIST_CHARS } from '../../ui/largeText';
import { type LargeTextBox, type TextOrigin, largeTextBox } from '../../ui/largeTextBox';
import { type KeySpecReply, textLane } from '../../ui/textLanes';
import { textBlob } from '../../ui/textTransfer';

/** Pasted key lists are prepared here (one worker for every keys field of the page). */
const keyTextLane = textLane();

/** A large key list prepared in the worker: its KEYS form (a Blob), its keys and its size. */
export type PreparedKeys = KeySpecReply;

/** The sentence of a large key list's summary: "1,000,000 keys pasted, 12.3 MB". */
export function keysSummary(keys: number | null, lines: number, bytes: number, origin: TextOrigin): string {
  const verb = origin === 'pasted' ? 'pasted' : origin === 'file' ? 'from the file' : 'in the link';
  if (keys === null) return `${grouped(lines)} line${lines === 1 ? '' : 's'} of keys ${verb}, ${formatBytes(bytes)}`;
  return `${grouped(keys)} key${keys === 1 ? '' : 's'} ${verb}, ${formatBytes(bytes)}`;
}

export interface LargeKeys {
  box: LargeTextBox;
  /** The KEYS form of a large `text` (made in the worker once per text). */
  spec(text: string): Promise<Blob>;
  destroy(): void;
}

export function largeKeys(options: {
  context: AppContext;
  textarea: HTMLTextAreaElement;
  /** How the text in state.keys came (a paste, or a link). */
  origin: TextOrigin;
  /** The text changed (an edit, a paste, Clear). */
  onChange(text: string): void;
  /** A paste was refused (over pasted-list-chars): shows why next to the field. */
  onTooLarge(message: string): void;
}): LargeKeys {
  /** The last large text prepared in the worker, and its reply. */
  let prepared: { text: string; reply: Promise<PreparedKeys> } | null = null;

  async function prepareInWorker(text: string): Promise<PreparedKeys> {
    return keyTextLane.request({ kind: 'keySpec', text: await textBlob(text) });
  }

  function prepare(text: string): Promise<PreparedKeys> {
    if (prepared?.text !== text) {
      const reply = prepareInWorker(text);
      prepared = { text, reply };
      // A failed preparation is not kept: the next run asks again.
      reply.catch(() => {
        if (prepared?.reply === reply) prepared = null;
      });
    }
    return prepared.reply;
  }

  const box = largeTextBox({
    textarea: options.textarea,
    initial: options.context.state.keys,
    initialOrigin: options.origin,
    downloadName: 'keys.txt',
    testid: 'keys-summary',
    label: 'Keys',
    async describe(source, origin) {
      if (typeof source !== 'string') throw new Error('a key list is text');
      // Counted by the core in the text worker (the report shows a key error next to the field).
      const { keys, lines, bytes } = await prepare(source);
      return keysSummary(keys, lines, bytes, origin);
    },
    onChange(source) {
      if (typeof source === 'string') options.onChange(source);
    },
    maxPasteChars: MAX_PASTED_LIST_CHARS,
    onTooLarge: options.onTooLarge,
  });
  options.textarea.after(box.summary);
  return {
    box,
    spec: async (text) => (await prepare(text)).spec,
    destroy: () => box.destroy(),
  };
}
