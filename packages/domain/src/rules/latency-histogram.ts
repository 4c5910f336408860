/**
 * A fixed log-scale histogram of milliseconds, so that percentiles merge across minutes,
 * hours and variants by adding counts. Bucket 0 holds [0, 1); bucket i in 1..38 holds
 * [2^((i-1)/2), 2^(i/2)), each twice as wide as the one two below it; bucket 39 holds
 * everything from 2^19 ms (about 9 minutes) up. An estimate falls in the bucket of the
 * exact value, so it is off by at most that bucket's width (~41 %).
 * The database keeps the same layout (`usage.histogram_add`): change both or neither.
 */
export const HISTOGRAM_BUCKETS = 40;

export type Histogram = readonly number[];

export function emptyHistogram(): number[] {
  return new Array<number>(HISTOGRAM_BUCKETS).fill(0);
}

export function histogramBucket(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(HISTOGRAM_BUCKETS - 1, Math.floor(2 * Math.log2(ms)) + 1);
}

/** The lower and upper bounds of a bucket, in ms (the last one's upper bound is Infinity). */
export function bucketBounds(bucket: number): readonly [number, number] {
  if (bucket <= 0) return [0, 1];
  const upper = bucket === HISTOGRAM_BUCKETS - 1 ? Infinity : 2 ** (bucket / 2);
  return [2 ** ((bucket - 1) / 2), upper];
}

export function addToHistogram(histogram: number[], ms: number): void {
  histogram[histogramBucket(ms)]! += 1;
}

export function mergeHistograms(into: number[], other: Histogram): number[] {
  for (let i = 0; i < HISTOGRAM_BUCKETS; i++) into[i]! += other[i] ?? 0;
  return into;
}

/**
 * The `p`th percentile (0 < p < 100) of what the histogram counted, as the geometric middle of
 * the bucket that holds it; null when it counted nothing.
 */
export function histogramPercentile(histogram: Histogram, p: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (let bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++) {
    seen += histogram[bucket] ?? 0;
    if (seen >= rank) {
      const [lower, upper] = bucketBounds(bucket);
      if (bucket === 0) return 0.5;
      return upper === Infinity ? lower : Math.sqrt(lower * upper);
    }
  }
  return null;
}
