// A report split across workers, a worker's side of it (the page's side is
// engine/splitReport.ts): its runs, which count a grant of keys at a time
// and keep their counts until collected, and the merge. A module of its
// own, fetched by the engine worker when the page warms it up (which then
// runs it once on a few keys: warmUp) or on a split report's first
// request, so that the worker every page starts (an embed too) carries
// less code.

import type { Job, Jumphash, LoadResult, MovedKeyColumns, ResizeJob, ResizePart } from 'jumphash-wasm';
import type {
  LoadOutcome,
  LoadReply,
  LoadRequest,
  MergeLoadRequest,
  MergeResizeRequest,
  ResizeOutcome,
  ResizePartReply,
  ResizeReply,
  ResizeRequest,
  GrantDone,
  RunStart,
  SplitCollectRequest,
  SplitRunRequest,
  StepOutcome,
} from './protocol';
import { buffersOf, loadLabel, loadTopology, resizeSteps, throwIfAllFailed } from './reportJobs';
import { firstMoved } from './split';
import { partBuffers, sampleBuffers } from './transfer';
import { Progress, type WithKeyText, blame, messageOf, parseScenario, stepJob, withKeyText, withOptions } from './workerJobs';

/** One report of a run: its job, or why it has none. */
interface RunReport {
  algorithm: string;
  /** The resize's step ("10 → 12"), or what a load counts ("loads among 1000"). */
  label: string;
  job: Job<unknown> | null;
  error: string | null;
  /** A resize's moved-key list, once taken out of the job early (takeFinalSamples). */
  sample?: MovedKeyColumns;
  /** The moved keys a resize's job lists at most (none for a load). */
  sampleLimit?: number;
}

/** A run this worker counts (SplitRunRequest). */
interface Running {
  kind: 'resize' | 'load';
  keyCount: number;
  begin: number;
  end: number;
  /** Counted from `end` down (RunStart.fromEnd). */
  fromEnd: boolean;
  /** Keys [begin, counted) are counted; counted from the end, [counted, end). */
  counted: number;
  reports: RunReport[];
  /** The chunk size stepJob goes on with. */
  chunk: number;
  /** Take each resize's list out of its job once final (RunStart.sampleEarly). */
  sampleEarly: boolean;
}

/** The runs started and not collected, by id. */
const runs = new Map<number, Running>();

/** The jobs of a run (RunStart) over its report's keys [begin, end), one per report. */
function startRun(jh: Jumphash, start: RunStart & { report: WithKeyText<ResizeRequest | LoadRequest> }): Running {
  const { report, begin, end, fromEnd = false } = start;
  const keyCount = blame('keys', () => jh.keyCount(report.keys));
  const scenario = report.scenario ? parseScenario(jh, report.scenario) : null;
  const keyRange: [number, number] = [begin, end];
  const reports: RunReport[] = [];
  const attempt = (algorithm: string, label: string, begin: () => Job<unknown>, sampleLimit?: number) => {
    try {
      reports.push({ algorithm, label, job: begin(), error: null, sampleLimit });
    } catch (error) {
      reports.push({ algorithm, label, job: null, error: messageOf(error) });
    }
  };
  try {
    if (report.kind === 'resize') {
      resizeSteps(jh, report, scenario).forEach(({ algo, label, start: startJob }, k) => {
        const sampleLimit = start.sampleLimits?.[k] ?? report.sampleLimit;
        attempt(algo, label, () => startJob({ sampleLimit, keyRange, fromEnd }), sampleLimit);
      });
      throwIfAllFailed(reports, scenario !== null);
    } else {
      const label = loadLabel(report.n, scenario !== null);
      for (const algo of report.algos) attempt(algo, label, () => jh.startLoad(withOptions(algo, scenario), report.keys, loadTopology(report, scenario), { keyRange, fromEnd }));
      throwIfAllFailed(reports, scenario !== null, () => 'n');
    }
  } catch (error) {
    for (const { job } of reports) job?.dispose();
    throw error;
  }
  return { kind: report.kind, keyCount, begin, end, fromEnd, counted: fromEnd ? end : begin, reports, chunk: 65536, sampleEarly: start.sampleEarly === true };
}

