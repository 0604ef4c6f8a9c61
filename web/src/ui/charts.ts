// Charts, drawn by uPlot (loaded lazily: only views that chart import this
// module). Every chart tells series apart by line dash and point shape as
// well as colour, carries a text summary for screen readers, and sits beside
// a data table (see figure() in the views).

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './charts.css';
import { h } from './dom';
import { binLoads } from './loadBins';

const DASHES: number[][] = [[], [8, 4], [2, 3], [10, 3, 2, 3], [1, 6]];
const POINT_SIZES = [7, 6, 5, 8, 6];

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function palette(): string[] {
  return [1, 2, 3, 4, 5].map((i) => cssVar(`--series-${i}`, ['#1f5f8b', '#b5542b', '#2e7d32', '#7b3fa0', '#5d5d5d'][i - 1]!));
}

function axisStyle() {
  const ink = cssVar('--ink', '#222');
  const grid = cssVar('--grid', '#ddd');
  return { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
}

/**
 * Makes a uPlot that follows its container's width, and is destroyed once
 * its container has left the document (a view redrawn for a new report,
 * or closed). Before, the container's last resize, to no width, redrew
 * the old chart at 280 px inside the new report's first frame, and its
 * canvas stayed in memory: in the Resize view's 2-worker report of 10^7
 * keys, that frame ended a median 28.7 ms after the reply, 14.6 ms without
 * the redraw (14 reports each, headless Chromium).
 */
function mount(container: HTMLElement, options: Omit<uPlot.Options, 'width'>, data: uPlot.AlignedData): uPlot {
  const width = Math.max(280, container.clientWidth || 600);
  // Legend markers show each series' line style, not only its colour.
  const legend: uPlot.Legend = {
    ...options.legend,
    markers: {
      dash: (u, i) => {
        const dash = u.series[i]?.dash ?? [];
        return dash.length === 0 ? 'solid' : dash[0]! <= 2 ? 'dotted' : 'dashed';
      },
      ...options.legend?.markers,
    },
  };
  const plot = new uPlot({ ...options, legend, width } as uPlot.Options, data, container);
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) {
      observer.disconnect();
      plot.destroy();
      return;
    }
    const next = Math.max(280, container.clientWidth);
    if (Math.abs(next - plot.width) > 4) plot.setSize({ width: next, height: plot.height });
  });
  observer.observe(container);
  return plot;
}

export interface StepSeries {
  label: string;
  /** Bucket counts at which the value changes, increasing. */
  xs: number[];
  ys: number[];
}

/** Step chart of bucket against n for several keys' traces; x on a log scale. */
export function stepChart(container: HTMLElement, series: StepSeries[], xMax: number): uPlot {
  const xsSet = new Set<number>([xMax]);
  for (const s of series) for (const x of s.xs) xsSet.add(x);
  const xs = [...xsSet].sort((a, b) => a - b);
  const columns = series.map((s) => {
    const ys: (number | null)[] = [];
    let j = 0;
    for (const x of xs) {
      while (j + 1 < s.xs.length && s.xs[j + 1]! <= x) j++;
      ys.push(s.xs[0]! <= x ? s.ys[j]! : null);
    }
    return ys;
  });
  // Points only where that series' bucket changes (not at the other series' steps).
  const changeIndices = series.map((s) => {
    const changes = new Set(s.xs);
    return xs.flatMap((x, i) => (changes.has(x) ? [i] : []));
  });
  const colours = palette();
  return mount(
    container,
    {
      height: 300,
      scales: { x: { time: false, distr: xMax > 50 ? 3 : 1 }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.05)] } },
      axes: [
        { ...axisStyle(), label: 'bucket count n' },
        { ...axisStyle(), label: 'bucket', size: 60 },
      ],
      legend: { show: true },
      series: [
        { label: 'n' },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: colours[i % 5],
          width: 2,
          dash: DASHES[i % 5],
          paths: uPlot.paths.stepped!({ align: 1 }),
          points: {
            show: true,
            size: POINT_SIZES[i % 5],
            fill: i % 2 ? colours[i % 5] : cssVar('--bg', '#fff'),
            filter: () => changeIndices[i]!,
          },
        })),
      ],
    },
    [xs, ...columns] as uPlot.AlignedData,
  );
}

export interface LoadSeries {
  label: string;
  loads: ArrayLike<number>;
}

