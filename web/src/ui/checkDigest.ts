// What the page shows of a check (the core's CheckResult), made in the text
// worker: a check of 10^6 lines has 10^6 line objects, which would take
// seconds to copy into the page and lay out; the page gets the counts, the
// lines it shows (every line of a short output; of a long one, each
// difference with a few lines around it) and the report as a file.

import type { CheckLine, CheckResult, CheckVerdict } from 'jumphash-wasm';

/** Outputs up to this many lines are shown whole; longer ones show the differences with context. */
export const SHOW_ALL_LINES = 600;
/** Lines of context around each difference in a long output. */
export const CONTEXT_LINES = 2;
/** Most differences shown in the page (the downloaded report has all). */
export const MAX_SHOWN_PROBLEMS = 300;

/** The page's part of a check. */
export interface CheckDigest {
  /** How many expected lines match. */
  matching: number;
  /** How many lines the script prints. */
  expectedLines: number;
  /** How many lines the student's output has. */
  actualLines: number;
  /** The script's own `line N: error: ...` messages. */
  scriptErrors: string[];
  /** True when a very large stretch of output was paired by position instead of by key. */
  alignedByPosition: boolean;
  /** Every expected line matches and there is no extra line. */
  allMatch: boolean;
  /** Lines that are not a match, per verdict, in the order the verdicts first appear. */
  counts: [CheckVerdict, number][];
  /** Lines that are not a match, in all. */
  problems: number;
  /**
   * What the page lays out, in order: a line (with its verdict), or a number:
   * that many matching lines not shown between two shown ones.
   */
  rows: (CheckLine | number)[];
  /** Differences among `rows` (at most MAX_SHOWN_PROBLEMS when the output is long). */
  shownProblems: number;
  /** The report exactly as `jumphash check SCRIPT OUTPUT` prints it (a Blob: it may be large). */
  report: Blob;
}

export interface DigestLimits {
  /** Outputs up to this many lines are shown whole. */
  showAll: number;
  /** Lines of context around each difference. */
  context: number;
  /** Most differences shown. */
  maxProblems: number;
}

export const DIGEST_LIMITS: DigestLimits = { showAll: SHOW_ALL_LINES, context: CONTEXT_LINES, maxProblems: MAX_SHOWN_PROBLEMS };

/** The digest of `result` (see CheckDigest) under `limits`. */
export function digestCheck(result: CheckResult, limits: DigestLimits = DIGEST_LIMITS): CheckDigest {
  const lines = result.lines;
  const counts = new Map<CheckVerdict, number>();
  let problems = 0;
  for (const line of lines) {
    if (line.verdict === 'match') continue;
    problems++;
    counts.set(line.verdict, (counts.get(line.verdict) ?? 0) + 1);
  }
  // Which lines to show: all of a short output; of a long one, each
  // difference (the first maxProblems) with `context` lines around it.
  const show = new Uint8Array(lines.length);
  let shownProblems = 0;
  if (lines.length <= limits.showAll) {
    show.fill(1);
    shownProblems = problems;
  } else {
    for (let i = 0; i < lines.length && shownProblems < limits.maxProblems; i++) {
      if (lines[i]!.verdict === 'match') continue;
      shownProblems++;
      const last = Math.min(lines.length - 1, i + limits.context);
      for (let j = Math.max(0, i - limits.context); j <= last; j++) show[j] = 1;
    }
  }
  const rows: (CheckLine | number)[] = [];
  let hidden = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!show[i]) {
      hidden++;
      continue;
    }
    if (hidden) rows.push(hidden);
    hidden = 0;
    rows.push(lines[i]!);
  }
  if (hidden) rows.push(hidden);
  return {
    matching: result.matching,
    expectedLines: result.expectedLines,
    actualLines: result.actualLines,
    scriptErrors: [...result.scriptErrors],
    alignedByPosition: result.alignedByPosition,
    allMatch: result.allMatch,
    counts: [...counts],
    problems,
    rows,
    shownProblems,
    report: new Blob([result.text], { type: 'text/plain' }),
  };
}