/**
 * Counts `run`'s keys up to position `to` (counted from the end: down to
 * it), every report in turn, with progress over the grant's keys; returns
 * the grant's progress at its end (SplitRunRequest's reply).
 */
function countRun(id: number, run: Running, to: number): GrantDone {
  if (!Number.isSafeInteger(to) || (run.fromEnd ? !(to < run.counted && to >= run.begin) : !(to > run.counted && to <= run.end))) {
    const bound = run.fromEnd ? `begin before key ${run.counted} and at least at ${run.begin}` : `end after key ${run.counted} and at most at ${run.end}`;
    throw new Error(`splitRun: a grant must ${bound}, got ${to}`);
  }
  takeFinalSamples(run);
  const keys = Math.abs(to - run.counted);
  const total = keys * run.reports.length;
  const progress = new Progress(id, total, true);
  // Keys each job has done at the grant's end.
  const until = run.fromEnd ? run.end - to : to - run.begin;
  let phase = '';
  for (const { algorithm, label, job } of run.reports) {
    phase = `${algorithm}: ${label}`;
    if (job) run.chunk = stepJob(job, progress, phase, until, run.chunk);
    else progress.add(keys, phase);
  }
  run.counted = to;
  return { done: total, total, phase };
}

/**
 * Takes out of `run`'s resize jobs each moved-key list that is final and
 * not taken yet (RunStart.sampleEarly): at the start of a grant, so after
 * the reply to the one before it, and while the other workers still count.
 * Collected, the run then copies only its counts (partResult with
 * { sample: false }). In a 2-worker jump 10 -> 12 over random:10000000:1,
 * the first run's list of 200,000 keys is full within its first grant;
 * copying it out took 11-23 ms (Chromium traces, 2026-12-05), and the
 * reply came 6-9 ms sooner than when it was copied after the last grant
 * (docs/every-core.md).
 */
function takeFinalSamples(run: Running): void {
  if (!run.sampleEarly || run.kind !== 'resize') return;
  for (const report of run.reports) {
    const job = report.job as ResizeJob | null;
    // A list of none (a skipped sample) costs nothing to take at the end.
    if (job && !report.sample && report.sampleLimit && job.sampleFinal) report.sample = job.partResult().sample;
  }
}

/** Run `runId` of this worker; `request` names what asked for it in the error when there is none. */
function runOf(runId: number, request: string): Running {
  const run = runs.get(runId);
  if (!run) throw new Error(`${request}: no run ${runId} in this worker`);
  return run;
}

/**
 * Run `runId`, which ends it: taken out of `runs`, its jobs' keys ended
 * where it has counted to (Job.endHere: a run met by another ends where
 * they met), its jobs the caller's to dispose.
 */
function takeRun(runId: number, request: string): Running {
  const run = runOf(runId, request);
  runs.delete(runId);
  for (const { job } of run.reports) job?.endHere();
  return run;
}

/** A run's counts (SplitCollectRequest), which ends it: each report's ResizePart or LoadResult over the keys it counted. */
function collectRun(runId: number): { reply: ResizePartReply | LoadReply; transfer: Transferable[] } {
  const run = takeRun(runId, 'splitCollect');
  const transfer: Transferable[] = [];
  try {
    if (run.kind === 'resize') {
      const steps = run.reports.map(({ algorithm, label, job, error, sample }): StepOutcome<ResizePart> => {
        if (!job) return { algorithm, label, result: null, error };
        const part = sample ? { ...(job as ResizeJob).partResult({ sample: false }), sample } : (job as ResizeJob).partResult();
        transfer.push(...partBuffers(part));
        return { algorithm, label, result: part, error: null };
      });
      return { reply: { keyCount: run.keyCount, steps }, transfer };
    }
    return { reply: { keyCount: run.keyCount, items: loadItems(run, transfer) }, transfer };
  } finally {
    for (const { job } of run.reports) job?.dispose();
  }
}

