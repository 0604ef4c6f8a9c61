// Pure helpers for large text: its size and lines (measured in the text
// worker, ./textWorker.ts), how a size reads, and the KEYS form of a key list.

/** Size and line count of a text. */
export interface TextMeasure {
  /** Bytes of its UTF-8 encoding (a lone surrogate counts 3, as U+FFFD). */
  bytes: number;
  /** Lines: line breaks ('\n'), plus one for a last line that has none; 0 for ''. */
  lines: number;
}

/** Measures `text` in one pass (no copy): see TextMeasure. */
export function measureText(text: string): TextMeasure {
  let bytes = 0;
  let breaks = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      bytes += 1;
      if (unit === 10) breaks++;
    } else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return { bytes, lines: breaks + (length > 0 && text.charCodeAt(length - 1) !== 10 ? 1 : 0) };
}

/** Lines of UTF-8 bytes (see TextMeasure.lines). */
export function countByteLines(bytes: Uint8Array): number {
  let breaks = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) breaks++;
  return breaks + (bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? 1 : 0);
}

/**
 * A byte count for reading, in decimal units as file managers show them:
 * "812 bytes", "12.3 kB", "12.3 MB", "1.2 GB" (one decimal below 100).
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 99.95 ? value.toFixed(1) : Math.round(value).toString()} ${units[unit]}`;
}

/**
 * The key text in the KEYS syntax, whose separators are spaces: line breaks
 * become spaces. The same as the engine client's keySpec (a unit test keeps
 * them equal); here so that the text worker need not import the client,
 * which starts the engine's workers.
 */
export function keySpecOf(typed: string): string {
  return typed.replace(/[\r\n]+/g, ' ');
}
