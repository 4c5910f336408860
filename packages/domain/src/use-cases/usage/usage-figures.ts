import { SERVED_TYPE } from '../../entities/usage.js';
import { emptyHistogram, histogramPercentile, mergeHistograms, type Histogram } from '../../rules/latency-histogram.js';
import type { UsageTotals } from '../../ports/usage.js';
import type { Percentiles, UsageFigures } from './usage-report.js';

/** Rows of any type, for one slice; counts and histograms are added per type. */
export interface TypedTotals extends UsageTotals {
  readonly type: string;
}

export function percentiles(histogram: Histogram): Percentiles {
  return {
    p50: histogramPercentile(histogram, 50),
    p75: histogramPercentile(histogram, 75),
    p99: histogramPercentile(histogram, 99),
  };
}

/** errors / (renders + errors): a failed mount reports an error instead of a render. */
export function errorRate(renders: number, errors: number): number | null {
  return renders + errors === 0 ? null : errors / (renders + errors);
}

/** The figures of a slice from its rows, percentiles from the merged histograms. */
export function usageFigures(rows: Iterable<TypedTotals>): UsageFigures {
  const counts = new Map<string, number>();
  const render = emptyHistogram();
  const load = emptyHistogram();
  for (const row of rows) {
    counts.set(row.type, (counts.get(row.type) ?? 0) + row.count);
    if (row.type === 'render') mergeHistograms(render, row.histogram);
    if (row.type === 'load') mergeHistograms(load, row.histogram);
  }
  const count = (type: string): number => counts.get(type) ?? 0;
  return {
    served: count(SERVED_TYPE),
    loads: count('load'),
    renders: count('render'),
    errors: count('error'),
    interactions: count('interaction'),
    errorRate: errorRate(count('render'), count('error')),
    render: percentiles(render),
    load: percentiles(load),
  };
}