/**
 * Bars a chart draws as uPlot does, outlined over a light fill, at most.
 * More bars are a pixel or two wide each, and uPlot stops snapping bars to
 * whole pixels when the gaps between them are under 5 px: Chromium's
 * software canvas (no GPU) then antialiases every edge, and filling 1,001
 * such bars (loads over 1000 -> 1001 buckets) took 200-300 ms in a
 * benchmark page, against 3-4 ms for the same bars on whole pixels; in the
 * Resize view that was a main-thread long task after every such report.
 */
export const MAX_OUTLINED_BARS = 200;

/**
 * Filled bars from 0 to each value, from x to 0.9 of the way to the next x
 * (the whole way when the gap would be under a device pixel; the last bar
 * as wide as the one before it), every edge on a whole device pixel and
 * each bar at least one pixel wide. No outline: see MAX_OUTLINED_BARS.
 */
const snappedBars: uPlot.Series.PathBuilder = (u, seriesIdx, idx0, idx1) => {
  const xs = u.data[0];
  const ys = u.data[seriesIdx]!;
  const fill = new Path2D();
  const base = Math.round(u.valToPos(0, 'y', true));
  const maxWidth = 40 * devicePixelRatio;
  for (let i = idx0; i <= idx1; i++) {
    const y = ys[i];
    if (y == null) continue;
    const x = xs[i]!;
    const step = i + 1 < xs.length ? xs[i + 1]! - x : i > 0 ? x - xs[i - 1]! : 1;
    const left = u.valToPos(x, 'x', true);
    const column = u.valToPos(x + step, 'x', true) - left;
    // A gap under a pixel would round to seams here and there: none then.
    const width = column * 0.1 < 1 ? column : Math.min(maxWidth, column * 0.9);
    const x0 = Math.round(left);
    const x1 = Math.max(x0 + 1, Math.round(left + width));
    const top = Math.round(u.valToPos(y, 'y', true));
    fill.rect(x0, Math.min(top, base), x1 - x0, Math.abs(base - top));
  }
  return { stroke: null, fill, clip: null, flags: 0 };
};

/**
 * The style and paths of `bars` bars in `colour`, each 0.9 of its column
 * (at most 40 px), starting at its x: up to MAX_OUTLINED_BARS, uPlot's own
 * bars, outlined in `colour` over a light fill; past it, filled with
 * `colour` on whole device pixels (snappedBars), as their outlines filled
 * them anyway.
 */
function barSeries(bars: number, colour: string): Pick<uPlot.Series, 'stroke' | 'fill' | 'width' | 'paths'> {
  return bars <= MAX_OUTLINED_BARS
    ? { stroke: colour, fill: cssVar('--series-1-fill', 'rgba(31,95,139,0.35)'), paths: uPlot.paths.bars!({ size: [0.9, 40], align: 1 }) }
    : { stroke: colour, fill: colour, width: 0, paths: snappedBars };
}

/** Histogram of loads per bucket with the binomial band mean ± 2σ. */
export function loadHistogram(
  container: HTMLElement,
  loads: ArrayLike<number>,
  expected: { mean: number; sigma: number },
  maxBars = 2000,
): { plot: uPlot; groupSize: number } {
  const { xs, maxs, mins, size } = binLoads(loads, maxBars);
  const colours = palette();
  const lo = xs.map(() => Math.max(0, expected.mean - 2 * expected.sigma));
  const hi = xs.map(() => expected.mean + 2 * expected.sigma);
  const mean = xs.map(() => expected.mean);
  const series: uPlot.Series[] = [
    { label: size > 1 ? `buckets (groups of ${size})` : 'bucket' },
    {
      label: size > 1 ? 'keys (max in group)' : 'keys',
      ...barSeries(xs.length, colours[0]!),
      points: { show: false },
    },
  ];
  const data: (number | null)[][] = [xs, maxs];
  if (size > 1) {
    series.push({ label: 'keys (min in group)', stroke: colours[1], dash: DASHES[2], width: 1.5, points: { show: false } });
    data.push(mins);
  }
  const band = cssVar('--band', 'rgba(120,120,120,0.18)');
  series.push(
    { label: 'mean + 2σ', stroke: cssVar('--ink-muted', '#666'), dash: DASHES[1], width: 1.5, points: { show: false } },
    { label: 'mean', stroke: cssVar('--ink', '#222'), dash: DASHES[4], width: 1.5, points: { show: false } },
    { label: 'mean − 2σ', stroke: cssVar('--ink-muted', '#666'), dash: DASHES[1], width: 1.5, points: { show: false } },
  );
  data.push(hi, mean, lo);
  const hiIndex = data.length - 3;
  const plot = mount(
    container,
    {
      height: 260,
      // Bars start at zero: a histogram whose axis starts elsewhere exaggerates differences.
      scales: {
        x: { time: false, range: (_u, min, max) => [min - 0.5 * size, max + 0.5 * size + size] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.08)] },
      },
      axes: [
        { ...axisStyle(), label: 'bucket' },
        { ...axisStyle(), label: 'keys', size: 70 },
      ],
      bands: [{ series: [hiIndex, hiIndex + 2], fill: band }],
      series,
    },
    data as uPlot.AlignedData,
  );
  return { plot, groupSize: size };
}

