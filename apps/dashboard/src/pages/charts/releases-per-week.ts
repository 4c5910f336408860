import type { WeeklyReleaseCount } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { barChart } from './bar-chart.js';

/** How many weeks the component page's chart shows, the current one last. */
export const RELEASE_CHART_WEEKS = 12;

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * "Releases per week" on the component page: every environment together, since the question is how
 * often the component changes; which environment each release went to is the release history below.
 */
export function releasesPerWeekSection(weeks: readonly WeeklyReleaseCount[]): SafeHtml {
  const first = weeks[0];
  const latest = weeks.at(-1);
  if (first === undefined || latest === undefined) return html``;
  const total = weeks.reduce((sum, week) => sum + week.count, 0);
  // The latest of the busiest weeks: the one a reader most likely remembers.
  const busiest = weeks.reduce((most, week) => (week.count >= most.count ? week : most), first);
  const span = `the last ${weeks.length} weeks (from ${day(first.weekStart)})`;
  const description =
    total === 0
      ? `No release in ${span}.`
      : `${total} ${total === 1 ? 'release' : 'releases'} in ${span}; the most, ${busiest.count}, in the week from ${day(busiest.weekStart)}.`;
  return html`<h2 id="releases-per-week">Releases per week</h2>
<p class="hint">Publishes and roll backs to any environment, per week from Monday (UTC), this week so far last.</p>
${barChart({
  id: 'releases-per-week-chart',
  title: 'Releases per week',
  description,
  columns: ['Week from (UTC)', 'Releases'],
  bars: weeks.map((week) => ({
    axisLabel: day(week.weekStart).slice(5),
    name: week === latest ? `${day(week.weekStart)} (this week)` : day(week.weekStart),
    value: week.count,
  })),
})}`;
}
