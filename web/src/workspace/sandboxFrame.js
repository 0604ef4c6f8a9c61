// The student-code sandbox: runs a student's JavaScript or Python program on
// a script and streams its output back to the playground.
//
// Where it sits: vite.config.ts (sandboxPage) puts this file inline into
// sandbox/index.html, whose policy allows this one script by its SHA-256 and
// nothing from any URL: no 'self', so neither it nor the student's code can
// load or send anything (connect-src 'none'). web/src/workspace/sandbox.ts
// loads that page in an <iframe sandbox="allow-scripts"> (an opaque origin:
// no access to the playground's DOM, storage or links) and speaks to it with
// postMessage only. Plain JavaScript, not bundled: it must not depend on the
// playground's code, and a change to it changes the hash at the next build.
//
// Every run happens in a worker made here from a blob: URL, so a program
// that never ends blocks only that worker, which this page terminates at the
// time limit or the output cap. JavaScript gets a fresh worker per run;
// Python keeps one warm worker (Pyodide takes seconds to start) until a run
// has to be stopped. Pyodide's files arrive from the playground as bytes and
// are served to Pyodide from memory.
//
// Messages from the playground:
//   {type: 'run', id, language: 'js' | 'python', code, input, timeLimitMs, outputCapChars}
//   {type: 'python-files', files: {name: ArrayBuffer}}   before the first Python run
//   {type: 'cancel', id}
// Messages to the playground:
//   {type: 'ready'}                       once, when this page can take runs
//   {type: 'need-python'}                 a Python run is waiting for the files
//   {type: 'status', id, text}            "Starting Python…", "Running…"
//   {type: 'output', id, chunks: [[stream, text], ...]}   stream is 'stdout' or 'stderr'
//   {type: 'done', id, end, ms, message}  end: 'finished' | 'error' | 'timeout' | 'output-cap' | 'cancelled' | 'crashed'
'use strict';

