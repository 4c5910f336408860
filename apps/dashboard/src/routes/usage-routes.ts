import { getComponentUsage, getOrganizationUsage, invalidInput, isUsageWindow, Limits, listEnvironments, listVariants, type Actor, type ComponentUsageReport, type UsageDeps, type UsageWindow } from '@cp/domain';
import { Router } from 'express';
import { definePage, mountPages } from '../kit/define-page.js';
import { componentUsagePage } from '../pages/usage/component-usage-page.js';
import { organizationUsagePage } from '../pages/usage/organization-usage-page.js';
import type { RouteContext } from './context.js';

/** The window a usage page shows when the URL names none. */
export const DEFAULT_USAGE_WINDOW: UsageWindow = '7d';

/** `?window=`: absent is the default; anything but a window's name is bad input (400). */
export function usageWindow(value: string): UsageWindow {
  if (value === '') return DEFAULT_USAGE_WINDOW;
  if (!isUsageWindow(value)) throw invalidInput('window', `"${value.slice(0, 20)}" is not a window: choose 24h, 7d or 30d from the links on the usage page.`);
  return value;
}

/** The component usage page's URL. */
export function componentUsageHref(componentId: string, window: UsageWindow, environment: string | null = null): string {
  const params = new URLSearchParams({ window });
  if (environment !== null) params.set('environment', environment);
  return `/component/${componentId}/usage?${params.toString()}`;
}

const usageDeps = (ctx: RouteContext): UsageDeps => ({ repos: ctx.domain.repos, clock: ctx.domain.clock, usage: ctx.usage });

/**
 * "v3" for every variant the report names: those measured carry their label; a release marker's or an
 * error's variant that was not measured in the window is looked up among the component's variants.
 */
async function variantLabelOf(report: ComponentUsageReport, actor: Actor, ctx: RouteContext): Promise<(variantId: string) => string> {
  const labels = new Map(report.byVariant.flatMap((s) => (s.variantId === null || s.variantLabel === null ? [] : [[s.variantId, s.variantLabel] as const])));
  const named = [...report.releases.flatMap((r) => [r.variantId, r.previousVariantId]), ...report.topErrors.map((e) => e.variantId)];
  if (named.some((id) => id !== null && !labels.has(id))) {
    const { variants } = await listVariants({ actor, componentId: report.component.id, limit: Limits.listMax }, ctx.domain);
    for (const { variant } of variants) labels.set(variant.id, `v${variant.sequence}`);
  }
  return (variantId) => labels.get(variantId) ?? 'an older variant';
}

const usagePages = [
  /** A component's usage: its figures, charts with release markers and top errors over a window, optionally of one environment. */
  definePage({
    path: '/component/:id/usage',
    view: async ({ actor, visitor, params, query }, ctx) => {
      const window = usageWindow(query('window'));
      const environment = query('environment') || null;
      const report = await getComponentUsage({ actor, componentId: params.id, window, environment: environment ?? undefined }, usageDeps(ctx));
      const [environments, label] = await Promise.all([
        listEnvironments({ actor, organizationId: report.component.organizationId }, ctx.domain),
        variantLabelOf(report, actor, ctx),
      ]);
      const names = environments.map((e) => e.name);
      if (environment !== null && !names.includes(environment)) {
        throw invalidInput('environment', `"${environment.slice(0, 40)}" is not an environment of this organization: choose one from the links on the usage page.`);
      }
      return componentUsagePage({
        report,
        chrome: visitor.chrome(report.component.organizationId),
        label,
        environments: names,
        environment,
        links: {
          component: `/component/${report.component.id}`,
          window: (w) => componentUsageHref(report.component.id, w, environment),
          environment: (e) => componentUsageHref(report.component.id, window, e),
        },
      });
    },
  }),
  /** The organization's usage: the busiest components and those whose error rate rose with their last release. */
  definePage({
    path: '/orgs/:orgId/usage',
    view: async ({ actor, visitor, organization, notice, query }, ctx) => {
      const window = usageWindow(query('window'));
      const report = await getOrganizationUsage({ actor, organizationId: organization.id, window }, usageDeps(ctx));
      return organizationUsagePage({
        organization,
        chrome: visitor.chrome(organization.id),
        notice,
        report,
        windowHref: (w) => `/orgs/${organization.id}/usage?window=${w}`,
        componentHref: (componentId) => componentUsageHref(componentId, window),
      });
    },
  }),
];

export const usageRoutes = (ctx: RouteContext): Router => mountPages(Router(), ctx, usagePages);
