// Large text crossing from the page to a worker. Copying a string into a
// message takes the main thread about 6 ns a character (80 ms for 12 MB in
// Chromium, measured), all in one task; a Blob crosses as a handle, without
// a copy. So a large string goes out as a Blob made a part per task, and
// what a worker makes of it comes back as a Blob too (textLanes.ts).

/**
 * Characters per part when a large text crosses in pieces: each part costs
 * the main thread about 3-10 ms (encoding it into a Blob, or reading it from
 * a message).
 */
export const TEXT_PART_CHARS = 1 << 19;

/**
 * Where to cut `text` into parts of at most `size` characters (the end of
 * each part), never between the two halves of a surrogate pair.
 */
export function partEnds(text: string, size = TEXT_PART_CHARS): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length && end - 1 > start) {
      const unit = text.charCodeAt(end - 1);
      if (unit >= 0xd800 && unit <= 0xdbff) end--; // a high surrogate stays with its low one
    }
    ends.push(end);
    start = end;
  }
  return ends;
}

/** The next task (after rendering and input had their turn). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

let lastBlob: { text: string; blob: Promise<Blob> } | null = null;

/**
 * `text` as a UTF-8 Blob, encoded a part per task (lone surrogates become
 * U+FFFD, as in any UTF-8 encoding). The last text's Blob is kept, so the
 * same pasted text is encoded once however many workers read it.
 */
export function textBlob(text: string): Promise<Blob> {
  if (lastBlob?.text === text) return lastBlob.blob;
  const blob = (async () => {
    const parts: Blob[] = [];
    let start = 0;
    for (const end of partEnds(text)) {
      parts.push(new Blob([text.slice(start, end)]));
      start = end;
      if (end < text.length) await nextTask();
    }
    return new Blob(parts, { type: 'text/plain' });
  })();
  lastBlob = { text, blob };
  return blob;
}
