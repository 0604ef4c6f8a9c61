// Calls every export of jumphash-wasm with the declared types. `tsc --noEmit`
// over this file checks that index.d.ts accepts correct use and rejects the
// misuse marked @ts-expect-error; test/types.test.mjs also compiles it and
// runs `exercise`, so the declared types must match what the module returns.
import {
  loadChecker,
  loadClaims,
  loadJumphash,
  type Checker,
  type ClaimChart,
  type ClaimInfo,
  type ClaimKind,
  type ClaimResult,
  type ClaimSeries,
  type ClaimVerdict,
  type Claims,
  type FlowCells,
  type ResizeResultInColumns,
  type ResizeResultWithCells,
  type AlgorithmInfo,
  type AlgorithmKind,
  type AlgorithmLimits,
  type Cluster,
  type ClusterNode,
  type Limits,
  type LimitRow,
  type RunBudget,
  type NodeChange,
  type OptionInfo,
  type Topology,
  type LanguageWords,
  type CheckDiagnosis,
  type CheckLine,
  type CheckResult,
  type FlowBalance,
  type Jumphash,
  type LoadJob,
  type LoadOptions,
  type LoadResult,
  type LoadStats,
  type MovedKeySample,
  type ParsedKey,
  type ProgressOptions,
  type ResizeJob,
  type ResizePart,
  type ResizeJobOptions,
  type ResizeOptions,
  type ResizeResult,
  type MovedKeyColumns,
  type ScriptResult,
  type TraceStep,
} from 'jumphash-wasm';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`usage.ts: ${what}`);
}

