// The playground's side of the student-code sandbox (web/public/sandbox/):
// one hidden <iframe sandbox="allow-scripts"> per page, made on the first
// Run, spoken to with postMessage only. The iframe has an opaque origin and a
// policy of its own (eval allowed, no network); this page keeps its strict
// policy and never evaluates student code itself.

/** The languages a student can write a solution in. */
export const LANGUAGES = ['js', 'python'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = { js: 'JavaScript', python: 'Python' };

/** How a run ended. */
export type RunEnd = 'finished' | 'error' | 'timeout' | 'output-cap' | 'cancelled' | 'crashed';

export interface RunOutcome {
  end: RunEnd;
  /** The error (a JavaScript stack or a Python traceback) or why the run was stopped. */
  message: string;
  /** Time the program ran, from its start to its end (ms; 0 if it never started). */
  ms: number;
}

export interface RunRequest {
  language: Language;
  code: string;
  /** The script, given to the program as `input` (JavaScript) or standard input (Python). */
  input: string;
  /** The program is stopped after this long (ms). */
  timeLimitMs: number;
  /** The program is stopped once it has printed more than this (characters). */
  outputCapChars: number;
  onOutput(stream: 'stdout' | 'stderr', text: string): void;
  onStatus(text: string): void;
}

/** Pyodide's files, served by this site under pyodide/ (see vite.config.ts). */
const PYODIDE_FILES = ['pyodide.js', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

/** Extra time the page waits for the sandbox itself before it gives up on it (ms). */
const WATCHDOG_GRACE_MS = 5000;

type SandboxMessage =
  | { type: 'ready' }
  | { type: 'need-python' }
  | { type: 'status'; id: number; text: string }
  | { type: 'output'; id: number; chunks: ['stdout' | 'stderr', string][] }
  | { type: 'done'; id: number; end: RunEnd; ms: number; message: string };

interface Pending {
  id: number;
  request: RunRequest;
  resolve(outcome: RunOutcome): void;
  watchdog: number;
  started: boolean;
}

/**
 * The sandbox: runs one program at a time. A new run cancels the previous
 * one. If the iframe itself stops answering, it is thrown away and the next
 * run makes a new one.
 */
export class Sandbox {
  private frame: HTMLIFrameElement | null = null;
  private ready: Promise<void> | null = null;
  private pending: Pending | null = null;
  private nextId = 1;
  private pythonBytes: Promise<Record<string, ArrayBuffer>> | null = null;
  private readonly listener = (event: MessageEvent) => this.receive(event);

  constructor(private readonly base: string = document.baseURI) {
    window.addEventListener('message', this.listener);
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    this.cancel();
    const id = this.nextId++;
    const outcome = new Promise<RunOutcome>((resolve) => {
      this.pending = { id, request, resolve, watchdog: 0, started: false };
    });
    request.onStatus(request.language === 'python' ? 'Starting the sandbox…' : 'Starting…');
    try {
      await this.open();
    } catch (error) {
      this.settle(id, { end: 'crashed', message: String(error), ms: 0 });
      return outcome;
    }
    if (this.pending?.id !== id) return outcome;
    this.post({
      type: 'run',
      id,
      language: request.language,
      code: request.code,
      input: request.input,
      timeLimitMs: request.timeLimitMs,
      outputCapChars: request.outputCapChars,
    });
    this.arm(id, request.language === 'python' ? 180_000 : request.timeLimitMs + WATCHDOG_GRACE_MS);
    return outcome;
  }

  /** Stops the run in progress, if any; its promise resolves as 'cancelled'. */
  cancel(): void {
    const pending = this.pending;
    if (!pending) return;
    this.post({ type: 'cancel', id: pending.id });
    this.settle(pending.id, { end: 'cancelled', message: '', ms: 0 });
  }

  destroy(): void {
    this.cancel();
    window.removeEventListener('message', this.listener);
    this.frame?.remove();
    this.frame = null;
    this.ready = null;
  }

  private open(): Promise<void> {
    if (this.ready) return this.ready;
    const frame = document.createElement('iframe');
    // allow-scripts without allow-same-origin: an opaque origin.
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('title', 'Sandbox that runs your program');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.className = 'student-sandbox';
    frame.hidden = true;
    frame.src = new URL('sandbox/index.html', this.base).href;
    this.frame = frame;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = window.setTimeout(() => reject(new Error('The sandbox page did not load within 20 s.')), 20_000);
      this.onReady = () => {
        window.clearTimeout(timer);
        resolve();
      };
    });
    this.ready.catch(() => this.reset());
    document.body.append(frame);
    return this.ready;
  }

  private onReady: () => void = () => {};

  private reset(): void {
    this.frame?.remove();
    this.frame = null;
    this.ready = null;
  }

  private post(message: unknown): void {
    this.frame?.contentWindow?.postMessage(message, '*');
  }

  /** If the sandbox says nothing for this long, it is replaced. */
  private arm(id: number, ms: number): void {
    const pending = this.pending;
    if (pending?.id !== id) return;
    window.clearTimeout(pending.watchdog);
    pending.watchdog = window.setTimeout(() => {
      this.reset();
      this.settle(id, { end: 'crashed', message: 'The sandbox stopped answering; it was restarted.', ms: 0 });
    }, ms);
  }

  private settle(id: number, outcome: RunOutcome): void {
    const pending = this.pending;
    if (pending?.id !== id) return;
    window.clearTimeout(pending.watchdog);
    this.pending = null;
    pending.resolve(outcome);
  }

  private receive(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    const message = event.data as SandboxMessage;
    if (message.type === 'ready') {
      this.onReady();
      return;
    }
    if (message.type === 'need-python') {
      void this.sendPython();
      return;
    }
    const pending = this.pending;
    if (!pending || message.id !== pending.id) return;
    switch (message.type) {
      case 'status':
        pending.request.onStatus(message.text);
        if (message.text.startsWith('Running') && !pending.started) {
          pending.started = true;
          this.arm(pending.id, pending.request.timeLimitMs + WATCHDOG_GRACE_MS);
        }
        break;
      case 'output':
        for (const [stream, text] of message.chunks) pending.request.onOutput(stream, text);
        break;
      case 'done':
        this.settle(pending.id, { end: message.end, message: message.message ?? '', ms: message.ms });
        break;
    }
  }

  /** Fetches Pyodide's files once (this page may fetch; the sandbox may not) and hands them over. */
  private async sendPython(): Promise<void> {
    const pending = this.pending;
    pending?.request.onStatus('Downloading Python (Pyodide: 13.5 MB, 6.3 MB gzipped; once per visit)…');
    this.pythonBytes ??= Promise.all(
      PYODIDE_FILES.map(async (name) => {
        const response = await fetch(new URL(`pyodide/${name}`, this.base));
        if (!response.ok) throw new Error(`pyodide/${name}: HTTP ${response.status}`);
        return [name, await response.arrayBuffer()] as const;
      }),
    ).then((entries) => Object.fromEntries(entries));
    try {
      const files = await this.pythonBytes;
      this.post({ type: 'python-files', files });
    } catch (error) {
      this.pythonBytes = null;
      if (pending) this.settle(pending.id, { end: 'crashed', message: `Python could not be downloaded: ${String(error)}`, ms: 0 });
    }
  }
}
