// The engine client's Lane (web/src/engine/client.ts) with fake workers: a
// worker whose request failed without blaming a field is replaced (its
// memory released), and Cancel terminates it.
import { describe, expect, it } from 'vitest';
import { CancelledError, EngineError, Lane } from '../engine/client';

interface Posted {
  id: number;
  request: { kind: string };
}

class FakeWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  posted: Posted[] = [];
  terminated = false;
  postMessage(message: Posted): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: unknown): void {
    this.onmessage?.({ data } as MessageEvent);
  }
}

type Req = { kind: 'echo'; text: string };
type Replies = { echo: string };

function lane(): { lane: Lane<Req, Replies>; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  return {
    workers,
    lane: new Lane<Req, Replies>(() => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker as unknown as Worker;
    }),
  };
}

describe('Lane', () => {
  it('answers requests in one worker', async () => {
    const { lane: l, workers } = lane();
    const a = l.request({ kind: 'echo', text: 'a' });
    const b = l.request({ kind: 'echo', text: 'b' });
    expect(workers).toHaveLength(1);
    const [first, second] = workers[0]!.posted;
    workers[0]!.reply({ id: first!.id, type: 'result', value: 'A' });
    workers[0]!.reply({ id: second!.id, type: 'result', value: 'B' });
    expect([await a, await b]).toEqual(['A', 'B']);
    expect(workers[0]!.terminated).toBe(false);
  });

  it('keeps a worker after an input error (a field is blamed)', async () => {
    const { lane: l, workers } = lane();
    const a = l.request({ kind: 'echo', text: 'a' });
    workers[0]!.reply({ id: workers[0]!.posted[0]!.id, type: 'error', message: 'bad key', field: 'keys' });
    await expect(a).rejects.toThrow(new EngineError('bad key', 'keys'));
    expect(workers[0]!.terminated).toBe(false);
    void l.request({ kind: 'echo', text: 'b' });
    expect(workers).toHaveLength(1);
  });

  it('leaves a worker that only prepares when cancelled, and drops what its preparation replies', async () => {
    const { lane: l, workers } = lane();
    l.prepare({ kind: 'echo', text: 'load ahead' });
    expect(workers).toHaveLength(1);
    expect(l.busy).toBe(false);
    l.cancel(); // a report's start cancels the one before it
    expect(workers[0]!.terminated).toBe(false);
    // Its reply and its error are dropped; the worker takes the next request.
    workers[0]!.reply({ id: workers[0]!.posted[0]!.id, type: 'error', message: 'the code could not be fetched' });
    expect(workers[0]!.terminated).toBe(false);
    const a = l.request({ kind: 'echo', text: 'a' });
    expect(workers).toHaveLength(1);
    workers[0]!.reply({ id: workers[0]!.posted[1]!.id, type: 'result', value: 'A' });
    expect(await a).toBe('A');
    // A report's cancel still stops the worker when a request of its own runs there.
    void l.request({ kind: 'echo', text: 'b' }).catch(() => {});
    l.cancel();
    expect(workers[0]!.terminated).toBe(true);
  });

  it('replaces a worker whose request failed without a field, once its other requests settle', async () => {
    const { lane: l, workers } = lane();
    const a = l.request({ kind: 'echo', text: 'a' });
    const b = l.request({ kind: 'echo', text: 'b' });
    const old = workers[0]!;
    old.reply({ id: old.posted[0]!.id, type: 'error', message: 'Aborted(OOM)' });
    await expect(a).rejects.toThrow('Aborted(OOM)');
    expect(old.terminated).toBe(false); // b still runs there
    const c = l.request({ kind: 'echo', text: 'c' });
    expect(workers).toHaveLength(2); // c goes to a fresh worker
    old.reply({ id: old.posted[1]!.id, type: 'result', value: 'B' });
    expect(await b).toBe('B');
    expect(old.terminated).toBe(true);
    workers[1]!.reply({ id: workers[1]!.posted[0]!.id, type: 'result', value: 'C' });
    expect(await c).toBe('C');
  });

  it('replaces a worker that crashed (error event) and rejects its requests', async () => {
    const { lane: l, workers } = lane();
    const a = l.request({ kind: 'echo', text: 'a' });
    workers[0]!.reply({ id: 999, type: 'progress', done: 0, total: 1, phase: '' }); // it started
    workers[0]!.onerror?.({ message: 'RuntimeError: unreachable', preventDefault() {} } as ErrorEvent);
    await expect(a).rejects.toThrow(/The engine stopped \(RuntimeError: unreachable\); a fresh one takes the next request/);
    expect(workers[0]!.terminated).toBe(true);
    void l.request({ kind: 'echo', text: 'b' });
    expect(workers).toHaveLength(2);
  });

  it('release() retires an idle worker at once', () => {
    const { lane: l, workers } = lane();
    void l.request({ kind: 'echo', text: 'a' }).catch(() => {});
    workers[0]!.reply({ id: workers[0]!.posted[0]!.id, type: 'result', value: 'A' });
    l.release();
    expect(workers[0]!.terminated).toBe(true);
    void l.request({ kind: 'echo', text: 'b' });
    expect(workers).toHaveLength(2);
  });

  it('cancel() rejects every pending request and terminates the worker', async () => {
    const { lane: l, workers } = lane();
    const a = l.request({ kind: 'echo', text: 'a' });
    l.cancel();
    await expect(a).rejects.toBeInstanceOf(CancelledError);
    expect(workers[0]!.terminated).toBe(true);
    expect(l.busy).toBe(false);
  });
});