/** Loads before and after a resize on one bucket axis: bars before, stepped line and points after. */
export function beforeAfterChart(container: HTMLElement, before: ArrayLike<number>, after: ArrayLike<number>, maxBars = 2000): uPlot {
  const length = Math.max(before.length, after.length);
  const b = binLoads(before, maxBars, length);
  const a = binLoads(after, maxBars, length);
  const colours = palette();
  const label = b.size > 1 ? ` (max in groups of ${b.size})` : '';
  return mount(
    container,
    {
      height: 240,
      scales: {
        x: { time: false, range: (_u, min, max) => [min - 0.5 * b.size, max + 1.5 * b.size] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.08)] },
      },
      axes: [
        { ...axisStyle(), label: 'bucket' },
        { ...axisStyle(), label: 'keys', size: 70 },
      ],
      series: [
        { label: 'bucket' },
        {
          label: `before${label}`,
          ...barSeries(b.xs.length, colours[0]!),
          points: { show: false },
        },
        {
          label: `after${label}`,
          stroke: colours[1],
          width: 2,
          dash: DASHES[1],
          paths: uPlot.paths.stepped!({ align: 1 }),
          points: { show: true, size: 6, fill: colours[1] },
        },
      ],
    },
    [b.xs, b.maxs, a.maxs] as uPlot.AlignedData,
  );
}

/** The largest matrix the heat map draws cell by cell. */
export const MAX_HEATMAP_CELLS = 262_144;

/**
 * Heat map of the source -> destination matrix. Shade = keys / largest moved
 * flow; staying keys (the diagonal) are outlined and marked "stay" instead of
 * shaded; counts are printed in the cells when they fit; the cursor readout
 * names the cell in words.
 */
export function flowHeatmap(
  container: HTMLElement,
  flows: Float64Array,
  from: number,
  to: number,
  chiPerDof?: (source: number) => number | null,
): uPlot {
  let maxMoved = 0;
  for (let s = 0; s < from; s++) for (let d = 0; d < to; d++) if (s !== d) maxMoved = Math.max(maxMoved, flows[s * to + d]!);
  const ink = cssVar('--ink', '#222');
  const heat = cssVar('--heat', '31,95,139');
  const readout = h('p', { class: 'chart-readout', 'aria-live': 'off' }, 'Point at a cell to read it.');
  // Black or white text, whichever contrasts more with the cell's blended colour.
  const heatRgb = heat.split(',').map(Number);
  const bgRgb = parseColour(cssVar('--bg', '#ffffff'));
  const textOn = (alpha: number) => {
    const mixed = [0, 1, 2].map((i) => bgRgb[i]! * (1 - alpha) + heatRgb[i]! * alpha);
    return relativeLuminance(mixed) > 0.179 ? '#000' : '#fff';
  };
  const xs = Array.from({ length: to }, (_, i) => i);
  const height = Math.min(520, Math.max(180, from * 22 + 60));
  const plot = mount(
    container,
    {
      height,
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [-0.5, to - 0.5] },
        y: { range: [-0.5, from - 0.5], dir: -1 },
      },
      axes: [
        { ...axisStyle(), label: 'destination bucket (after)', side: 0, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10000] },
        { ...axisStyle(), label: 'source bucket (before)', size: 60, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10000] },
        // Each source row's chi-square per degree of freedom, beside the row.
        ...(chiPerDof && from <= 40
          ? [
              {
                ...axisStyle(),
                scale: 'y',
                side: 1 as const,
                label: 'χ²/dof of its moved keys',
                size: 64,
                grid: { show: false },
                splits: () => Array.from({ length: from }, (_, s) => s),
                values: (_u: uPlot, splits: number[]) =>
                  splits.map((s) => {
                    const value = chiPerDof(s);
                    return value === null ? '—' : value >= 100 ? value.toFixed(0) : value.toFixed(1);
                  }),
              },
            ]
          : []),
      ],
      series: [{}, { label: 'keys', stroke: 'transparent', points: { show: false }, paths: () => null }],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            const x0 = u.valToPos(-0.5, 'x', true);
            const x1 = u.valToPos(to - 0.5, 'x', true);
            const y0 = u.valToPos(-0.5, 'y', true);
            const y1 = u.valToPos(from - 0.5, 'y', true);
            const cw = (x1 - x0) / to;
            const ch = (y1 - y0) / from;
            ctx.save();
            const fontPx = Math.min(13, Math.floor(Math.min(Math.abs(cw) / 4, Math.abs(ch) * 0.6))) * devicePixelRatio;
            const showText = Math.abs(cw) >= 26 * devicePixelRatio && Math.abs(ch) >= 14 * devicePixelRatio;
            ctx.font = `${fontPx}px system-ui, sans-serif`;
            ctx.textAlign = 'center';
            ctx.textBaseline = 'middle';
            for (let s = 0; s < from; s++) {
              for (let d = 0; d < to; d++) {
                const count = flows[s * to + d]!;
                const x = x0 + d * cw;
                const y = y0 + s * ch;
                if (s === d && s < to) {
                  ctx.strokeStyle = ink;
                  ctx.lineWidth = devicePixelRatio;
                  ctx.strokeRect(x + 1, y + 1, cw - 2, ch - 2);
                  if (showText) {
                    ctx.fillStyle = ink;
                    ctx.fillText(count ? `stay ${count}` : 'stay', x + cw / 2, y + ch / 2);
                  }
                  continue;
                }
                if (count > 0) {
                  const alpha = 0.12 + 0.88 * (count / (maxMoved || 1));
                  ctx.fillStyle = `rgba(${heat},${alpha.toFixed(3)})`;
                  ctx.fillRect(x, y, cw, ch);
                  if (showText) {
                    ctx.fillStyle = textOn(alpha);
                    ctx.fillText(String(count), x + cw / 2, y + ch / 2);
                  }
                }
              }
            }
            ctx.restore();
          },
        ],
        setCursor: [
          (u) => {
            const { left, top } = u.cursor;
            if (left === undefined || top === undefined || left < 0 || top < 0) return;
            const d = Math.round(u.posToVal(left, 'x'));
            const s = Math.round(u.posToVal(top, 'y'));
            if (d < 0 || d >= to || s < 0 || s >= from) return;
            const count = flows[s * to + d]!;
            readout.textContent =
              s === d
                ? `Bucket ${s}: ${count} keys stay.`
                : `From bucket ${s} to bucket ${d}: ${count} keys moved.`;
          },
        ],
      },
    },
    [xs, xs.map(() => null)] as uPlot.AlignedData,
  );
  container.append(readout);
  return plot;
}

