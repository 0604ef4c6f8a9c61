// The page's text worker (./textWorker.ts): work on text too large for the
// main thread, each request answered in a worker so that the page never
// freezes — turning a pasted key list into the KEYS syntax and counting its
// keys (the core's keyCount, on the text worker's own module), measuring a
// text or a file, and checking a student's output with the core's checker
// (a module of its own, loaded on the first check). The messages have the
// engine's shapes (engine/protocol.ts WorkerMessage), so a Lane carries them:
// Cancel terminates the worker and a fresh one starts for the next request.

import { Lane } from '../engine/client';
import type { CheckDigest } from './checkDigest';
import type { TextMeasure } from './textMeasure';

/** A text as the page holds it: a string, or a file (a Blob) it has not read. */
export type TextSource = string | Blob;

/**
 * A key list as typed or pasted (a large one as a Blob: see textTransfer.ts),
 * to turn into the KEYS syntax (line breaks become spaces) and count. The
 * result comes back as a Blob made in the worker: the page passes it on to
 * the engine workers as a handle and never holds or copies it as a string.
 */
export interface KeySpecRequest {
  kind: 'keySpec';
  text: TextSource;
}
export interface KeySpecReply extends TextMeasure {
  /** The keys in the KEYS syntax (UTF-8). */
  spec: Blob;
  /** The keys in it (the core's keyCount), or null when they have an error. */
  keys: number | null;
  /** The core's message about the keys, or null. */
  keysError: string | null;
}
/** Size and lines of a text; with `keep`, the worker keeps a file's text for the next check (CheckOutputRequest.measured). */
export interface MeasureRequest {
  kind: 'measure';
  source: TextSource;
  keep?: boolean;
}

/** Checks `output` against what `script` prints (the core's checker, as `jumphash check`). */
export interface CheckOutputRequest {
  kind: 'check';
  script: string;
  output: TextSource;
  /**
   * The output is the one this worker last measured with `keep`: it checks
   * the text it kept instead of reading the file again (50 MB read once,
   * not twice). When it has none (a fresh worker), it reads `output`.
   */
  measured?: boolean;
}

export type TextRequest = KeySpecRequest | MeasureRequest | CheckOutputRequest;

export interface TextReplyMap {
  keySpec: KeySpecReply;
  measure: TextMeasure;
  check: CheckDigest;
}

export type TextLane = Lane<TextRequest, TextReplyMap>;

function startTextWorker(): Worker {
  return new Worker(new URL('./textWorker.ts', import.meta.url), { type: 'module', name: 'jumphash-text' });
}

/** A lane of its own on the text worker (each lane has its own worker, started on first use). */
export function textLane(): TextLane {
  return new Lane<TextRequest, TextReplyMap>(startTextWorker);
}
