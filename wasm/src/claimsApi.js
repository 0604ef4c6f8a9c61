// The object loadClaims returns, around the claims module's Embind
// functions. A file of its own, imported only with that module, so that the
// main entry's bundle does not carry it.
import { typeName } from './api.js';

/** Copies an Embind vector of doubles into a Float64Array and frees it. */
function takeDoubles(vector) {
  const out = new Float64Array(vector.size());
  for (let i = 0; i < out.length; ++i) out[i] = vector.get(i);
  vector.delete();
  return out;
}

export function createClaims(m) {
  const list = [];
  const native = m.list();
  for (let i = 0; i < native.size(); ++i) list.push(Object.freeze(native.get(i)));
  native.delete();
  const claims = {
    version: m.version(),

    list() {
      return list.map((claim) => ({ ...claim }));
    },

    run(id) {
      if (typeof id !== 'string') throw new TypeError(`id must be a string, got ${typeName(id)}`);
      const result = m.run(id);
      const { chart } = result;
      const series = [];
      for (let i = 0; i < chart.series.size(); ++i) {
        const s = chart.series.get(i);
        series.push({ name: s.name, x: takeDoubles(s.x), y: takeDoubles(s.y) });
      }
      chart.series.delete();
      if (result.error) throw new RangeError(result.error);
      const { title, xLabel, yLabel, step, logX } = chart;
      return {
        id: result.id,
        measured: result.measured,
        verdict: result.verdict,
        milliseconds: result.milliseconds,
        chart: chart.present ? { title, xLabel, yLabel, step, logX, series } : null,
      };
    },
  };
  return Object.freeze(claims);
}
