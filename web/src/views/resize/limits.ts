// The Resize view's limits, in a module of their own so that other views
// (Compare) can read them without loading the Resize view.

/** Bucket counts of a resize, 1 ..= this: the core keeps one counter per bucket. */
export const MAX_RESIZE_BUCKETS = 1_000_000;
/** Moved keys kept for the list and the CSV (the core's sampleLimit). */
export const MOVED_SAMPLE_LIMIT = 200_000;
