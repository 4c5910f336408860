import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { UsageBucket, UsageReader } from '../../ports/usage.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { releasesBetween } from './releases-between.js';
import { percentiles, usageFigures } from './usage-figures.js';
import type { ComponentUsageReport, ReleaseMarker, UsagePoint, UsageSlice } from './usage-report.js';
import { groupBy } from './group-by.js';
import { usageRange } from './usage-window.js';
import { variantLabels } from './variant-labels.js';

export interface UsageDeps extends Pick<DomainDeps, 'repos' | 'clock'> {
  readonly usage: UsageReader;
}

/** Most counted error groups a report lists. */
export const TOP_ERRORS = 10;

/**
 * One component's usage over the window (24h, 7d or 30d, ending now), for members of its
 * organization; everyone else gets the same NOT_FOUND as for an unknown id. With
 * `environment` (an environment name), only that environment's figures; one without traffic
 * is empty, and previews show only without it.
 */
export async function getComponentUsage(
  input: { actor: Actor; componentId: string; window: unknown; environment?: string | undefined },
  deps: UsageDeps,
): Promise<ComponentUsageReport> {
  const range = usageRange(input.window, deps.clock.now());
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const environment = input.environment === undefined ? undefined : normalizeEnvironmentName(input.environment);
  const inEnvironment = <T extends { environment: string }>(rows: readonly T[]): T[] =>
    environment === undefined ? [...rows] : rows.filter((row) => row.environment === environment);

  const [buckets, errors, events] = await Promise.all([
    deps.usage.series({ componentId: component.id, from: range.from, to: range.to, bucketSeconds: range.bucketSeconds }),
    deps.usage.topErrors({ componentId: component.id, from: range.from, to: range.to, limit: TOP_ERRORS }),
    releasesBetween(component.id, range, deps),
  ]);
  const series = inEnvironment(buckets);
  const releases = inEnvironment(events.map((event) => ({ ...event, environment: event.environmentName })));
  const labels = await variantLabels(
    component.id,
    [...series.map((b) => b.variantId), ...releases.flatMap((r) => (r.previousVariantId ? [r.variantId, r.previousVariantId] : [r.variantId]))],
    deps,
  );

  const byEnvironment = groupBy(series, (b) => b.environment);
  const byVariant = groupBy(series, (b) => `${b.environment}\u0000${b.variantId}`);
  return {
    component,
    ...range,
    total: usageFigures(series),
    byEnvironment: [...byEnvironment.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([environment, rows]): UsageSlice => ({ environment, variantId: null, variantLabel: null, ...usageFigures(rows) })),
    byVariant: [...byVariant.values()]
      .map((rows): UsageSlice => {
        const { environment, variantId } = rows[0]!;
        return { environment, variantId, variantLabel: labels.label(variantId), ...usageFigures(rows) };
      })
      .sort((a, b) => a.environment.localeCompare(b.environment) || (labels.sequence(b.variantId!) ?? 0) - (labels.sequence(a.variantId!) ?? 0)),
    series: series.map(point),
    releases: releases
      .map((event): ReleaseMarker => {
        const next = labels.sequence(event.variantId);
        const before = event.previousVariantId === null ? undefined : labels.sequence(event.previousVariantId);
        return {
          at: event.releasedAt,
          environment: event.environmentName,
          variantId: event.variantId,
          previousVariantId: event.previousVariantId,
          rollback: next !== undefined && before !== undefined && next < before,
        };
      })
      .reverse(),
    topErrors: inEnvironment(errors),
  };
}

function point(bucket: UsageBucket): UsagePoint {
  return {
    at: bucket.at,
    environment: bucket.environment,
    variantId: bucket.variantId,
    type: bucket.type,
    count: bucket.count,
    errors: bucket.errors,
    render: bucket.type === 'render' ? percentiles(bucket.histogram) : null,
  };
}