/**
 * Each load report of `run` as its LoadOutcome, its result's buffers put
 * into `transfer`; `absorb(job, k)` runs first, and the outcome it gives
 * (a part that failed) stands instead.
 */
function loadItems(run: Running, transfer: Transferable[], absorb?: (job: Job<LoadResult>, k: number) => LoadOutcome | undefined): LoadOutcome[] {
  return run.reports.map(({ algorithm, job, error }, k): LoadOutcome => {
    if (!job) return { algorithm, result: null, error };
    const instead = absorb?.(job as Job<LoadResult>, k);
    if (instead) return instead;
    const result = (job as Job<LoadResult>).result();
    transfer.push(...buffersOf(result));
    return { algorithm, result, error: null };
  });
}

type SplitRequest = SplitRunRequest | SplitCollectRequest | MergeResizeRequest | MergeLoadRequest;

/** The requests taken so far, answered one after the other (answer). */
let answered: Promise<unknown> = Promise.resolve();

/**
 * A split report's request to this worker, answered once every request
 * taken before it is: a run's grants come in order, and its first (which
 * starts the run, and may read a Blob of keys first) is done before the
 * next.
 */
export function splitRequest(jh: Jumphash, id: number, request: SplitRequest): Promise<{ reply: unknown; transfer: Transferable[] }> {
  const answer = answered.then(() => answerSplit(jh, id, request));
  answered = answer.catch(() => {});
  return answer;
}

/** A run's grant or its counts, or the merge. */
async function answerSplit(jh: Jumphash, id: number, request: SplitRequest): Promise<{ reply: unknown; transfer: Transferable[] }> {
  switch (request.kind) {
    case 'splitRun': {
      if (request.start) {
        if (runs.has(request.run)) throw new Error(`splitRun: run ${request.run} is started already`);
        runs.set(request.run, startRun(jh, { ...request.start, report: await withKeyText(request.start.report) }));
      }
      return { reply: countRun(id, runOf(request.run, 'splitRun'), request.to), transfer: [] };
    }
    case 'splitCollect':
      return collectRun(request.run);
    case 'mergeResize':
      if (request.into !== undefined) return finishRun(takeRun(request.into, 'mergeResize'), request.request, request.parts);
      return mergeResize(jh, await withKeyText(request.request), request.parts);
    case 'mergeLoad':
      if (request.into !== undefined) return finishRun(takeRun(request.into, 'mergeLoad'), request.request, request.parts);
      return mergeLoad(jh, await withKeyText(request.request), request.parts);
  }
}

/**
 * The report of `job`, which has absorbed the counts of `before` and
 * `after` (the runs before its own keys and after them, each in key
 * order): its list is the moved keys of the runs before, its own (none
 * for a merging job, which samples none), then those of the runs after,
 * cut at `sampleLimit` (firstMoved), and its buffers go into `transfer`.
 */
function joinedOutcome(
  job: ResizeJob,
  { before, after }: Around<StepOutcome<ResizePart>>,
  sampleLimit: number,
  transfer: Transferable[],
  algorithm: string,
  label: string,
): ResizeOutcome {
  const { sample: own, ...counts } = job.resultInColumns({ flows: 'cells' });
  const samples = (outcomes: StepOutcome<ResizePart>[]) => outcomes.map((outcome) => outcome.result!.sample);
  const sample = firstMoved([...samples(before), own, ...samples(after)], sampleLimit);
  transfer.push(...buffersOf(counts), ...sampleBuffers(sample));
  return { algorithm, label, result: { ...counts, sample }, error: null };
}

/** An empty moved-key list: a part's counts are absorbed without it (finishRun joins the lists). */
const NO_SAMPLE: MovedKeyColumns = { values: new BigUint64Array(0), oldBuckets: new Int32Array(0), newBuckets: new Int32Array(0), labels: [] };

/** Parts of a report (other runs' counts, each in key order) before a run's keys and after them. */
interface Around<T> {
  before: T[];
  after: T[];
}

