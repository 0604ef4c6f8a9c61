import { describe, expect, test } from 'vitest';
import { DEFAULT_NODES, DEFAULT_SCRIPT, type State, decodeFragment, defaultState } from './index';
import { encodeReadable } from './readable';
import { BUCKET_COUNT_ALGORITHMS, KNOWN_ALGORITHMS, decodeDropped, decodeError, decodeOk, sample } from './testSupport';

describe('readable form', () => {
  test('the issue example links decode', async () => {
    const compute = await decodeOk('#view=compute&algo=jump,jumpback&key=18446744073709551615&n=100');
    expect(compute.view).toBe('compute');
    expect(compute.algos).toEqual(['jump', 'jumpback']);
    expect(compute.key).toBe('18446744073709551615');
    expect(compute.n).toBe('100');

    const resize = await decodeOk('#view=resize&algo=jump&from=10&to=12&keys=0..9999');
    expect(resize).toMatchObject({ view: 'resize', algos: ['jump'], from: '10', to: '12', keys: '0..9999' });

    const script = 'KEYS 0..9\nMOVED 10 12 # "quoted" & more\nHASH "a+b c" 7\n';
    const exercise = await decodeOk(`#view=exercise&script=${encodeURIComponent(script)}`);
    expect(exercise.view).toBe('exercise');
    expect(exercise.script).toBe(script);
  });

  test('plus signs stay plus signs and hand-written quotes work', async () => {
    const state = await decodeOk('view=compute&key="a+b"&n=7');
    expect(state.key).toBe('"a+b"');
  });

  test('the empty fragment is the default scenario', async () => {
    const result = await decodeFragment('', KNOWN_ALGORITHMS);
    expect(result.ok && result.form).toBe('empty');
    expect(result.ok && result.state).toEqual(defaultState());
    expect(defaultState().script).toBe(DEFAULT_SCRIPT);
  });

  test('bad field values are kept as typed (the view reports them)', async () => {
    const state = await decodeOk('view=compute&key=-1&n=0');
    expect(state.key).toBe('-1');
    expect(state.n).toBe('0');
  });

  test('algorithm names are case-insensitive and de-duplicated', async () => {
    expect((await decodeOk('algo=JUMP,jumpback,jump')).algos).toEqual(['jump', 'jumpback']);
  });

  test('round trip through the readable form, for every view', async () => {
    for (const view of ['compute', 'resize', 'balance', 'exercise', 'compare'] as const) {
      const state = sample({
        view,
        algos: ['jumpback-indep', 'modulo'],
        key: '0xFFFFFFFFFFFFFFFF',
        n: '7',
        from: '16',
        to: '4, 8',
        keys: 'random:1000:7 "alice" 5..9',
        script: 'HASH 1 2\n',
        theme: 'dark',
      });
      const fragment = encodeReadable(state);
      expect(await decodeOk(fragment)).toEqual(state);
    }
  });

  test('readable links name the view and its fields', () => {
    expect(encodeReadable(sample({ view: 'resize', algos: ['jump'] }))).toBe(
      'view=resize&algo=jump&from=10&to=12&keys=0..9999',
    );
    expect(encodeReadable(sample({ view: 'compute', key: '18446744073709551615' }))).toBe(
      'view=compute&algo=jump,jumpback&key=18446744073709551615&n=100&trace=1000',
    );
  });

  test('links of the earlier pages (no node parameters) keep their meaning: bucket counts', async () => {
    for (const fragment of [
      'view=compute&algo=jump,jumpback&key=18446744073709551615&n=100&trace=1000',
      'view=resize&algo=jump&from=10&to=12&keys=0..9999',
      'view=balance&algo=modulo&n=12&keys=random:50:3',
      'view=compare&from=16&to=4,8&n=7&keys=0..99',
      'view=exercise&problem=largest-key',
      `view=exercise&script=${encodeURIComponent('HASH 42 100\n')}&output=${encodeURIComponent('42: 42\n')}`,
    ]) {
      const state = await decodeOk(fragment, BUCKET_COUNT_ALGORITHMS);
      expect(state).toMatchObject({ topology: 'count', nodes: DEFAULT_NODES, steps: '-cache-3', opts: '' });
    }
  });
});

