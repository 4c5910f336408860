import type { Component } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import type { ComponentUsageTotals } from '../../ports/usage.js';
import { errorRateRise } from '../../rules/error-rate-rise.js';
import { Limits } from '../../rules/limits.js';
import { requireMembership } from '../access/require-membership.js';
import { errorRate, usageFigures } from './usage-figures.js';
import type { UsageDeps } from './get-component-usage.js';
import type { ComponentUsageSummary, ErrorRateRise, OrganizationUsageReport } from './usage-report.js';
import { groupBy } from './group-by.js';
import { usageRange } from './usage-window.js';
import { variantLabels } from './variant-labels.js';

const key = (...parts: string[]): string => parts.join('\u0000');

/**
 * An organization's usage over the window, for its members: the busiest components (served +
 * loads) and those whose error rate rose with their last release in an environment
 * (rules/error-rate-rise.ts). Everyone else gets NOT_FOUND, as for an unknown organization.
 */
export async function getOrganizationUsage(
  input: { actor: Actor; organizationId: string; window: unknown },
  deps: UsageDeps,
): Promise<OrganizationUsageReport> {
  const range = usageRange(input.window, deps.clock.now());
  await requireMembership(input.actor, input.organizationId, deps);
  const totals = await deps.usage.organizationTotals({ organizationId: input.organizationId, from: range.from, to: range.to });

  const byComponent = groupBy(totals, (row) => row.componentId);
  const traffic = [...byComponent.entries()]
    .map(([componentId, rows]) => ({ componentId, rows, figures: usageFigures(rows) }))
    .sort((a, b) => b.figures.served + b.figures.loads - (a.figures.served + a.figures.loads) || a.componentId.localeCompare(b.componentId));
  const busiest = traffic.slice(0, Limits.usageBusiestComponents);

  // Only a component that had two variants measured in one environment can show a rise.
  const candidates = traffic
    .filter(({ rows }) => [...groupBy(rows, (r) => r.environment).values()].some((env) => new Set(env.map((r) => r.variantId)).size > 1))
    .slice(0, Limits.usageRiseCandidates);
  const rises = (await Promise.all(candidates.map(({ componentId, rows }) => releaseRises(componentId, rows, deps)))).flat();

  const components = await namesOf([...busiest.map((c) => c.componentId), ...rises.map((r) => r.componentId)], deps);
  const name = (id: string): string => components.get(id)?.name ?? '';
  return {
    organizationId: input.organizationId,
    ...range,
    busiest: busiest.map(({ componentId, figures }): ComponentUsageSummary => ({
      componentId,
      componentName: name(componentId),
      served: figures.served,
      loads: figures.loads,
      renders: figures.renders,
      errors: figures.errors,
      errorRate: figures.errorRate,
    })),
    errorRateRises: rises
      .map((rise) => ({ ...rise, componentName: name(rise.componentId) }))
      .sort((a, b) => b.errorRate - b.previousErrorRate - (a.errorRate - a.previousErrorRate)),
  };
}

/** Per environment: the variant released last against the one it replaced, when the rule calls it a rise. */
async function releaseRises(componentId: string, rows: readonly ComponentUsageTotals[], deps: UsageDeps): Promise<ErrorRateRise[]> {
  const history = await deps.repos.releases.history(componentId, { limit: Limits.listMax });
  const lastRelease = new Map<string, (typeof history)[number]>();
  for (const event of history) if (!lastRelease.has(event.environmentName)) lastRelease.set(event.environmentName, event);

  const counts = new Map<string, { renders: number; errors: number }>();
  for (const row of rows) {
    if (row.type !== 'render' && row.type !== 'error') continue;
    const k = key(row.environment, row.variantId);
    const c = counts.get(k) ?? { renders: 0, errors: 0 };
    if (row.type === 'render') c.renders += row.count;
    else c.errors += row.count;
    counts.set(k, c);
  }
  const found: Omit<ErrorRateRise, 'variantLabel' | 'previousVariantLabel'>[] = [];
  for (const [environment, event] of lastRelease) {
    if (event.previousVariantId === null) continue;
    const current = counts.get(key(environment, event.variantId));
    const previous = counts.get(key(environment, event.previousVariantId));
    if (!current || !previous || errorRateRise(current, previous) === null) continue;
    found.push({
      componentId,
      componentName: '',
      environment,
      releasedAt: event.releasedAt,
      variantId: event.variantId,
      renders: current.renders,
      errors: current.errors,
      errorRate: errorRate(current.renders, current.errors)!,
      previousVariantId: event.previousVariantId,
      previousRenders: previous.renders,
      previousErrors: previous.errors,
      previousErrorRate: errorRate(previous.renders, previous.errors)!,
    });
  }
  if (found.length === 0) return [];
  const labels = await variantLabels(componentId, found.flatMap((r) => [r.variantId, r.previousVariantId]), deps);
  return found.map((r) => ({ ...r, variantLabel: labels.label(r.variantId), previousVariantLabel: labels.label(r.previousVariantId) }));
}

async function namesOf(ids: readonly string[], deps: UsageDeps): Promise<Map<string, Component>> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => deps.repos.components.findById(id)));
  return new Map(found.flatMap((component) => (component ? [[component.id, component] as const] : [])));
}
