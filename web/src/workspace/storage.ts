// Keeping a student's programs in this browser: one per problem (or the
// console) and language, in localStorage, so they survive reloads. Nothing
// here ever goes into a link; sharing a program is the workspace's explicit
// "Copy a link with my program".

import type { Language } from './sandbox';

const PREFIX = 'jumphash.workspace.v1';

/** Where a program belongs: a problem set's id, or 'console'. */
export type Place = string;

function programKey(place: Place, language: Language): string {
  return `${PREFIX}.program.${place}.${language}`;
}

/** The kept program, or null when there is none (or storage is blocked). */
export function loadProgram(place: Place, language: Language): string | null {
  try {
    return localStorage.getItem(programKey(place, language));
  } catch {
    return null;
  }
}

/**
 * Keeps the program; returns null when it is kept, or a sentence saying why
 * not (storage blocked or full) so the page can tell the student to download it.
 */
export function saveProgram(place: Place, language: Language, code: string): string | null {
  try {
    localStorage.setItem(programKey(place, language), code);
    return null;
  } catch (error) {
    const full = error instanceof DOMException && error.name === 'QuotaExceededError';
    return full
      ? 'This browser’s storage for the page is full, so your program is not kept: download it to keep it.'
      : 'This browser does not let the page keep your program (storage is blocked): download it to keep it.';
  }
}

/** Forgets the kept program (Reset to the starter). */
export function forgetProgram(place: Place, language: Language): void {
  try {
    localStorage.removeItem(programKey(place, language));
  } catch {
    // nothing was kept
  }
}

/** A setting kept across visits (the language, the time limit), or null. */
export function loadSetting(name: string): string | null {
  try {
    return localStorage.getItem(`${PREFIX}.${name}`);
  } catch {
    return null;
  }
}

export function saveSetting(name: string, value: string): void {
  try {
    localStorage.setItem(`${PREFIX}.${name}`, value);
  } catch {
    // a setting that is not kept costs nothing
  }
}