/**
 * `outcomes`, one per other run of a report and all counted (a failed one
 * is never absorbed), in key order, split at `run`'s keys: the runs before
 * them end at or before its first key.
 */
function around<T extends { result: { keyRange: readonly [number, number] } | null }>(run: Running, outcomes: T[]): Around<T> {
  const first = run.fromEnd ? run.counted : run.begin;
  const before = outcomes.filter((outcome) => outcome.result!.keyRange[1] <= first);
  return { before, after: outcomes.slice(before.length) };
}

/**
 * Each of `parts` absorbed by `absorb` in the order the package's
 * Job.absorb takes them, each beside the keys held so far: the runs before
 * from the nearest back, then the runs after in key order.
 */
function absorbAround<T>({ before, after }: Around<T>, absorb: (part: T) => void): void {
  for (let i = before.length - 1; i >= 0; i--) absorb(before[i]!);
  for (const part of after) absorb(part);
}

/**
 * The report's reply from `run` (MergeResizeRequest's `into`), whose jobs
 * absorb `parts`, every other run in key order, before its keys or after
 * them: the same counts as mergeResize or mergeLoad, without the run's own
 * counts copied out of its jobs and into a merging job's. A resize's lists
 * are joined as there (firstMoved), not by the package's absorb, which
 * makes an object per key.
 */
function finishRun(run: Running, request: ResizeRequest | LoadRequest, parts: (ResizePartReply | LoadReply)[]): { reply: ResizeReply | LoadReply; transfer: Transferable[] } {
  const transfer: Transferable[] = [];
  try {
    if (run.kind === 'resize') {
      const resizeParts = parts as ResizePartReply[];
      const steps = run.reports.map(({ algorithm, label, job, error }, k): ResizeOutcome => {
        const outcomes = resizeParts.map((part) => part.steps[k]!);
        const failed = outcomes.find((outcome) => outcome.result === null);
        if (!job) return { algorithm, label, result: null, error };
        if (failed) return { ...failed, result: null };
        const resizeJob = job as ResizeJob;
        const sides = around(run, outcomes);
        absorbAround(sides, (outcome) => resizeJob.absorb({ ...outcome.result!, sample: NO_SAMPLE }));
        return joinedOutcome(resizeJob, sides, (request as ResizeRequest).sampleLimit, transfer, algorithm, label);
      });
      return { reply: { keyCount: run.keyCount, steps }, transfer };
    }
    const loadParts = parts as LoadReply[];
    const items = loadItems(run, transfer, (job, k) => {
      const outcomes = loadParts.map((part) => part.items[k]!);
      const failed = outcomes.find((outcome) => outcome.result === null);
      if (failed) return failed;
      absorbAround(around(run, outcomes), (outcome) => job.absorb(outcome.result!));
      return undefined;
    });
    return { reply: { keyCount: run.keyCount, items }, transfer };
  } finally {
    for (const { job } of run.reports) job?.dispose();
  }
}

/**
 * The runs of a resize (SplitCollectRequest, in key order) made into one
 * reply: for each report, a job over no keys of its own absorbs every run
 * in key order, so the core sums the counts and derives the rest, exactly
 * as one worker over every key would.
 */
export function mergeResize(jh: Jumphash, request: WithKeyText<ResizeRequest>, parts: ResizePartReply[]): { reply: ResizeReply; transfer: Transferable[] } {
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const planned = resizeSteps(jh, request, scenario);
  const transfer: Transferable[] = [];
  const steps = planned.map(({ algo, label, start }, k): ResizeOutcome => {
    const outcomes = parts.map((part) => part.steps[k]!);
    const failed = outcomes.find((outcome) => outcome.result === null);
    if (failed) return { ...failed, result: null };
    // The core sums the counts; the list is the runs' own samples, cut at
    // the limit (split.ts, firstMoved; the merging job keeps none).
    const job = start({ sampleLimit: 0, keyRange: [0, 0] });
    try {
      for (const outcome of outcomes) job.absorb(outcome.result!);
      return joinedOutcome(job, { before: [], after: outcomes }, request.sampleLimit, transfer, algo, label);
    } finally {
      job.dispose();
    }
  });
  return { reply: { keyCount: parts[0]!.keyCount, steps }, transfer };
}

