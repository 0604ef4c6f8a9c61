// Saving and opening scenario files in the browser: a download made from a
// Blob (no server; allowed by the page's Content-Security-Policy, which
// governs fetches, not downloads) and a file chosen with <input type=file>.

import { MAX_SCENARIO_FILE_BYTES } from '../url/file';
import { grouped } from './dom';

/** Offers `text` as a download named `name` (UTF-8, application/json). */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has its own reference by now; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The text of a chosen scenario file, or an error saying why it is not read:
 * larger than MAX_SCENARIO_FILE_BYTES (64 MiB), or not readable.
 */
export async function readChosenFile(file: File): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  if (file.size > MAX_SCENARIO_FILE_BYTES) {
    return {
      ok: false,
      error: `The file ${file.name} has ${grouped(file.size)} bytes; a scenario file may have at most ${grouped(MAX_SCENARIO_FILE_BYTES)}.`,
    };
  }
  try {
    return { ok: true, text: await file.text() };
  } catch (error) {
    return { ok: false, error: `The file ${file.name} could not be read (${String(error)}).` };
  }
}
