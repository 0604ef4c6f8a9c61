// The exercise's problem sets: small scripts from the exercise
// (the exercise "Jump Consistent Hash") that a student reproduces with their own program. The
// exercise console opens them with the expected output hidden until the
// student asks for it; a link names the problem (`problem=<id>`), never the
// student's output.

import type { PROBLEM_IDS } from '../url';

export type ProblemId = (typeof PROBLEM_IDS)[number];

export interface Problem {
  id: ProblemId;
  /** Short name for the preset list. */
  title: string;
  /** What the student's program must do, in a sentence or two. */
  task: string;
  /** The script whose output is the right answer. */
  script: string;
}

export const PROBLEMS: readonly Problem[] = [
  {
    id: 'key-42',
    title: 'Key 42',
    task: 'Print the bucket of key 42 among 100 buckets and among 1000 buckets, one line each, as "<key>: <bucket>".',
    script: '# Problem: key 42 among 100 and among 1000 buckets.\nHASH 42 100\nHASH 42 1000\n',
  },
  {
    id: 'largest-key',
    title: 'The largest key',
    task:
      'Print the bucket of the largest 64-bit key, 18446744073709551615, among 100 buckets, and of 9007199254740993 (2^53 + 1) among 1000, as "<key>: <bucket>". Both need exact 64-bit arithmetic.',
    script: '# Problem: the largest key, and the first key a double cannot hold.\nHASH 18446744073709551615 100\nHASH 9007199254740993 1000\n',
  },
  {
    id: 'resize-10-12',
    title: '10 → 12 moves',
    task:
      'For the keys 0 to 49, grow from 10 to 12 buckets: print each key that moves as "<key>: <old> -> <new>" in key order, then "moved: <count> of <total>" with the count you counted.',
    script: '# Problem: which of the keys 0..49 move when 10 buckets become 12?\nKEYS 0..49\nMOVED 10 12\n',
  },
  {
    id: 'trace-42',
    title: 'Trace key 42',
    task:
      'Print where key 42 jumps as the bucket count grows from 1 to 800: for each n at which its bucket changes, "<n>: <bucket>".',
    script: '# Problem: the jumps of key 42 up to 800 buckets.\nTRACE 42 800\n',
  },
  {
    id: 'strings',
    title: 'Strings as keys',
    task:
      'Hash the strings alice, bob and café (UTF-8) with XXH3-64 and print the bucket of each among 100 buckets as "\\"<string>\\": <bucket>".',
    script: '# Problem: strings as keys (the key is XXH3-64 of the UTF-8 bytes).\nHASH "alice" 100\nHASH "bob" 100\nHASH "café" 100\n',
  },
  {
    id: 'exercise',
    title: 'The whole exercise',
    task:
      'Everything at once: three single keys, the buckets of keys 1 to 20 among 10, the keys that move from 10 to 11 buckets with the count, and the jumps of key 42 up to 800.',
    // The same script as tests/check/exercise.script (the checker's golden
    // transcripts); e2e/checker.spec.ts keeps the two equal.
    script:
      '# The exercise: a few keys, one resize, one trace.\nHASH 42 100\nHASH 9007199254740993 1000\nHASH 18446744073709551615 100\nKEYS 1..20\nBUCKETS 10\nMOVED 10 11\nTRACE 42 800\n',
  },
];

export function findProblem(id: string): Problem | undefined {
  return PROBLEMS.find((problem) => problem.id === id);
}