/** The runs of a load made into one reply, as mergeResize. */
export function mergeLoad(jh: Jumphash, request: WithKeyText<LoadRequest>, parts: LoadReply[]): { reply: LoadReply; transfer: Transferable[] } {
  const scenario = request.scenario ? parseScenario(jh, request.scenario) : null;
  const transfer: Transferable[] = [];
  const items = request.algos.map((algo, k): LoadOutcome => {
    const outcomes = parts.map((part) => part.items[k]!);
    const failed = outcomes.find((outcome) => outcome.result === null);
    if (failed) return failed;
    const job = jh.startLoad(withOptions(algo, scenario), request.keys, loadTopology(request, scenario), { keyRange: [0, 0] });
    try {
      job.step(1);
      for (const outcome of outcomes) job.absorb(outcome.result!);
      const result = job.result();
      transfer.push(...buffersOf(result));
      return { algorithm: algo, result, error: null };
    } finally {
      job.dispose();
    }
  });
  return { reply: { keyCount: parts[0]!.keyCount, items }, transfer };
}

/** Keys each of warmUp's two runs counts. */
const WARM_UP_KEYS = 1 << 16;
/** Run ids of warmUp's runs: negative, apart from the page's (from 1 up). */
let lastWarmUpRun = 0;

/**
 * Runs a small split report through this worker's split code: two runs of
 * jumpback 10 -> 11 over WARM_UP_KEYS keys each, one counting up and one
 * down, the second collected and absorbed by the first, as the page's short
 * reports are. Its reply is dropped. Called once, when the page warms its
 * workers up (ReportPool.prepareSplit), so that V8 has optimised that code
 * before the first real split report: a WebAssembly function runs as
 * baseline code until it has run enough, and the collect and merge run
 * once a report. The counts are small (a 10 x 11 flow matrix), so the
 * worker's memory does not grow for it. Timed in Chromium on 2 cores, the
 * first 2-worker report of jumpback 1000 -> 1001 over random:10000000:1
 * after a page load reached its reply in a median 67.4 ms against 95.1
 * without it (10 fresh pages each, builds taken in turn; another run, 12
 * each: 85.5 against 94.4), and jump 10 -> 12, whose lookups it does not
 * warm, in 200.4 against 216.6 (8 each). The warm-up itself took 10-78 ms
 * of each worker, 500 ms after the load. (Warming up with 1000 -> 1001,
 * whose flow matrices were then whole 8 MB arrays, grew the memory ahead
 * of that report and gave 48.5 ms, but would have kept tens of MB in every
 * worker of every page.)
 */
export async function warmUp(jh: Jumphash, id: number): Promise<void> {
  const report: ResizeRequest = { kind: 'resize', algos: ['jumpback'], keys: `random:${2 * WARM_UP_KEYS}:1`, sizes: [10, 11], sampleLimit: 1000 };
  const first = --lastWarmUpRun;
  const second = --lastWarmUpRun;
  try {
    await splitRequest(jh, id, { kind: 'splitRun', run: first, start: { report, begin: 0, end: WARM_UP_KEYS }, to: WARM_UP_KEYS });
    await splitRequest(jh, id, { kind: 'splitRun', run: second, start: { report, begin: WARM_UP_KEYS, end: 2 * WARM_UP_KEYS, fromEnd: true }, to: WARM_UP_KEYS });
    const { reply } = await splitRequest(jh, id, { kind: 'splitCollect', run: second });
    await splitRequest(jh, id, { kind: 'mergeResize', request: report, parts: [reply as ResizePartReply], into: first });
  } finally {
    // Collected and merged runs are gone already; one left by a failure is dropped.
    runs.delete(first);
    runs.delete(second);
  }
}
