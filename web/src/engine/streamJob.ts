// The console's streamed run: a script's output sent to the page as it is
// printed. A module of its own, loaded by the engine worker on the first
// 'runStream' request (the Exercise view's console only), so that the
// worker every page starts (an embed too) carries less code.

import type { Jumphash } from 'jumphash-wasm';
import type { RunStreamRequest } from './protocol';
import { post } from './workerJobs';

/** Bytes of a streamed run's output per Blob part. */
const STREAM_PART_BYTES = 1 << 20;

/** Runs `request.script`, posting its output ('chunk' and 'part' messages) and then its exit code as request `id`'s result. */
export function runStream(jh: Jumphash, id: number, request: RunStreamRequest): void {
  // The output goes to the page as it is printed: error lines and the
  // first shownChars as text, and everything as Blob parts made here
  // (a Blob crosses to the page as a handle), so neither thread ever
  // holds the whole output nor does the page copy it. The bytes gather
  // in one buffer, reused: a string per chunk (gigabytes of them) kept
  // this worker's garbage collector busy, and its major collections
  // stalled the page's frames (a Chromium trace of e2e/stream.spec.ts).
  let shownLeft = request.shownChars;
  const utf8 = new TextDecoder();
  const gathered = new Uint8Array(STREAM_PART_BYTES);
  let used = 0;
  let pendingChars = 0;
  let pendingLines = 0;
  // (The module's memory is an ArrayBuffer: it has no threads.)
  const seal = (more?: Uint8Array<ArrayBuffer>) => {
    if (used === 0 && !more) return;
    // new Blob copies the bytes: the buffer is free again at once.
    post({ id, type: 'part', blob: new Blob([gathered.subarray(0, used), more ?? '']), chars: pendingChars, lines: pendingLines });
    used = 0;
    pendingChars = 0;
    pendingLines = 0;
  };
  const { exitCode } = jh.runStreamBytes(
    request.script,
    (stream, bytes, lines, chars) => {
      const stdout = stream === 'stdout';
      if (stdout) {
        pendingChars += chars;
        pendingLines += lines;
        if (used + bytes.length > gathered.length) {
          seal(bytes as Uint8Array<ArrayBuffer>);
        } else {
          gathered.set(bytes, used);
          used += bytes.length;
        }
        if (shownLeft <= 0) return;
      }
      // Error lines, and the first shownChars of the output, as text.
      const text = utf8.decode(bytes).slice(0, stdout ? shownLeft : undefined);
      if (stdout) shownLeft -= text.length;
      post({ id, type: 'chunk', stream, text });
    },
    { maxLookups: request.maxLookups, maxOutputBytes: request.maxOutputBytes },
  );
  seal();
  post({ id, type: 'result', value: { exitCode } });
}
