import type { Component } from '../../entities/component.js';
import type { UsageRollupType } from '../../entities/usage.js';
import type { UsageErrorGroup } from '../../ports/usage.js';

/** The windows people choose between; each has a fixed bucket width for its series. */
export const USAGE_WINDOWS = ['24h', '7d', '30d'] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];

/** Percentiles in ms, estimated from the merged histograms; null when nothing was measured. */
export interface Percentiles {
  readonly p50: number | null;
  readonly p75: number | null;
  readonly p99: number | null;
}

/** The figures of one slice (the whole component, an environment, or one variant in one environment). */
export interface UsageFigures {
  /** `/consume` responses the delivery API sent (hosts without the SDK count here too). */
  readonly served: number;
  readonly loads: number;
  readonly renders: number;
  readonly errors: number;
  readonly interactions: number;
  /** errors / (renders + errors), null without either. */
  readonly errorRate: number | null;
  readonly render: Percentiles;
  readonly load: Percentiles;
}

export interface UsageSlice extends UsageFigures {
  readonly environment: string;
  /** Null for a whole environment. */
  readonly variantId: string | null;
  /** "v3" style, from the variant's sequence; null for a whole environment. */
  readonly variantLabel: string | null;
}

export interface UsagePoint {
  readonly at: Date;
  readonly environment: string;
  readonly variantId: string;
  readonly type: UsageRollupType;
  readonly count: number;
  readonly errors: number;
  readonly render: Percentiles | null;
}

/** A publish or roll back inside the window, for a marker on the time axis. */
export interface ReleaseMarker {
  readonly at: Date;
  readonly environment: string;
  readonly variantId: string;
  readonly previousVariantId: string | null;
  readonly rollback: boolean;
}

/** What the dashboard's component page and the `get_component_usage` tool show. */
export interface ComponentUsageReport {
  readonly component: Component;
  readonly window: UsageWindow;
  readonly from: Date;
  readonly to: Date;
  readonly bucketSeconds: number;
  readonly total: UsageFigures;
  readonly byEnvironment: readonly UsageSlice[];
  readonly byVariant: readonly UsageSlice[];
  readonly series: readonly UsagePoint[];
  readonly releases: readonly ReleaseMarker[];
  readonly topErrors: readonly UsageErrorGroup[];
}

/** One component's traffic over the window, for the organization's "busiest" list. */
export interface ComponentUsageSummary {
  readonly componentId: string;
  readonly componentName: string;
  readonly served: number;
  readonly loads: number;
  readonly renders: number;
  readonly errors: number;
  /** errors / (renders + errors), null without either. */
  readonly errorRate: number | null;
}

/**
 * A component whose error rate in an environment rose with its last release: the variant
 * released there now against the one it replaced, both measured over the window
 * (rule in docs/rules.md, "Usage: error rate rise").
 */
export interface ErrorRateRise {
  readonly componentId: string;
  readonly componentName: string;
  readonly environment: string;
  readonly releasedAt: Date;
  readonly variantId: string;
  readonly variantLabel: string;
  readonly renders: number;
  readonly errors: number;
  readonly errorRate: number;
  readonly previousVariantId: string;
  readonly previousVariantLabel: string;
  readonly previousRenders: number;
  readonly previousErrors: number;
  readonly previousErrorRate: number;
}

/** What the dashboard's organization usage page shows. */
export interface OrganizationUsageReport {
  readonly organizationId: string;
  readonly window: UsageWindow;
  readonly from: Date;
  readonly to: Date;
  /** Most served + loads first; at most Limits.usageBusiest. */
  readonly busiest: readonly ComponentUsageSummary[];
  /** Largest rise first. */
  readonly errorRateRises: readonly ErrorRateRise[];
}
