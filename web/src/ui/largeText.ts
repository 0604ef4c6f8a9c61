// When a text is too large to put in a text box (pure, and small: every
// report view loads it). The page keeps such text in memory (a string, or a
// file as the browser holds it) and shows a summary instead
// (./largeTextBox.ts); how it is measured is in ./textMeasure.ts.

/**
 * Text longer than this many characters (UTF-16 code units) is not put into
 * a text box: the box shows a summary instead. Chromium lays a text box's
 * whole text out on every edit, which for 10^5 lines costs 100-500 ms a
 * keystroke and for 10^6 lines freezes the page for most of a minute.
 */
export const LARGE_TEXT_CHARS = 200_000;

/**
 * Longest list the page takes from one paste or text drop into a Keys box,
 * in characters: the core's limits table row `pasted-list-chars` (64 Mi,
 * about three million 20-digit keys). Larger key sets are written as
 * ranges or random:N:seed, or run in the CLI.
 */
export const MAX_PASTED_LIST_CHARS = 64 * 1024 * 1024;

/** Why a paste that would make `chars` characters is refused, or null when it fits. */
export function pasteTooLargeMessage(chars: number, limit = MAX_PASTED_LIST_CHARS): string | null {
  if (chars <= limit) return null;
  return (
    `That paste would make a list of ${chars.toLocaleString('en-US')} characters; the page takes at most ` +
    `${limit.toLocaleString('en-US')} (pasted-list-chars). Nothing was pasted. For more keys write a range ` +
    '(0..99999999) or random:N:seed, or run the CLI.'
  );
}

/** Text with more lines than this is not put into a text box either (see LARGE_TEXT_CHARS). */
export const LARGE_TEXT_LINES = 10_000;

/**
 * Whether `text` is too large for a text box: over LARGE_TEXT_CHARS
 * characters or over LARGE_TEXT_LINES lines. Reads at most the first
 * LARGE_TEXT_LINES + 1 line breaks, so it costs little even on large text.
 */
export function isLargeText(text: string): boolean {
  if (text.length > LARGE_TEXT_CHARS) return true;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    // LARGE_TEXT_LINES lines have at most LARGE_TEXT_LINES line breaks (the last may end with one).
    if (++breaks > LARGE_TEXT_LINES) return true;
  }
  // A last line without '\n' is a line too.
  return breaks === LARGE_TEXT_LINES && !text.endsWith('\n');
}

/**
 * The text a paste (or a text drop) makes: `current` with `inserted` in
 * place of selectionStart..selectionEnd, when that text is large (see
 * isLargeText); null when the browser may insert it as usual. Cheap for a
 * small paste: it builds the whole text only for a paste of 1,000
 * characters or more.
 */
export function largePasteResult(current: string, selectionStart: number, selectionEnd: number, inserted: string): string | null {
  if (inserted.length < 1000 && !isLargeText(inserted)) return null;
  const next = current === '' ? inserted : current.slice(0, selectionStart) + inserted + current.slice(selectionEnd);
  return isLargeText(next) ? next : null;
}
