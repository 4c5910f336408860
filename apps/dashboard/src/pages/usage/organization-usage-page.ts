import { ErrorRateRiseRule, USAGE_WINDOWS, type OrganizationUsageReport, type UsageWindow } from '@cp/domain';
import { html } from '@cp/web-forms';
import { layout, when } from '../layout.js';
import { emptyState } from '../parts/empty-state.js';
import { listTable } from '../parts/list-table.js';
import type { OrganizationPageContent } from '../parts/organization-page.js';
import { choiceLinks } from './choice-links.js';
import { WINDOW_NAMES } from './component-usage-page.js';
import { count, environmentName, rate } from './format.js';

export interface OrganizationUsagePageContent extends OrganizationPageContent {
  readonly report: OrganizationUsageReport;
  /** This page over another window. */
  readonly windowHref: (window: UsageWindow) => string;
  /** A component's usage page over the same window. */
  readonly componentHref: (componentId: string) => string;
}

/**
 * An organization's usage over a window: its busiest components (served + loads) and those whose
 * error rate rose with their last release, each linking to the component's usage.
 */
export function organizationUsagePage(content: OrganizationUsagePageContent): string {
  const { report, componentHref } = content;
  const span = WINDOW_NAMES[report.window].span;
  const minimumRise = `${ErrorRateRiseRule.minimumRise * 100} percentage point${ErrorRateRiseRule.minimumRise * 100 === 1 ? '' : 's'}`;
  const component = (id: string, name: string) => html`<th scope="row"><a href="${componentHref(id)}">${name || 'a deleted component'}</a></th>`;
  return layout({
    title: `Usage · ${content.organization.name}`,
    chrome: content.chrome,
    body: html`<h1>Usage</h1>
<p class="hint">${content.organization.name}, ${span}. Served: <code>/consume</code> responses of the delivery API; loads, renders and errors: what host pages with the host SDK reported. Error rate: errors / (renders + errors). Whole UTC days, up to the last complete hour.</p>
${choiceLinks('Window', USAGE_WINDOWS.map((w) => ({ label: WINDOW_NAMES[w].link, href: content.windowHref(w), current: w === report.window })))}
<h2 id="error-rate-rises">Error rate rose since the last release</h2>
<p class="hint">Where a component's last release in an environment fails more often than the variant it replaced, both over ${span}: at least ${ErrorRateRiseRule.minimumSample} renders and errors each, and ${minimumRise} more. Largest rise first.</p>
${listTable({
  columns: ['Component', 'Environment', 'Released', 'Error rate now', 'Before'],
  rows: report.errorRateRises.map(
    (r) =>
      html`<tr>${component(r.componentId, r.componentName)}<td>${environmentName(r.environment)}</td><td>${r.variantLabel}, ${when(r.releasedAt)}</td><td>${rate(r.errorRate)} <span class="hint">(${count(r.errors)} of ${count(r.renders + r.errors)})</span></td><td>${r.previousVariantLabel}: ${rate(r.previousErrorRate)} <span class="hint">(${count(r.previousErrors)} of ${count(r.previousRenders + r.previousErrors)})</span></td></tr>`,
  ),
  empty: emptyState(`No component's error rate rose with its last release in ${span}.`, true),
})}
<h2 id="busiest">Busiest components</h2>
${listTable({
  columns: ['Component', 'Served', 'Loads', 'Renders', 'Errors', 'Error rate'],
  caption: 'Most served and loaded first.',
  rows: report.busiest.map(
    (c) =>
      html`<tr>${component(c.componentId, c.componentName)}<td>${count(c.served)}</td><td>${count(c.loads)}</td><td>${count(c.renders)}</td><td>${count(c.errors)}</td><td>${rate(c.errorRate)}</td></tr>`,
  ),
  empty: emptyState(
    html`No component was served or reported in ${span}. Host pages that render a released component with the host SDK report its usage by default (<code>docs/host-sdk.md</code>, section "Usage analytics"); each component's Usage tab shows its own.`,
  ),
})}`,
  });
}
