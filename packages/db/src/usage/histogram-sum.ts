import { HISTOGRAM_BUCKETS } from '@cp/domain';

/**
 * The aggregate that adds the histograms in `column` bucket by bucket, with plain sums (a
 * NULL histogram, for types without durations, adds nothing): what `usage.histogram_sum` does,
 * without its SQL function call per row, which costs more than the sums (bench/README.md).
 */
export const histogramSum = (column: string, type: 'int4' | 'float8'): string =>
  `ARRAY[${Array.from({ length: HISTOGRAM_BUCKETS }, (_, i) => `coalesce(sum(${column}[${i + 1}]), 0)`).join(', ')}]::${type}[]`;
