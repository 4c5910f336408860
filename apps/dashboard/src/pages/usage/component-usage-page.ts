import { USAGE_WINDOWS, type ComponentUsageReport, type UsageWindow } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout } from '../layout.js';
import { componentTabs } from '../component-tabs.js';
import { noticePanel } from '../parts/notice-panel.js';
import { choiceLinks } from './choice-links.js';
import { environmentsTable, topErrorsTable, variantsTable } from './figures-tables.js';
import { count } from './format.js';
import { usageCharts } from './usage-charts.js';

/** "24 hours", "7 days", "30 days": how the links name the windows. */
export const WINDOW_NAMES: Readonly<Record<UsageWindow, { link: string; span: string }>> = {
  '24h': { link: '24 hours', span: 'the last 24 hours' },
  '7d': { link: '7 days', span: 'the last 7 days' },
  '30d': { link: '30 days', span: 'the last 30 days' },
};

/** Where the page's links go (the routes own the URLs). */
export interface ComponentUsageLinks {
  readonly component: string;
  /** This page over another window, the environment kept. */
  readonly window: (window: UsageWindow) => string;
  /** This page for one environment (null: all), the window kept. */
  readonly environment: (environment: string | null) => string;
}

export interface ComponentUsagePageContent {
  readonly report: ComponentUsageReport;
  readonly chrome: Chrome;
  /** "v3" for a variant id of the component, also one no longer measured (a release marker's). */
  readonly label: (variantId: string) => string;
  /** The organization's environments, for the filter. */
  readonly environments: readonly string[];
  /** The environment shown, null: all. */
  readonly environment: string | null;
  readonly links: ComponentUsageLinks;
}

/**
 * A component's usage over a window: figures per environment and per variant, renders, errors and
 * render time over time with its releases marked, the most counted errors; or, when nothing was
 * reported, how host pages start reporting.
 */
export function componentUsagePage(content: ComponentUsagePageContent): string {
  const { report, links } = content;
  const { component, total } = report;
  const span = WINDOW_NAMES[report.window].span;
  const reported = total.loads + total.renders + total.errors + total.interactions > 0 || report.topErrors.length > 0;
  const filters = html`${choiceLinks('Window', USAGE_WINDOWS.map((w) => ({ label: WINDOW_NAMES[w].link, href: links.window(w), current: w === report.window })))}
${choiceLinks('Environment', [
  { label: 'All environments', href: links.environment(null), current: content.environment === null },
  ...content.environments.map((name) => ({ label: name, href: links.environment(name), current: name === content.environment })),
])}`;
  const where = content.environment === null ? '' : ` in ${content.environment}`;
  return layout({
    title: `Usage of ${component.name}`,
    chrome: content.chrome,
    body: html`<h1>${component.name}</h1>
${componentTabs({ component: links.component, usage: links.window(report.window) }, 'usage')}
<h2 id="usage">Usage${where}, ${span}</h2>
${filters}
${reported ? figures(content, span) : emptyUsage(total.served, span, where)}`,
  });
}

function figures({ report, label }: ComponentUsagePageContent, span: string): SafeHtml {
  return html`<p class="hint">Served: <code>/consume</code> responses the delivery API sent. Loads, renders, errors: what host pages with the host SDK reported (at their sampling rate). Error rate: errors / (renders + errors). Render times are estimates, each within one histogram bucket of the true value.</p>
<h3 id="by-environment">By environment</h3>
${environmentsTable(report.byEnvironment, report.total)}
<h3 id="by-variant">By variant</h3>
${variantsTable(report.byVariant, label)}
${usageCharts({ report, label })}
<h2 id="top-errors">Top errors</h2>
${topErrorsTable(report.topErrors, label, span)}`;
}

/** Nothing reported by host pages: how they start, and what the delivery API counted meanwhile. */
function emptyUsage(served: number, span: string, where: string): SafeHtml {
  const delivery =
    served === 0
      ? html`<p>The delivery API served it to no host page${where} in ${span} either. Hosts fetch what is released: publish a variant to an environment, and put the host snippet of the Overview tab in a page.</p>`
      : html`<p>The delivery API served it ${count(served)} ${served === 1 ? 'time' : 'times'}${where} in ${span}, so hosts fetch it but render it without the host SDK, or with its usage reports turned off.</p>`;
  return noticePanel(
    'status',
    html`<p><strong>No usage reported${where} in ${span}.</strong></p>
${delivery}
<p>Host pages that render the component with the host SDK (<code>&lt;cp-component&gt;</code>, <code>mount()</code>, the React and Vue bindings) report loads, renders, errors and render times by default, and nothing that identifies their visitors. Sampling them, or turning them off: <code>docs/host-sdk.md</code>, section "Usage analytics".</p>`,
  );
}
