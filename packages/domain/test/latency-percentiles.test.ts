import {
  addToHistogram,
  bucketBounds,
  emptyHistogram,
  HISTOGRAM_BUCKETS,
  histogramBucket,
  histogramPercentile,
  mergeHistograms,
} from '../src/index.js';
import { seededRandom as seeded } from '../src/testing/index.js';

// rules/latency-histogram.ts against the exact percentiles of 100,000 values per distribution,
// from a seeded generator (the same values at every run), whole and merged from per-minute histograms.

const COUNT = 100_000;
const MINUTES = 1440;
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const DISTRIBUTIONS: Record<string, (random: () => number) => number> = {
  'uniform 0-2000 ms': (random) => random() * 2000,
  'log-normal around 80 ms': (random) => Math.exp(Math.log(80) + 0.8 * normal(random)),
  'exponential, mean 30 ms': (random) => -30 * Math.log(1 - random()),
  'bimodal: cache hits and misses': (random) => (random() < 0.7 ? 2 + random() * 6 : 300 + random() * 900),
  'heavy tail (Pareto)': (random) => 5 / Math.pow(1 - random(), 1 / 1.2),
  'whole milliseconds with many zeros': (random) => (random() < 0.3 ? 0 : Math.floor(random() * 50)),
};

/** The `p`th percentile as histogramPercentile ranks it: the ceil(p% of n)-th smallest value. */
const exactPercentile = (sorted: readonly number[], p: number) => sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;

describe.each(Object.entries(DISTRIBUTIONS))('percentiles of %s', (_name, draw) => {
  const random = seeded(_name.length * 7919);
  const values = Array.from({ length: COUNT }, () => draw(random));
  const sorted = [...values].sort((a, b) => a - b);
  const whole = emptyHistogram();
  for (const value of values) addToHistogram(whole, value);
  const perMinute = Array.from({ length: MINUTES }, () => emptyHistogram());
  values.forEach((value, i) => addToHistogram(perMinute[i % MINUTES]!, value));
  const merged = perMinute.reduce((into, minute) => mergeHistograms(into, minute), emptyHistogram());

  it.each([50, 75, 99])('p%d falls within one bucket of the exact value, whole and merged', (p) => {
    const exact = exactPercentile(sorted, p);
    const estimate = histogramPercentile(whole, p)!;
    expect(Math.abs(histogramBucket(estimate) - histogramBucket(exact))).toBeLessThanOrEqual(1);
    // Stronger: the estimate lies in the very bucket of the exact value.
    const [lower, upper] = bucketBounds(histogramBucket(exact));
    expect(estimate).toBeGreaterThanOrEqual(lower);
    expect(estimate).toBeLessThan(upper);
    expect(merged).toEqual(whole);
    expect(histogramPercentile(merged, p)).toBe(estimate);
  });
});

describe('histogram edge cases', () => {
  it('an empty histogram has no percentile', () => {
    expect(histogramPercentile(emptyHistogram(), 50)).toBeNull();
  });

  it('0 ms and anything below 1 ms fall in the first bucket, estimated as half a millisecond', () => {
    const histogram = emptyHistogram();
    for (const ms of [0, 0.2, 0.999]) addToHistogram(histogram, ms);
    expect(histogram[0]).toBe(3);
    expect(histogramPercentile(histogram, 99)).toBe(0.5);
  });

  it('huge values fall in the last bucket, estimated as its lower bound; not-a-number and negatives in the first', () => {
    for (const ms of [2 ** 19, 3_600_000, 1e12, Number.MAX_VALUE, Infinity]) expect(histogramBucket(ms)).toBe(HISTOGRAM_BUCKETS - 1);
    expect(histogramBucket(NaN)).toBe(0);
    expect(histogramBucket(-5)).toBe(0);
    const histogram = emptyHistogram();
    addToHistogram(histogram, 1e12);
    expect(histogramPercentile(histogram, 50)).toBe(2 ** 19);
  });

  it('a bound goes to the bucket above it', () => {
    expect(histogramBucket(1)).toBe(1);
    expect(histogramBucket(2)).toBe(3);
    expect(histogramBucket(1024)).toBe(21);
    expect(bucketBounds(21)).toEqual([1024, 2 ** 10.5]);
  });

  it('merging histograms of different lengths adds what they have', () => {
    const histogram = emptyHistogram();
    mergeHistograms(histogram, [1, 2]);
    expect(histogram.slice(0, 3)).toEqual([1, 2, 0]);
    expect(histogram).toHaveLength(HISTOGRAM_BUCKETS);
  });
});
