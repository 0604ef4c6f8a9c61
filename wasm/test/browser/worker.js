// Module worker: runs the checks and posts the result back.
import { checks } from './checks.js';

self.onmessage = async () => {
  try {
    self.postMessage({ ok: true, value: await checks() });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack ? error.stack : error) });
  }
};