function parseColour(text: string): number[] {
  const hex = /^#([0-9a-f]{6})$/i.exec(text.trim());
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16));
  const rgb = /rgba?\(([^)]+)\)/.exec(text);
  if (rgb) return rgb[1]!.split(',').slice(0, 3).map((v) => Number(v.trim()));
  return [255, 255, 255];
}

function relativeLuminance([r, g, b]: number[]): number {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
}

export interface XYSeries {
  label: string;
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
}

/**
 * Several series of (x, y) points on shared axes, each with its own x values
 * (gaps bridged): lines with points, or steps; x on a log scale when it
 * spans orders of magnitude (every x must then be positive).
 */
export function xyChart(
  container: HTMLElement,
  options: { xLabel: string; yLabel: string; step: boolean; logX: boolean; series: XYSeries[] },
): uPlot {
  const xsSet = new Set<number>();
  for (const s of options.series) for (let i = 0; i < s.xs.length; i++) xsSet.add(s.xs[i]!);
  const xs = [...xsSet].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const columns = options.series.map((s) => {
    const ys: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    for (let i = 0; i < s.xs.length; i++) ys[index.get(s.xs[i]!)!] = Number.isFinite(s.ys[i]!) ? s.ys[i]! : null;
    return ys;
  });
  const colours = palette();
  const manyPoints = xs.length > 200;
  return mount(
    container,
    {
      height: 300,
      scales: { x: { time: false, distr: options.logX ? 3 : 1 } },
      axes: [
        { ...axisStyle(), label: options.xLabel },
        { ...axisStyle(), label: options.yLabel, size: 70 },
      ],
      legend: { show: true },
      series: [
        { label: options.xLabel },
        ...options.series.map((s, i) => ({
          label: s.label,
          stroke: colours[i % 5],
          width: 2,
          dash: DASHES[i % 5],
          spanGaps: true,
          ...(options.step ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
          points: {
            show: !manyPoints,
            size: POINT_SIZES[i % 5],
            fill: i % 2 ? colours[i % 5] : cssVar('--bg', '#fff'),
          },
        })),
      ],
    },
    [xs, ...columns] as uPlot.AlignedData,
  );
}