export async function exercise(wasmBinary?: Uint8Array): Promise<string[]> {
  const options: LoadOptions = wasmBinary ? { wasmBinary } : {};
  const byUrl: LoadOptions = { wasmUrl: 'https://example.org/jumphash_wasm.wasm' };
  check(typeof byUrl.wasmUrl === 'string', 'LoadOptions.wasmUrl');
  const jh: Jumphash = await loadJumphash(options);
  const done: string[] = [];

  const version: string = jh.version;
  check(/^\d+\.\d+\.\d+/.test(version), 'version');
  done.push('version');

  const infos: AlgorithmInfo[] = jh.algorithms();
  const first: AlgorithmInfo | undefined = infos[0];
  check(first !== undefined && typeof first.name === 'string' && typeof first.title === 'string' &&
        typeof first.paper === 'string' && typeof first.expectedCost === 'string' &&
        typeof first.consistent === 'boolean' && typeof first.removesAnyBucket === 'boolean', 'algorithms');
  const maglev = infos.find((a) => a.name === 'maglev');
  const kind: AlgorithmKind | undefined = maglev?.kind;
  const option: OptionInfo | undefined = maglev?.options[0];
  const algorithmLimits: AlgorithmLimits | undefined = maglev?.limits;
  check(kind === 'node-set' && option !== undefined && option.name === 'table' && Array.isArray(option.choices) &&
        algorithmLimits !== undefined && algorithmLimits.maxBuckets === 100000 && algorithmLimits.maxTrace === 0 &&
        typeof maglev?.memory === 'string' && typeof maglev?.weights === 'boolean', 'algorithms: node-set entry');
  done.push('algorithms');

  const limits: Limits = jh.limits();
  check(limits.maxNodes === 100000 && limits.maxNodeWeight === 1000000 && limits.maxBuckets === 2147483647, 'limits');
  const rows: readonly LimitRow[] = limits.table;
  const streamRow: LimitRow | undefined = rows.find((row) => row.name === 'stream-output-bytes');
  check(streamRow !== undefined && streamRow.value === limits.maxStreamOutputBytes && streamRow.enforcedBy === 'page', 'limits.table');
  done.push('limits');

  const path: 'simd128' | 'scalar' = jh.batchPath();
  jh.setBatchPath('scalar');
  check(path === 'simd128' && jh.batchPath() === 'scalar', 'batchPath/setBatchPath');
  jh.setBatchPath(path);
  done.push('batchPath', 'setBatchPath');

  const typed: ClusterNode[] = jh.parseNodes('a, b*2\n"c d"');
  const edits: NodeChange[] = jh.parseChanges('-a +e*3 =b*1');
  check(typed.length === 3 && typed[1]?.weight === 2 && typed[2]?.name === 'c d' && edits.length === 3 &&
        edits[0]?.kind === 'remove' && edits[1]?.kind === 'add', 'parseNodes/parseChanges');
  done.push('parseNodes', 'parseChanges');

  const servers: Topology = { kind: 'nodes', nodes: [{ name: 'a' }, { name: 'b', weight: 2 }, { name: 'c' }] };
  const cluster: Cluster = jh.cluster({ name: 'maglev', options: { table: 251 } }, servers);
  try {
    const nodes: ClusterNode[] = cluster.nodes;
    const index: number = cluster.bucket('"alice"');
    const many: Int32Array = cluster.buckets(new BigUint64Array([1n, 2n, 3n]));
    check(cluster.algorithm === 'maglev' && cluster.options === 'table=251' && nodes.length === 3 &&
          nodes[1]?.weight === 2 && cluster.stateBytes > 0 && index >= 0 && index < 3 && many.length === 3 &&
          index === jh.bucket('maglev table=251', '"alice"', servers), 'cluster');
  } finally {
    cluster.dispose();
  }
  done.push('cluster');

  const words: LanguageWords = jh.language();
  check(words.commands.includes('NODES') && words.algorithms.includes('ketama'), 'language');
  done.push('language');

  const b1: number = jh.bucket('jumpback', 18446744073709551615n, 100);
  const b2: number = jh.bucket('jump', '"alice"', 10);
  check(b1 === 73 && b2 >= 0 && b2 < 10, 'bucket');
  done.push('bucket');

  const out: Int32Array = jh.buckets('jump', new BigUint64Array([18446744073709551615n]), 100);
  const reused = new Int32Array(2);
  const same: Int32Array = jh.buckets('jumpback', new BigUint64Array([18446744073709551615n]), 100, reused);
  const onNodes: Int32Array = jh.buckets('rendezvous', new BigUint64Array([1n, 2n]), { kind: 'nodes', nodes: [{ name: 'x' }, { name: 'y' }] });
  check(out instanceof Int32Array && out[0] === 92 && same === reused && reused[0] === 73 && onNodes.length === 2, 'buckets');
  done.push('buckets');

  const script: ScriptResult = jh.run('HASH 42 100\nHASH x 1\n');
  const exitCode: number = script.exitCode;
  const stdout: string = script.stdout;
  const stderr: string = script.stderr;
  check(exitCode === 1 && stdout.startsWith('42: ') && stderr.startsWith('line 2: error: '), 'run');
  done.push('run');

  const pieces: string[] = [];
  const budget: RunBudget = { maxOutputBytes: 1000, maxLookups: 0 };
  const streamed: { exitCode: number } = jh.runStream('HASH 42 100\n', (stream: 'stdout' | 'stderr', text: string) => pieces.push(`${stream}:${text}`), budget);
  check(streamed.exitCode === 0 && pieces.join('') === 'stdout:42: 43\n', 'runStream');
  done.push('runStream');

  let streamedBytes = 0;
  let streamedLines = 0;
  const raw: { exitCode: number } = jh.runStreamBytes('HASH 42 100\n', (stream: 'stdout' | 'stderr', bytes: Uint8Array, lines: number, chars: number) => {
    streamedBytes += bytes.length;
    streamedLines += lines;
    check(chars === bytes.length && stream === 'stdout', 'runStreamBytes chunk');
  });
  check(raw.exitCode === 0 && streamedBytes === 7 && streamedLines === 1, 'runStreamBytes');
  done.push('runStreamBytes');

  const count: number = jh.keyCount('0..9999 random:100:7 "alice"');
  check(count === 10101, 'keyCount');
  done.push('keyCount');

  const parsed: ParsedKey = jh.parseKey('0xFF');
  const value: bigint = parsed.value;
  const label: string = parsed.label;
  check(value === 255n && label === '255', 'parseKey');
  done.push('parseKey');

  let progressCalls = 0;
  const progress: ProgressOptions = { chunkSize: 500, onProgress: (d: number, t: number) => { progressCalls += 1; return d <= t; } };
  const resizeOptions: ResizeOptions = { ...progress, sampleLimit: 3 };
  const resize: ResizeResult = jh.moved('jump', '0..999', 10, 12, resizeOptions);
  const loadsBefore: Float64Array = resize.loadsBefore;
  const loadsAfter: Float64Array = resize.loadsAfter;
  const flows: Float64Array | null = resize.flows;
  const balance: FlowBalance[] = resize.flowBalance;
  const sample: MovedKeySample[] = resize.sample;
  const firstMoved: MovedKeySample | undefined = sample[0];
  const firstBalance: FlowBalance | undefined = balance[0];
  check(resize.algorithm === 'jump' && resize.from === 10 && resize.to === 12 && resize.total === 1000 &&
        typeof resize.moved === 'number' && typeof resize.minimumMovedExpected === 'number' &&
        loadsBefore instanceof Float64Array && loadsBefore.length === 10 && loadsAfter.length === 12 &&
        flows instanceof Float64Array && flows.length === 120 && balance.length === 10 &&
        firstBalance !== undefined && firstBalance.source === 0 && typeof firstBalance.movedOut === 'number' &&
        typeof firstBalance.chiSquare === 'number' && typeof firstBalance.degreesOfFreedom === 'number' &&
        sample.length === 3 && firstMoved !== undefined && typeof firstMoved.key === 'string' &&
        typeof firstMoved.value === 'bigint' && typeof firstMoved.oldBucket === 'number' &&
        typeof firstMoved.newBucket === 'number' && progressCalls === 2, 'moved');
  done.push('moved');

  const jobOptions: ResizeJobOptions = { sampleLimit: 0 };
  const job: ResizeJob = jh.startResize('jumpback', 'random:5000:1', 100, 90, jobOptions);
  try {
    const total: number = job.total;
    let finished: boolean = job.step(1000);
    while (!finished) finished = job.step(1000);
    const doneKeys: number = job.done;
    const result: ResizeResult = job.result();
    check(total === 5000 && doneKeys === 5000 && result.total === 5000 && result.sample.length === 0, 'startResize');
    const columns: MovedKeyColumns = job.resultInColumns().sample;
    const values: BigUint64Array = columns.values;
    const labels: [number, string][] = columns.labels;
    check(values.length === 0 && columns.oldBuckets.length === 0 && labels.length === 0, 'resultInColumns');
    const inColumns: ResizeResultInColumns = job.resultInColumns({ flows: 'matrix' });
    const withCells: ResizeResultWithCells = job.resultInColumns({ flows: 'cells' });
    const flowCells: FlowCells | null = withCells.flowCells;
    check(inColumns.flows !== null && flowCells !== null && flowCells.count.length >= 90 && withCells.flowBalance.movedOut.length === 100, 'resultInColumns with cells');
    // One worker's part, absorbed by a job over the keys before it.
    const part: ResizePart = job.partResult();
    const cells: Uint32Array | null = part.flowCells!.index;
    const counts: Float64Array = part.flowCells!.count;
    check(part.total === 5000 && cells !== null && cells.length === counts.length && counts.length >= 90, 'partResult');
    const merged: ResizeJob = jh.startResize('jumpback', 'random:5000:1', 100, 90, { keyRange: [0, 0] });
    try {
      merged.step(1);
      merged.absorb(part);
      check(merged.result().moved === result.moved, 'absorb a partResult');
    } finally {
      merged.dispose();
    }
  } finally {
    job.dispose();
  }
  done.push('startResize');

  const removeMiddle: NodeChange[] = [{ kind: 'remove', name: 'b' }];
  const onList: ResizeResult = jh.moved('memento', '0..999', servers, removeMiddle);
  check(onList.nodesBefore?.length === 3 && onList.nodesAfter?.length === 2 && onList.flows?.length === 6 &&
        onList.moved === onList.loadsBefore[1], 'moved on a node list');

  const load: LoadResult = jh.load('jumpback', 'random:10000:2', 16, { chunkSize: 4096 });
  const stats: LoadStats = load.stats;
  check(load.algorithm === 'jumpback' && load.n === 16 && load.loads instanceof Float64Array &&
        stats.total === 10000 && stats.degreesOfFreedom === 15 && stats.min <= stats.mean &&
        stats.max >= stats.mean && stats.maxOverMean >= 1 && stats.chiSquare >= 0, 'load');
  const nodeLoad: LoadResult = jh.load('ketama', '0..999', servers);
  check(nodeLoad.nodes?.[1]?.name === 'b' && nodeLoad.idealShares?.[1] === 0.5 && nodeLoad.stats.total === 1000, 'load on a node list');
  done.push('load');

  const loadJob: LoadJob = jh.startLoad('jump', '0..99', 7);
  try {
    while (!loadJob.step(33));
    const loadResult: LoadResult = loadJob.result();
    check(loadResult.stats.total === 100 && loadJob.done === loadJob.total, 'startLoad');
  } finally {
    loadJob.dispose();
  }
  done.push('startLoad');

  const steps: TraceStep[] = jh.trace('jump', 42n, 800);
  const steps2: TraceStep[] = jh.trace('jumpback', '"alice"', 1000);
  const firstStep: TraceStep | undefined = steps[0];
  check(firstStep !== undefined && firstStep.n === 1 && firstStep.bucket === 0 && steps2.length > 0, 'trace');
  done.push('trace');

  const checker: Checker = await loadChecker(options);
  check(checker.version === version, 'checker.version');
  done.push('checker.version');
  const checked: CheckResult = checker.check('HASH 42 100\nHASH 18446744073709551615 100\n',
                                        '42: 43\n18446744073709551615: 0\n');
  const wrong: CheckLine | undefined = checked.lines[1];
  const diagnosis: CheckDiagnosis | undefined = wrong?.diagnoses[0];
  check(checked.matching === 1 && checked.expectedLines === 2 && checked.actualLines === 2 &&
        !checked.allMatch && !checked.alignedByPosition && checked.scriptErrors.length === 0 &&
        wrong !== undefined && wrong.verdict === 'wrong-value' && wrong.expectedLine === 2 &&
        wrong.actualLine === 2 && wrong.scriptLine === 2 && wrong.command.startsWith('HASH') &&
        wrong.expected === '18446744073709551615: 92' && wrong.formatProblem === '' &&
        diagnosis !== undefined && diagnosis.id === 'js-number' && diagnosis.detail.length > 0 &&
        diagnosis.explanation.length > 0 && diagnosis.fix.length > 0 &&
        checked.text.endsWith('checked: 1 of 2 lines match\n'), 'check');
  done.push('checker.check');

  const claims: Claims = await loadClaims(options);
  check(claims.version === version, 'claims.version');
  done.push('claims.version');
  const listed: ClaimInfo[] = claims.list();
  const firstClaim: ClaimInfo | undefined = listed[0];
  const kinds: ClaimKind[] = listed.map((c) => c.kind);
  check(firstClaim !== undefined && firstClaim.id === 'jump-key-42-history' && firstClaim.statement.length > 0 &&
        firstClaim.source.length > 0 && firstClaim.published.length > 0 && firstClaim.method.length > 0 &&
        firstClaim.tolerance.length > 0 && kinds.includes('timing'), 'claims.list');
  done.push('claims.list');
  const ran: ClaimResult = claims.run('jump-key-42-history');
  const verdict: ClaimVerdict = ran.verdict;
  const chart: ClaimChart | null = ran.chart;
  const series: ClaimSeries | undefined = chart?.series[0];
  check(ran.id === 'jump-key-42-history' && verdict === 'reproduced' && ran.measured.length > 0 &&
        ran.milliseconds >= 0 && chart !== null && chart.step && !chart.logX &&
        chart.title.length > 0 && chart.xLabel.length > 0 && chart.yLabel.length > 0 &&
        series !== undefined && series.name.length > 0 && series.x instanceof Float64Array &&
        series.y instanceof Float64Array && series.x.length === series.y.length, 'claims.run');
  done.push('claims.run');

  return done;
}

