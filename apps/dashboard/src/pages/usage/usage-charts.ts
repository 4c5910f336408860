import type { ComponentUsageReport, UsagePoint, UsageSlice, UsageWindow } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { lineChart, type Line, type TimeMark } from '../charts/line-chart.js';
import { when } from '../layout.js';
import { count, environmentName, ms, utcMinute, variantIn } from './format.js';

/** How each window names its buckets: on the axis (short), in the table, and the table's time column. */
const TIME: Readonly<Record<UsageWindow, { column: string; per: string; span: string; axis: (iso: string) => string; name: (iso: string) => string }>> = {
  '24h': { column: 'Hour from (UTC)', per: 'per hour', span: 'the last 24 hours', axis: (iso) => `${iso.slice(11, 13)}:00`, name: (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}` },
  '7d': { column: '6 hours from (UTC)', per: 'per 6 hours', span: 'the last 7 days', axis: (iso) => `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`, name: (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}` },
  '30d': { column: 'Day (UTC)', per: 'per day', span: 'the last 30 days', axis: (iso) => iso.slice(5, 10), name: (iso) => iso.slice(0, 10) },
};

/** The starts of the report's buckets, oldest first: multiples of the bucket width since the epoch, as the reader sums them. */
export function bucketStarts(report: Pick<ComponentUsageReport, 'from' | 'to' | 'bucketSeconds'>): Date[] {
  const width = report.bucketSeconds * 1000;
  const starts: Date[] = [];
  for (let at = Math.floor(report.from.getTime() / width) * width; at < report.to.getTime(); at += width) starts.push(new Date(at));
  return starts;
}

/** A release in words: "prod: v3 released (replacing v2)", "prod: rolled back to v2 (from v3)". */
export function releaseName(marker: ComponentUsageReport['releases'][number], label: (variantId: string) => string): string {
  const environment = environmentName(marker.environment);
  const previous = marker.previousVariantId === null ? null : label(marker.previousVariantId);
  if (marker.rollback) return `${environment}: rolled back to ${label(marker.variantId)}${previous === null ? '' : ` (from ${previous})`}`;
  return `${environment}: ${label(marker.variantId)} released${previous === null ? '' : ` (replacing ${previous})`}`;
}

export interface UsageChartsInput {
  readonly report: ComponentUsageReport;
  /** "v3" for a variant id of the component. */
  readonly label: (variantId: string) => string;
}

/**
 * The component usage page's charts: renders, errors and render time p75 over the window, a line per
 * variant in each environment, every release of the window marked where it happened; then the releases
 * listed with their numbers. Counts are 0 in a bucket without rows; p75 has no point without a render.
 */
export function usageCharts({ report, label }: UsageChartsInput): SafeHtml {
  const buckets = bucketStarts(report);
  const bucketMs = report.bucketSeconds * 1000;
  const index = new Map(buckets.map((at, i) => [at.getTime(), i]));
  const time = TIME[report.window];
  const marks: TimeMark[] = [...report.releases].sort((a, b) => a.at.getTime() - b.at.getTime()).map((marker) => ({ at: marker.at, name: releaseName(marker, label) }));
  const lineName = (slice: UsageSlice) => variantIn(slice.variantLabel ?? label(slice.variantId ?? ''), slice.environment);

  /** A line per slice: `pick` of its points of `type`, `empty` where a bucket has none. */
  const linesOf = (slices: readonly UsageSlice[], type: UsagePoint['type'], pick: (point: UsagePoint) => number | null, empty: number | null): Line[] =>
    slices.map((slice) => {
      const values: (number | null)[] = buckets.map(() => empty);
      for (const point of report.series) {
        if (point.type !== type || point.environment !== slice.environment || point.variantId !== slice.variantId) continue;
        const i = index.get(point.at.getTime());
        if (i !== undefined) values[i] = pick(point);
      }
      return { name: lineName(slice), values };
    });

  const measured = report.byVariant.filter((slice) => slice.renders + slice.errors > 0);
  const rendered = measured.filter((slice) => slice.renders > 0);
  const releases = marks.length === 0 ? 'No release in the window.' : `${marks.length} ${marks.length === 1 ? 'release' : 'releases'} marked: ${marks.map((m, i) => `${i + 1}, ${m.name} at ${utcMinute(m.at)}`).join('; ')}.`;
  const describe = (what: string, lines: readonly Line[], total: (line: Line) => string) =>
    lines.length === 0
      ? `No ${what} in ${time.span}. ${releases}`
      : `${what[0]!.toUpperCase()}${what.slice(1)} ${time.per} over ${time.span}, a line per variant: ${lines.map((line) => `${line.name} ${total(line)}`).join(', ')}. ${releases}`;
  const sum = (line: Line) => `${count(line.values.reduce<number>((s, v) => s + (v ?? 0), 0))} in all`;
  const highest = (line: Line) => `at most ${ms(Math.max(...line.values.filter((v): v is number => v !== null)))}`;

  const common = { from: report.from, to: report.to, buckets, bucketMs, marks, timeColumn: time.column, timeName: (at: Date) => time.name(at.toISOString()), axisName: (at: Date) => time.axis(at.toISOString()) };
  const renders = linesOf(measured, 'render', (p) => p.count, 0);
  const errors = linesOf(measured, 'error', (p) => p.count, 0);
  const p75 = linesOf(rendered, 'render', (p) => p.render?.p75 ?? null, null);
  return html`<h2 id="usage-over-time">Over time</h2>
<p class="hint">Buckets ${time.per} (UTC). Each numbered rule is a release in the window (listed under the charts), so a change in the lines can be read against the release that came before it.</p>
<h3 id="renders-chart-heading">Renders</h3>
${lineChart({ ...common, id: 'renders-chart', title: 'Renders', description: describe('renders', renders, sum), lines: renders, format: count })}
<h3 id="errors-chart-heading">Errors</h3>
${lineChart({ ...common, id: 'errors-chart', title: 'Errors', description: describe('errors', errors, sum), lines: errors, format: count })}
<h3 id="p75-chart-heading">Render time, 75th percentile</h3>
${lineChart({ ...common, id: 'p75-chart', title: 'Render time p75', description: describe('render time p75', p75, highest), lines: p75, format: (v) => ms(v) })}
<h3 id="releases-in-window">Releases in the window</h3>
${marks.length === 0 ? html`<p class="hint">No publish or roll back in ${time.span}.</p>` : html`<ol class="releases">${marks.map((mark) => html`<li>${mark.name}, ${when(mark.at)}</li>`)}</ol>`}`;
}
