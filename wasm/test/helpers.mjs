// Shared by the wasm tests: paths, the module (loaded once per test file)
// and the readers of the test data the native tests read too.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { loadJumphash } from 'jumphash-wasm';

/** wasm/ (the package root). */
export const packageDir = fileURLToPath(new URL('..', import.meta.url));
/** The repository root. */
export const repoDir = path.resolve(packageDir, '..');
/** tests/ of the core, shared with the GoogleTest suite. */
export const testsDir = path.join(repoDir, 'tests');

/** The native CLI when it has been built (JUMPHASH_CLI overrides the path). */
export const nativeCli = process.env.JUMPHASH_CLI ?? path.join(repoDir, 'build/native/jumphash');
export const haveNativeCli = existsSync(nativeCli);

let instance;
/** One module instance per test file. */
/**
 * A resize result's sample as ResizeJob.resultInColumns gives it: typed
 * columns, and [index, key] for the keys that do not print in decimal.
 */
export function sampleInColumns(sample) {
  return {
    values: BigUint64Array.from(sample, (moved) => moved.value),
    oldBuckets: Int32Array.from(sample, (moved) => moved.oldBucket),
    newBuckets: Int32Array.from(sample, (moved) => moved.newBucket),
    labels: sample.flatMap((moved, i) => (/^[0-9]/.test(moved.key) ? [] : [[i, moved.key]])),
  };
}

/** A resize result's flow balance as ResizeJob.resultInColumns gives it: a column per field. */
export function balanceInColumns(flowBalance) {
  return {
    movedOut: Float64Array.from(flowBalance, (balance) => balance.movedOut),
    chiSquare: Float64Array.from(flowBalance, (balance) => balance.chiSquare),
    degreesOfFreedom: Float64Array.from(flowBalance, (balance) => balance.degreesOfFreedom),
  };
}

/** A resize result() as resultInColumns() gives it: the sample and the flow balance in columns. */
export function asColumns(result) {
  return { ...result, sample: sampleInColumns(result.sample), flowBalance: balanceInColumns(result.flowBalance) };
}

export function jumphash() {
  instance ??= loadJumphash();
  return instance;
}

/**
 * Rows of a vector TSV (tests/vectors/): a header naming the columns key, n,
 * bucket and optionally algo; '#' lines are comments. Keys stay bigint.
 */
export function readVectors(relative) {
  const text = readFileSync(path.join(testsDir, relative), 'utf8');
  let columns = null;
  const rows = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.replace(/\r$/, '').split('\t');
    if (columns === null) {
      columns = fields;
      continue;
    }
    const row = { algorithm: '', key: 0n, n: 0, bucket: 0 };
    columns.forEach((column, i) => {
      if (column === 'algo') row.algorithm = fields[i];
      if (column === 'key') row.key = BigInt(fields[i]);
      if (column === 'n') row.n = Number(fields[i]);
      if (column === 'bucket') row.bucket = Number(fields[i]);
    });
    rows.push(row);
  }
  return rows;
}

/** The text after "line N: error: " of the first error line of a script. */
export function cliMessage(stderr) {
  const match = /^line \d+: error: (.*)\n/.exec(stderr);
  if (!match) throw new Error(`no error line in ${JSON.stringify(stderr)}`);
  return match[1];
}
