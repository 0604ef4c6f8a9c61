import type { CheckLine, CheckResult, CheckVerdict } from 'jumphash-wasm';
import { describe, expect, it } from 'vitest';
import { digestCheck } from './checkDigest';

function line(index: number, verdict: CheckVerdict): CheckLine {
  return {
    verdict,
    expectedLine: verdict === 'extra' ? 0 : index + 1,
    actualLine: verdict === 'missing' ? 0 : index + 1,
    scriptLine: 2,
    command: 'BUCKETS 10',
    expected: `${index}: 1`,
    actual: verdict === 'match' ? `${index}: 1` : `${index}: 2`,
    formatProblem: '',
    diagnoses: [],
  };
}

function result(verdicts: CheckVerdict[]): CheckResult {
  const lines = verdicts.map((verdict, i) => line(i, verdict));
  const matching = verdicts.filter((v) => v === 'match').length;
  return {
    lines,
    matching,
    expectedLines: lines.length,
    actualLines: lines.length,
    scriptErrors: [],
    alignedByPosition: false,
    allMatch: matching === lines.length,
    text: 'checked: report\n',
  };
}

describe('digestCheck', () => {
  it('keeps every line of a short output, with the counts per verdict in order of appearance', async () => {
    const digest = digestCheck(result(['match', 'wrong-value', 'missing', 'wrong-value', 'match']));
    expect(digest.rows).toHaveLength(5);
    expect(digest.counts).toEqual([['wrong-value', 2], ['missing', 1]]);
    expect(digest.problems).toBe(3);
    expect(digest.shownProblems).toBe(3);
    expect(await digest.report.text()).toBe('checked: report\n');
  });

  it('shows each difference of a long output with its context and counts the lines between', () => {
    const verdicts: CheckVerdict[] = Array.from({ length: 1000 }, () => 'match');
    verdicts[0] = 'wrong-format';
    verdicts[500] = 'wrong-value';
    verdicts[999] = 'extra';
    const digest = digestCheck(result(verdicts), { showAll: 600, context: 2, maxProblems: 300 });
    const shape = digest.rows.map((row) => (typeof row === 'number' ? row : `L${row.actualLine}`));
    expect(shape).toEqual(['L1', 'L2', 'L3', 495, 'L499', 'L500', 'L501', 'L502', 'L503', 494, 'L998', 'L999', 'L1000']);
    expect(digest.shownProblems).toBe(3);
    expect(digest.problems).toBe(3);
  });

  it('shows at most maxProblems differences of a long output but counts them all', () => {
    const verdicts: CheckVerdict[] = Array.from({ length: 2000 }, (_, i) => (i % 2 ? 'wrong-value' : 'match'));
    const digest = digestCheck(result(verdicts), { showAll: 600, context: 0, maxProblems: 10 });
    expect(digest.shownProblems).toBe(10);
    expect(digest.problems).toBe(1000);
    expect(digest.rows.filter((row) => typeof row !== 'number')).toHaveLength(10);
    expect(digest.rows.at(-1)).toBe(2000 - 20);
  });
});
