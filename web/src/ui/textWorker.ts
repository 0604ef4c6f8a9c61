/// <reference lib="webworker" />
// The page's text worker (requests in ./textLanes.ts): work on text too
// large for the main thread. The core's modules are imported and
// instantiated on first use: the jumphash module for key lists (keyCount),
// the checker (a module of its own) for checks.

import type { Checker, Jumphash } from 'jumphash-wasm';
import type { Field, WorkerMessage } from '../engine/protocol';
import { digestCheck } from './checkDigest';
import { countByteLines, keySpecOf, measureText, type TextMeasure } from './textMeasure';
import type { TextRequest, TextSource } from './textLanes';

declare const self: DedicatedWorkerGlobalScope;

let checkerPromise: Promise<Checker> | undefined;
let jumphashPromise: Promise<Jumphash> | undefined;

class FieldError extends Error {
  constructor(
    message: string,
    readonly field: Field,
  ) {
    super(message);
  }
}

function post(message: WorkerMessage): void {
  self.postMessage(message);
}

/** The text of the file last measured with `keep`, for the check that follows. */
let keptText: string | null = null;

async function measure(source: TextSource, keep: boolean): Promise<TextMeasure> {
  keptText = null;
  if (typeof source === 'string') return measureText(source);
  if (!keep) return { bytes: source.size, lines: countByteLines(new Uint8Array(await source.arrayBuffer())) };
  keptText = await source.text();
  return { ...measureText(keptText), bytes: source.size };
}

async function handle(id: number, request: TextRequest): Promise<void> {
  switch (request.kind) {
    case 'keySpec': {
      jumphashPromise ??= import('jumphash-wasm').then(({ loadJumphash }) => loadJumphash());
      const text = typeof request.text === 'string' ? request.text : await request.text.text();
      const spec = keySpecOf(text);
      const jh = await jumphashPromise;
      let keys: number | null = null;
      let keysError: string | null = null;
      try {
        keys = jh.keyCount(spec);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        keysError = error.message;
      }
      const measure = typeof request.text === 'string' ? measureText(text) : { ...measureText(text), bytes: request.text.size };
      post({ id, type: 'result', value: { spec: new Blob([spec], { type: 'text/plain' }), keys, keysError, ...measure } });
      return;
    }
    case 'measure':
      post({ id, type: 'result', value: await measure(request.source, request.keep === true) });
      return;
    case 'check': {
      checkerPromise ??= import('jumphash-wasm').then(({ loadChecker }) => loadChecker());
      const checker = await checkerPromise;
      const output =
        typeof request.output === 'string' ? request.output : request.measured && keptText !== null ? keptText : await request.output.text();
      keptText = null;
      let result;
      try {
        result = checker.check(request.script, output);
      } catch (error) {
        // The checker's RangeErrors are about the output (its size, its lines).
        if (error instanceof RangeError) throw new FieldError(error.message, 'output');
        throw error;
      }
      post({ id, type: 'result', value: digestCheck(result) });
      return;
    }
  }
}

self.onmessage = (event: MessageEvent<{ id: number; request: TextRequest }>) => {
  const { id, request } = event.data;
  handle(id, request).catch((error: unknown) => {
    if (error instanceof FieldError) post({ id, type: 'error', message: error.message, field: error.field });
    else post({ id, type: 'error', message: error instanceof Error ? error.message : String(error) });
  });
};