describe('readable node scenarios (schema 5)', () => {
  const issueState = sample({
    view: 'resize',
    algos: ['ketama', 'rendezvous', 'jump'],
    topology: 'nodes',
    nodes: 'a\nb\nc\nd',
    steps: '-b',
  });

  test('the issue example link opens a node list and the encoder writes it back', async () => {
    const state = await decodeOk('#view=resize&algo=ketama,rendezvous,jump&nodes=a,b,c,d&steps=-b');
    expect(state).toEqual(issueState);
    expect(encodeReadable(issueState)).toBe('view=resize&algo=ketama,rendezvous,jump&nodes=a,b,c,d&steps=-b&keys=0..9999');
  });

  test('adds are written +name*w, weight changes =name*w, with commas between', async () => {
    const state = { ...issueState, steps: '-b +e*2 =c*3' };
    const fragment = encodeReadable(state);
    expect(fragment).toContain('&steps=-b,+e*2,=c*3&');
    expect(await decodeOk(fragment)).toEqual(state);
  });

  test('separators are normalised to commas; the page shows one node per line', async () => {
    const fragment = encodeReadable({ ...issueState, nodes: 'a, b  c\n\nd*2,', steps: '-b\n+e' });
    expect(fragment).toBe('view=resize&algo=ketama,rendezvous,jump&nodes=a,b,c,d*2&steps=-b,+e&keys=0..9999');
    const state = await decodeOk(fragment);
    expect(state.nodes).toBe('a\nb\nc\nd*2');
    expect(state.steps).toBe('-b +e');
    // Hand-written links may use any separator.
    expect((await decodeOk('view=resize&nodes=a%20b%0Ac')).nodes).toBe('a\nb\nc');
  });

  test('quoted names and characters that need percent-encoding survive', async () => {
    const state = sample({
      view: 'balance',
      algos: ['maglev'],
      topology: 'nodes',
      nodes: '"cache 4"*2\n"a,b"\n10.0.0.1:11211\n"50% & #1"\n"say \\"hi\\""\nключ',
      steps: '-"a,b" +"new one"*3',
    });
    const fragment = encodeReadable(state);
    expect(fragment).toContain(
      '&nodes="cache%204"*2,"a,b",10.0.0.1:11211,"50%25%20%26%20%231","say%20%5C"hi%5C"",%D0%BA%D0%BB%D1%8E%D1%87&',
    );
    // Balance does not show steps, but these differ from the default: written too.
    expect(fragment).toContain('&steps=-"a,b",+"new%20one"*3&');
    expect(await decodeOk(fragment)).toEqual(state);
  });

  test('text that does not split (an unclosed quote) is written and read as typed', async () => {
    const state = { ...issueState, nodes: 'a\n"b, c\nd' };
    expect(await decodeOk(encodeReadable(state))).toEqual(state);
  });

  test('topo= is explicit; nodes= or steps= without it means a node list', async () => {
    expect((await decodeOk('view=resize&topo=nodes')).topology).toBe('nodes');
    expect(await decodeOk('view=resize&topo=nodes')).toEqual(sample({ view: 'resize', topology: 'nodes' }));
    const counted = await decodeOk('view=resize&topo=count&nodes=a,b');
    expect(counted).toMatchObject({ topology: 'count', nodes: 'a\nb' });
    expect((await decodeOk('view=resize&steps=-cache-5')).topology).toBe('nodes');
    expect(await decodeDropped('view=resize&topo=ring')).toMatch(/Unknown topology "ring": expected one of count, nodes/);
  });

  test('node fields are written only on a node list; options whenever set', async () => {
    const counted = sample({ view: 'resize', algos: ['jump'], nodes: 'x\ny', steps: '-x' });
    expect(encodeReadable(counted)).toBe('view=resize&algo=jump&from=10&to=12&keys=0..9999');
    const options = sample({ view: 'balance', algos: ['maglev', 'groupcache'], opts: 'maglev.table=251 groupcache.replicas=50' });
    const fragment = encodeReadable(options);
    expect(fragment).toBe('view=balance&algo=maglev,groupcache&n=100&opts=maglev.table=251,groupcache.replicas=50&keys=0..9999');
    expect(await decodeOk(fragment)).toEqual(options);
  });

  test('a node list in a view without node fields says topo=nodes', async () => {
    const state = sample({ view: 'exercise', topology: 'nodes' });
    expect(encodeReadable(state)).toMatch(/^view=exercise&topo=nodes&script=%23%20The%20exercise:[^&]*%0A$/);
    expect(await decodeOk(encodeReadable(state))).toEqual(state);
    const edited = { ...state, nodes: 'p\nq' };
    expect(encodeReadable(edited)).toContain('&nodes=p,q&');
    expect(encodeReadable(edited)).not.toContain('topo=');
    expect(await decodeOk(encodeReadable(edited))).toEqual(edited);
  });

  test('round trip on a node list, for every view', async () => {
    for (const view of ['compute', 'resize', 'balance', 'exercise', 'compare'] as const) {
      const state: State = sample({
        view,
        algos: ['memento', 'ketama', 'jump'],
        topology: 'nodes',
        key: '"user:42"',
        nodes: 'cache-1*3\ncache-2\n"cache 3"',
        steps: '-"cache 3" +cache-4*2 =cache-1*1',
        opts: 'ketama.points=100',
        keys: '0..99',
        theme: 'light',
      });
      expect(await decodeOk(encodeReadable(state))).toEqual(state);
    }
  });
});

describe('readable form errors', () => {
  test('readable form errors', async () => {
    expect(await decodeDropped('view=nonsense')).toMatch(/Unknown view "nonsense"/);
    expect(await decodeDropped('view=compute&algo=jump,rendezvous', BUCKET_COUNT_ALGORITHMS)).toMatch(
      /Unknown algorithm "rendezvous"/,
    );
    expect(await decodeDropped('view=compute&algo=jump,chord')).toMatch(/Unknown algorithm "chord": expected jump, .*memento-java/);
    expect(await decodeDropped('view=compute&algo=')).toMatch(/no algorithm/);
    expect(await decodeDropped('view=compute&colour=red')).toMatch(/Unknown link parameter "colour"/);
    expect(await decodeDropped('view=compute&colour=red')).toMatch(/expected view, algo, .*topo, nodes, steps, opts/);
    expect(await decodeDropped('view=compute&key=%E0%A4%A')).toMatch(/percent-encoding/);
    expect(await decodeDropped('key=1&key=2')).toMatch(/twice/);
    expect(await decodeDropped('theme=sepia')).toMatch(/Unknown theme/);
  });

  test('the known algorithms are the caller\'s: node-set names open only when the engine has them', async () => {
    expect((await decodeOk('view=resize&algo=ketama,rendezvous')).algos).toEqual(['ketama', 'rendezvous']);
    expect(await decodeDropped('view=resize&algo=ketama', BUCKET_COUNT_ALGORITHMS)).toMatch(
      /Unknown algorithm "ketama": expected jump, jump-guava, jumpback, jumpback-indep, modulo\./,
    );
  });
});