(() => {
  /** The longest a Python start-up may take before the run is abandoned (ms). */
  const PYTHON_START_LIMIT_MS = 120000;

  /** @type {Record<string, ArrayBuffer> | null} */
  let pythonFiles = null;
  /** @type {Worker | null} A started Python worker, kept between runs. */
  let warmPython = null;
  /** @type {any} The run in progress. */
  let current = null;
  /** @type {any} A Python run waiting for the files. */
  let waitingForFiles = null;

  const send = (message) => parent.postMessage(message, '*');

  /**
   * The worker's program. It is turned into text and started from a blob:
   * URL, so it must not refer to anything outside itself.
   */
  function workerMain() {
    /** Output not yet posted, as [stream, text] chunks in order. */
    let pending = [];
    let pendingChars = 0;
    let lastPost = Date.now();
    const post = () => {
      if (pending.length) self.postMessage({ type: 'out', chunks: pending });
      pending = [];
      pendingChars = 0;
      lastPost = Date.now();
    };
    let windowStart = 0;
    let postsInWindow = 0;
    /**
     * Output is posted as it comes while a program prints at a human rate,
     * so a program that then hangs (the time limit ends it) keeps all it
     * printed. Past 500 posts in a second it is batched every 16 ms or 64 KB:
     * a burst followed by a hang loses at most its last 16 ms.
     */
    const emit = (stream, text) => {
      if (!text) return;
      const last = pending[pending.length - 1];
      if (last && last[0] === stream) last[1] += text;
      else pending.push([stream, text]);
      pendingChars += text.length;
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        postsInWindow = 0;
      }
      if (postsInWindow < 500 || now - lastPost >= 16 || pendingChars >= 65536) {
        postsInWindow++;
        post();
      }
    };

    const show = (value) => {
      if (typeof value === 'string') return value;
      if (typeof value === 'bigint') return String(value);
      if (value instanceof Error) return value.stack || String(value);
      if (value !== null && typeof value === 'object') {
        try {
          return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
        } catch {
          return String(value);
        }
      }
      return String(value);
    };
    const line = (stream) => (...values) => emit(stream, values.map(show).join(' ') + '\n');
    console.log = line('stdout');
    console.info = line('stdout');
    console.debug = line('stdout');
    console.warn = line('stderr');
    console.error = line('stderr');

    /** Only the frames of the student's own file, when there are any. */
    const pythonTraceback = (text) => {
      const lines = String(text).split('\n');
      const first = lines.findIndex((l) => l.includes('File "solution.py"'));
      if (first < 0) return String(text).trim();
      return ['Traceback (most recent call last):', ...lines.slice(first)].join('\n').trim();
    };

    let pyodide = null;

    async function startPython(files) {
      const BASE = 'https://python.sandbox.invalid/';
      const text = (name) => {
        if (!files[name]) throw new Error(`${name} was not received`);
        return new TextDecoder().decode(files[name]);
      };
      // A sandboxed (opaque-origin) page cannot start module workers, and
      // Pyodide ships ES modules: they run here as classic scripts instead.
      // The loader (pyodide.js) is already one; the runtime factory
      // (pyodide.asm.mjs) has one `export default` and import.meta.url, both
      // replaced. Any missing marker fails loudly below, never silently.
      const asm = text('pyodide.asm.mjs');
      const exportLine = 'export default _createPyodideModule;';
      if (!asm.includes(exportLine)) throw new Error('pyodide.asm.mjs has no "export default _createPyodideModule;"');
      (0, eval)(text('pyodide.js'));
      (0, eval)(`${asm.replace(exportLine, 'self.createPyodideModule = _createPyodideModule;').replaceAll('import.meta.url', JSON.stringify(`${BASE}pyodide.asm.mjs`))}\n//# sourceURL=pyodide.asm.js`);
      const realFetch = self.fetch;
      const realImportScripts = self.importScripts;
      // Pyodide fetches its .wasm and standard library by URL; these come
      // from memory. Any other URL goes to the real fetch, which this page's
      // policy refuses.
      self.fetch = async (resource, init) => {
        const href = typeof resource === 'string' ? resource : resource instanceof URL ? resource.href : resource.url;
        const name = href.startsWith(BASE) ? href.slice(BASE.length) : '';
        if (name && files[name]) {
          const type = name.endsWith('.wasm') ? 'application/wasm' : name.endsWith('.json') ? 'application/json' : 'application/octet-stream';
          return new Response(files[name].slice(0), { headers: { 'Content-Type': type } });
        }
        return realFetch(resource, init);
      };
      // Pyodide refuses classic workers because it would import() its
      // runtime; it is handed the factory instead (createPyodideModule).
      self.importScripts = () => {
        throw new TypeError('importScripts is not available');
      };
      try {
        const lock = JSON.parse(text('pyodide-lock.json'));
        pyodide = await self.loadPyodide({ indexURL: BASE, lockFileContents: lock, createPyodideModule: self.createPyodideModule, packages: [] });
      } finally {
        self.fetch = realFetch;
        self.importScripts = realImportScripts;
      }
      const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
      for (const stream of ['stdout', 'stderr']) {
        const setter = stream === 'stdout' ? 'setStdout' : 'setStderr';
        pyodide[setter]({
          write: (bytes) => {
            emit(stream, decoders[stream].decode(bytes, { stream: true }));
            return bytes.length;
          },
        });
      }
    }

    function runPython(code, input) {
      removeLoaders();
      const sys = pyodide.pyimport('sys');
      const io = pyodide.pyimport('io');
      sys.stdin = io.StringIO(input);
      const globals = pyodide.toPy({ __name__: '__main__' });
      let error = '';
      try {
        pyodide.runPython(code, { globals, filename: 'solution.py' });
      } catch (thrown) {
        const type = thrown && thrown.type;
        if (type === 'SystemExit') {
          // The message's last line is "SystemExit: <code>" (empty for sys.exit()).
          const status = /SystemExit:?\s*(.*)\s*$/.exec(String(thrown.message))?.[1] ?? '';
          if (status !== '' && status !== '0' && status !== 'None') error = `The program called sys.exit(${status}).`;
        } else {
          error = pythonTraceback(thrown && thrown.message ? thrown.message : thrown);
        }
      } finally {
        try {
          sys.stdout.flush();
          sys.stderr.flush();
        } catch {
          // a program may have replaced sys.stdout; nothing to flush then
        }
        globals.destroy();
      }
      return error;
    }

    /** Student code loads nothing: the policy refuses every URL, and this
     *  removes the one loader that would still try (Pyodide has started). */
    const removeLoaders = () => {
      delete self.WorkerGlobalScope.prototype.importScripts;
      delete self.importScripts;
    };

    async function runJavaScript(code, input) {
      removeLoaders();
      self.input = input;
      try {
        // Indirect eval: the program runs at global scope, as a <script> would.
        const result = (0, eval)(`${code}\n//# sourceURL=solution.js`);
        if (result && typeof result.then === 'function') await result;
        return '';
      } catch (thrown) {
        return show(thrown);
      }
    }

    self.onmessage = async (event) => {
      const message = event.data;
      if (message.type === 'start-python') {
        try {
          await startPython(message.files);
          self.postMessage({ type: 'python-ready' });
        } catch (thrown) {
          self.postMessage({ type: 'python-failed', message: String(thrown && thrown.message ? thrown.message : thrown) });
        }
        return;
      }
      if (message.type === 'run') {
        self.postMessage({ type: 'started' });
        const error = message.language === 'python' ? runPython(message.code, message.input) : await runJavaScript(message.code, message.input);
        post();
        self.postMessage({ type: 'finished', error });
      }
    };
  }

  function newWorker() {
    const source = `(${workerMain.toString()})();`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(url, { name: 'student-program' });
    URL.revokeObjectURL(url);
    return worker;
  }

  /** Ends the current run and reports it; the worker goes unless kept. */
  function finish(end, message, keepWorker) {
    const run = current;
    if (!run) return;
    current = null;
    clearTimeout(run.timer);
    if (!keepWorker) {
      run.worker.terminate();
      if (run.worker === warmPython) warmPython = null;
    }
    const ms = run.startedAt ? Math.round(performance.now() - run.startedAt) : 0;
    send({ type: 'done', id: run.id, end, ms, message });
  }

  function start(request) {
    if (current) finish('cancelled', 'Another run started.', false);
    const run = { ...request, worker: null, timer: 0, startedAt: 0, chars: 0 };
    current = run;
    if (request.language === 'python') {
      if (!warmPython) {
        if (!pythonFiles) {
          waitingForFiles = request;
          current = null;
          send({ type: 'need-python' });
          return;
        }
        send({ type: 'status', id: run.id, text: 'Starting Python (Pyodide)…' });
        warmPython = newWorker();
        warmPython.postMessage({ type: 'start-python', files: pythonFiles });
        run.timer = setTimeout(() => finish('crashed', `Python did not start within ${PYTHON_START_LIMIT_MS / 1000} s.`, false), PYTHON_START_LIMIT_MS);
      }
      run.worker = warmPython;
    } else {
      run.worker = newWorker();
    }
    attach(run);
    if (request.language !== 'python' || run.worker.pythonReady) begin(run);
  }

  /** Sends the program to the worker; the clock starts when it starts. */
  function begin(run) {
    run.worker.postMessage({ type: 'run', language: run.language, code: run.code, input: run.input });
  }

  function attach(run) {
    const worker = run.worker;
    worker.onmessage = (event) => {
      if (current !== run) return;
      const message = event.data;
      switch (message.type) {
        case 'python-ready':
          worker.pythonReady = true;
          clearTimeout(run.timer);
          begin(run);
          break;
        case 'python-failed':
          finish('crashed', `Python could not start: ${message.message}`, false);
          break;
        case 'started':
          run.startedAt = performance.now();
          send({ type: 'status', id: run.id, text: 'Running…' });
          clearTimeout(run.timer);
          run.timer = setTimeout(() => finish('timeout', '', false), run.timeLimitMs);
          break;
        case 'out': {
          for (const chunk of message.chunks) run.chars += chunk[1].length;
          send({ type: 'output', id: run.id, chunks: message.chunks });
          if (run.chars > run.outputCapChars) finish('output-cap', '', false);
          break;
        }
        case 'finished':
          finish(message.error ? 'error' : 'finished', message.error, run.language === 'python');
          break;
      }
    };
    worker.onerror = (event) => {
      if (current !== run) return;
      event.preventDefault();
      finish('crashed', event.message || 'The worker failed to start.', false);
    };
  }

  window.addEventListener('message', (event) => {
    if (event.source !== parent) return;
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'run') start(message);
    else if (message.type === 'python-files') {
      pythonFiles = message.files;
      const request = waitingForFiles;
      waitingForFiles = null;
      if (request) start(request);
    } else if (message.type === 'cancel') {
      if (waitingForFiles && waitingForFiles.id === message.id) {
        waitingForFiles = null;
        send({ type: 'done', id: message.id, end: 'cancelled', ms: 0, message: '' });
      } else if (current && current.id === message.id) finish('cancelled', '', false);
    }
  });
  send({ type: 'ready' });
})();
