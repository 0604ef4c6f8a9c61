// Loaded first by every consumer page of test/consumers.test.mjs (not part
// of any app): records console calls, and POSTs to /result once the page's
// text or its console.log lines match ?until=<regexp>, or when a promise
// rejects unhandled.
const until = new RegExp(new URLSearchParams(location.search).get('until') ?? '.');
const consoleCalls = [];
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  const original = console[level];
  console[level] = (...args) => {
    consoleCalls.push({ level, text: args.map(String).join(' ') });
    original.apply(console, args);
  };
}
let sent = false;
function send(extra = {}) {
  if (sent) return;
  sent = true;
  const report = { origin: location.origin, text: document.body?.textContent ?? '', consoleCalls, ...extra };
  fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}
self.addEventListener('unhandledrejection', (event) => {
  send({ rejection: { name: event.reason?.name, message: String(event.reason?.message ?? event.reason) } });
});
// A rejected top-level await of a module script is an uncaught error.
self.addEventListener('error', (event) => {
  send({ rejection: { name: event.error?.name ?? 'error', message: String(event.error?.message ?? event.message) } });
});
const timer = setInterval(() => {
  const logs = consoleCalls.filter((c) => c.level === 'log').map((c) => c.text);
  if (until.test(document.body?.textContent ?? '') || logs.some((line) => until.test(line))) {
    clearInterval(timer);
    send();
  }
}, 50);
