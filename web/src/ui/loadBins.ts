// Loads per bucket grouped into at most a chart's worth of bars (ui/charts.ts
// draws them): pure arithmetic, kept apart so that it can be tested without
// a canvas.

/** A chart's bars: each group's first bucket, and the largest and smallest load in it. */
export interface LoadBins {
  xs: number[];
  maxs: number[];
  mins: number[];
  /** Buckets a group has (the last may have fewer). */
  size: number;
}

/**
 * Groups the loads of `length` buckets (default: as many as `loads` has;
 * buckets past the end of `loads` have none) into at most `maxBars` groups
 * of equal size, keeping each group's min and max. Without a copy padded
 * with zeros: a resize 10^6 -> 4 buckets charts 4 loads after on an axis of
 * 10^6, and grouping such a padded copy took 24-32 ms of the page's main
 * thread in Chromium, against 6-7 ms for the 10^6 loads before.
 */
export function binLoads(loads: ArrayLike<number>, maxBars: number, length = loads.length): LoadBins {
  const groups = Math.max(1, Math.min(length, maxBars));
  const size = Math.max(1, Math.ceil(length / groups));
  const xs: number[] = [];
  const maxs: number[] = [];
  const mins: number[] = [];
  for (let start = 0; start < length; start += size) {
    const end = Math.min(length, start + size);
    const storedEnd = Math.min(end, loads.length);
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = start; i < storedEnd; i++) {
      const load = loads[i]!;
      if (load < lo) lo = load;
      if (load > hi) hi = load;
    }
    if (storedEnd < end) {
      // Buckets past the loads given have none.
      if (lo > 0) lo = 0;
      if (hi < 0) hi = 0;
    }
    xs.push(start);
    maxs.push(hi);
    mins.push(lo);
  }
  return { xs, maxs, mins, size };
}