// Never called: each marked line must fail to type-check. tsc reports an
// expect-error directive with no error under it, so the declarations cannot
// silently loosen.
export function misuse(jh: Jumphash): void {
  const job = jh.startResize('jump', '0..9', 10, 12);
  // @ts-expect-error flows is 'matrix' or 'cells'
  job.resultInColumns({ flows: 'dense' });
  // @ts-expect-error the result with cells has no matrix
  void job.resultInColumns({ flows: 'cells' }).flows;
  // @ts-expect-error a Number key is refused: doubles cannot hold 64-bit keys
  jh.bucket('jump', 42, 100);
  // @ts-expect-error n is a number, not a bigint
  jh.bucket('jump', 42n, 100n);
  // @ts-expect-error the batch paths are "simd128" and "scalar"
  jh.setBatchPath('avx2');
  // @ts-expect-error keys must be a BigUint64Array
  jh.buckets('jump', [1n, 2n], 100);
  // @ts-expect-error keys must be a BigUint64Array, not Float64Array
  jh.buckets('jump', new Float64Array(2), 100);
  // @ts-expect-error out is an Int32Array
  jh.buckets('jump', new BigUint64Array(1), 100, new Uint32Array(1));
  // @ts-expect-error trace takes no Number key either
  jh.trace('jump', 1, 100);
  // @ts-expect-error the student's output is text
  void loadChecker().then((c) => c.check('HASH 42 100', ['42: 43']));
  // @ts-expect-error a claim is run by its id, not its index
  void loadClaims().then((c) => c.run(0));
  // @ts-expect-error parseKey takes text
  jh.parseKey(42n);
  // @ts-expect-error the result is read-only
  jh.algorithms()[0]!.name = 'x';
  // @ts-expect-error version is read-only
  jh.version = '2';
  // @ts-expect-error wasmBinary is bytes
  void loadJumphash({ wasmBinary: 'jumphash_wasm.wasm' });
  // @ts-expect-error wasmUrl is a string or a URL
  void loadJumphash({ wasmUrl: 42 });
  // @ts-expect-error sampleLimit is a number
  jh.moved('jump', '0..9', 10, 12, { sampleLimit: '5' });
  // @ts-expect-error a topology's kind is 'count' or 'nodes'
  jh.load('ketama', '0..9', { kind: 'servers', nodes: [] });
  // @ts-expect-error a change's kind is 'remove', 'add' or 'reweight'
  jh.moved('ketama', '0..9', { kind: 'nodes', nodes: [{ name: 'a' }] }, [{ kind: 'delete', name: 'a' }]);
  // @ts-expect-error reweight needs a weight
  jh.moved('ketama', '0..9', { kind: 'nodes', nodes: [{ name: 'a' }] }, [{ kind: 'reweight', name: 'a' }]);
}
