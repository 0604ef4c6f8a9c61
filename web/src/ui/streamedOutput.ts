// A streamed run's output as the page keeps it (the console's runStream,
// see engine/protocol.ts StreamMessage): the first characters as text to
// show, every character as Blob parts made in the worker for Download, the
// counts, and the error lines. The page's thread never holds the whole
// output as a string: a 2*10^8-line run costs it a megabyte of text and a
// few hundred Blob handles (which the browser may keep on disk).

import type { StreamMessage } from '../engine/protocol';

export class StreamedOutput {
  /** The first characters of standard output, as the worker sent them. */
  shown = '';
  /** Characters and lines of standard output so far (counted in the worker). */
  chars = 0;
  lines = 0;
  /** Error lines (standard error), the first `errorLimit` characters. */
  errors = '';
  /** Error characters beyond `errorLimit`, dropped. */
  droppedErrorChars = 0;
  private readonly parts: Blob[] = [];

  constructor(readonly errorLimit: number = 1 << 20) {}

  add(message: StreamMessage): void {
    if (message.type === 'part') {
      this.parts.push(message.blob);
      this.chars += message.chars;
      this.lines += message.lines;
    } else if (message.stream === 'stdout') {
      this.shown += message.text;
    } else {
      const room = Math.max(0, this.errorLimit - this.errors.length);
      this.errors += message.text.slice(0, room);
      this.droppedErrorChars += Math.max(0, message.text.length - room);
    }
  }

  /** True when some output is not in `shown` (Download has it). */
  get truncated(): boolean {
    return this.chars > this.shown.length;
  }

  /** Every character of standard output, as Blob parts in order. */
  blobParts(): Blob[] {
    return [...this.parts];
  }
}
