// The object loadChecker returns, around the checker module's Embind
// functions. A file of its own, imported only with that module (src/checker.js,
// src/inline.js), so that the main entry's bundle, which a page's first
// load carries, does not.
import { typeName } from './api.js';

export function createChecker(m) {
  const checker = {
    version: m.version(),

    check(script, studentOutput, options = {}) {
      if (typeof script !== 'string') throw new TypeError('script must be a string');
      if (typeof studentOutput !== 'string') throw new TypeError('studentOutput must be a string');
      if (options === null || typeof options !== 'object') throw new TypeError(`check: options must be an object, got ${typeName(options)}`);
      const maxLookups = options.maxLookups ?? 0;
      if (typeof maxLookups !== 'number' || !Number.isSafeInteger(maxLookups) || maxLookups < 0) {
        throw new RangeError(`check: options.maxLookups must be a whole number 0..${Number.MAX_SAFE_INTEGER} (0: no bound), got ${String(maxLookups)}`);
      }
      const native = m.check(script, studentOutput, maxLookups);
      if (native.error) throw new RangeError(native.error);
      const lines = [];
      for (let i = 0; i < native.lines.size(); ++i) {
        const line = native.lines.get(i);
        const diagnoses = [];
        for (let d = 0; d < line.diagnoses.size(); ++d) diagnoses.push(line.diagnoses.get(d));
        line.diagnoses.delete();
        lines.push({ ...line, diagnoses });
      }
      const scriptErrors = [];
      for (let i = 0; i < native.scriptErrors.size(); ++i) scriptErrors.push(native.scriptErrors.get(i));
      native.lines.delete();
      native.scriptErrors.delete();
      const { matching, expectedLines, actualLines, alignedByPosition, allMatch, text } = native;
      return { lines, matching, expectedLines, actualLines, scriptErrors, alignedByPosition, allMatch, text };
    },
  };
  return Object.freeze(checker);
}
