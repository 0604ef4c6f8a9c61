// Puts a solution into a starter program: replaces the text between the
// starter's marker lines
//   // ===== BEGIN YOUR CODE =====   (JavaScript)
//   # ===== BEGIN YOUR CODE =====    (Python)
// and the matching END line, keeping both marker lines.
// Used by run_solutions.mjs and by the Playwright tests of the workspace.

const BEGIN = /^[ \t]*(\/\/|#) ===== BEGIN YOUR CODE =====[ \t]*\r?$/gm;
const END = /^[ \t]*(\/\/|#) ===== END YOUR CODE =====[ \t]*\r?$/gm;

/**
 * The starter with `yourCodeText` between its marker lines.
 *
 * @param {string} starterText  a starter program with exactly one BEGIN line and, after it,
 *   exactly one END line
 * @param {string} yourCodeText  what goes between them (a final newline is added when missing)
 * @returns {string} the assembled program
 * @throws {Error} when the starter does not have exactly one BEGIN line followed by one END line
 */
export function assemble(starterText, yourCodeText) {
  const begins = [...starterText.matchAll(BEGIN)];
  const ends = [...starterText.matchAll(END)];
  if (begins.length !== 1 || ends.length !== 1) {
    throw new Error(
      `the starter must have exactly one "===== BEGIN YOUR CODE =====" line and one ` +
        `"===== END YOUR CODE =====" line (found ${begins.length} and ${ends.length})`,
    );
  }
  const beginLineEnd = starterText.indexOf('\n', begins[0].index);
  const endLineStart = ends[0].index;
  if (beginLineEnd < 0 || beginLineEnd >= endLineStart) {
    throw new Error('the starter\'s "===== END YOUR CODE =====" line must come after its BEGIN line');
  }
  const code = yourCodeText === '' || yourCodeText.endsWith('\n') ? yourCodeText : `${yourCodeText}\n`;
  return starterText.slice(0, beginLineEnd + 1) + code + starterText.slice(endLineStart);
}
