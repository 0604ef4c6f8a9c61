import { describe, expect, test } from 'vitest';
import { PROBLEM_IDS } from '../url';
import { PROBLEMS, findProblem } from './checkerProblems';

describe('problem sets', () => {
  test('every id a link may name has exactly one problem, in the same order', () => {
    expect(PROBLEMS.map((problem) => problem.id)).toEqual([...PROBLEM_IDS]);
    for (const id of PROBLEM_IDS) expect(findProblem(id)?.id).toBe(id);
    expect(findProblem('homework-7')).toBeUndefined();
  });

  test('each problem has a title, a task and a script that ends its last line', () => {
    for (const problem of PROBLEMS) {
      expect(problem.title.length).toBeGreaterThan(0);
      expect(problem.task.length).toBeGreaterThan(20);
      expect(problem.script).toMatch(/^# .*\n(?:[A-Z]+ .*\n)+$/);
    }
  });
});
