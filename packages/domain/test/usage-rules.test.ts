import { errorRateRise } from '../src/rules/error-rate-rise.js';
import { usageFigures } from '../src/use-cases/usage/usage-figures.js';
import { usageRange } from '../src/use-cases/usage/usage-window.js';
import { emptyHistogram, histogramBucket } from '../src/rules/latency-histogram.js';

describe('error rate rise', () => {
  it('needs the minimum sample on both sides, so one error in two renders is no spike', () => {
    expect(errorRateRise({ renders: 1, errors: 1 }, { renders: 500, errors: 0 })).toBeNull();
    expect(errorRateRise({ renders: 500, errors: 50 }, { renders: 99, errors: 0 })).toBeNull();
  });
  it('is a rise of at least one percentage point', () => {
    expect(errorRateRise({ renders: 90, errors: 10 }, { renders: 100, errors: 0 })).toBeCloseTo(0.1);
    expect(errorRateRise({ renders: 995, errors: 5 }, { renders: 1000, errors: 0 })).toBeNull();
    expect(errorRateRise({ renders: 100, errors: 0 }, { renders: 90, errors: 10 })).toBeNull();
  });
});

describe('usage windows', () => {
  it('end with the current minute and have a bucket width each', () => {
    const now = new Date('2031-01-01T10:20:30Z');
    expect(usageRange('24h', now)).toEqual({
      window: '24h',
      from: new Date('2030-12-31T10:21:00Z'),
      to: new Date('2031-01-01T10:21:00Z'),
      bucketSeconds: 3600,
    });
    expect(usageRange('7d', now).bucketSeconds).toBe(6 * 3600);
    expect(usageRange('30d', now).bucketSeconds).toBe(86_400);
  });
  it('refuses any other window, naming the allowed ones', () => {
    expect(() => usageRange('1y', new Date())).toThrow('window: must be one of 24h, 7d, 30d.');
  });
});

describe('usage figures', () => {
  it('counts per type, rates errors against renders + errors, and merges histograms for percentiles', () => {
    const histogram = (ms: number, n: number) => {
      const h = emptyHistogram();
      h[histogramBucket(ms)] = n;
      return h;
    };
    const row = (type: string, count: number, h = emptyHistogram()) => ({ type, count, errors: type === 'error' ? count : 0, sum: 0, histogram: h });
    const figures = usageFigures([row('render', 60, histogram(10, 60)), row('render', 30, histogram(1000, 30)), row('error', 10), row('served', 7), row('load', 5, histogram(50, 5))]);
    expect(figures).toMatchObject({ served: 7, loads: 5, renders: 90, errors: 10, interactions: 0, errorRate: 0.1 });
    expect(figures.render.p50).toBeLessThan(12);
    expect(figures.render.p99).toBeGreaterThan(800);
    expect(usageFigures([]).errorRate).toBeNull();
    expect(usageFigures([]).render).toEqual({ p50: null, p75: null, p99: null });
  });
});
