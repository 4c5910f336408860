import { NO_VARIANT, PREVIEW_ENVIRONMENT, type Repositories, type UsageEvent, type UsageWriter } from '@cp/domain';
import type { Logger, Metrics } from '@cp/http-runtime';
import type { Redis } from '@cp/http-runtime/rate-limit';
import type { UsageEventWire } from '../api/event-schema.js';
import type { UsagePolicy } from '../config.js';
import { EventBuffer } from './event-buffer.js';
import { createEventLimits, type LimitRefusal } from './event-limits.js';
import { ServedCounter } from './served-counter.js';
import { createUsageLookups } from './usage-lookups.js';
import { createUsageMetrics, failureOf, type EventResult, type UsageMetrics } from './usage-metrics.js';

export interface UsageIngestDeps {
  readonly writer: UsageWriter;
  readonly repos: Pick<Repositories, 'components' | 'environments' | 'variants'>;
  readonly policy: UsagePolicy;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Shared rate-limit counters; null: this process's memory. */
  readonly redis: Redis | null;
}

/** Who sent a batch, as far as the ingest may know it: the client network (for its budget) and the browser family. Neither is stored beyond that. */
export interface BatchOrigin {
  readonly network: string;
  readonly browser: string;
}

export type IngestOutcome = { readonly outcome: 'stored'; readonly accepted: number } | { readonly outcome: 'refused'; readonly refusal: LimitRefusal } | { readonly outcome: 'unavailable' };

export interface UsageIngest {
  readonly metrics: UsageMetrics;
  /** Counts `/consume` responses (http/consume-endpoint.ts builds a slot into each cached response). */
  readonly served: ServedCounter;
  /** Pays the batch's budgets, keeps its events that name a known component, environment and variant, stamped now. */
  ingest(events: readonly UsageEventWire[], origin: BatchOrigin): Promise<IngestOutcome>;
  /** Writes buffered events and served counts now. */
  flush(): Promise<void>;
  /** Stops the timers and writes what is left (at shutdown, after the drain). */
  close(): Promise<void>;
}

export function createUsageIngest(deps: UsageIngestDeps): UsageIngest {
  const { policy, log } = deps;
  let buffer: EventBuffer | null = null;
  const metrics = createUsageMetrics(deps.metrics, () => buffer?.size ?? 0);
  buffer = new EventBuffer(deps.writer, policy, metrics, log);
  const events = buffer;
  const served = new ServedCounter(deps.writer, policy, metrics, log);
  const limits = createEventLimits(policy, deps.redis);
  const lookups = createUsageLookups(deps.repos);
  const count = (result: EventResult, n: number) => {
    if (n > 0) metrics.events.inc({ result }, n);
  };

  async function ingest(batch: readonly UsageEventWire[], origin: BatchOrigin): Promise<IngestOutcome> {
    const perComponent = new Map<string, number>();
    for (const event of batch) {
      const id = event.component.toLowerCase();
      perComponent.set(id, (perComponent.get(id) ?? 0) + 1);
    }
    const refusal = await limits.pay(origin.network, perComponent);
    if (refusal !== null) {
      count('rate_limited', batch.length);
      return { outcome: 'refused', refusal };
    }

    // Distinct ids only, each answered from the cache when it can be.
    const componentIds = [...perComponent.keys()];
    const variantIds = [...new Set(batch.flatMap((event) => (event.variant === null ? [] : [event.variant.toLowerCase()])))];
    const reads = await limits.payLookups(origin.network, lookups.uncached({ components: componentIds, variants: variantIds }));
    if (reads !== null) {
      count('rate_limited', batch.length);
      return { outcome: 'refused', refusal: reads };
    }
    let organizations: Map<string, string | null>;
    let variantOwners: Map<string, string | null>;
    let environments: Map<string, ReadonlySet<string>>;
    try {
      const [orgs, owners] = await Promise.all([
        Promise.all(componentIds.map((id) => lookups.organizationOf(id))),
        Promise.all(variantIds.map((id) => lookups.componentOfVariant(id))),
      ]);
      organizations = new Map(componentIds.map((id, i) => [id, orgs[i]!]));
      variantOwners = new Map(variantIds.map((id, i) => [id, owners[i]!]));
      const orgIds = [...new Set(orgs.filter((org): org is string => org !== null))];
      const names = await Promise.all(orgIds.map((id) => lookups.environmentsOf(id)));
      environments = new Map(orgIds.map((id, i) => [id, names[i]!]));
    } catch (error) {
      log.warn({ failure: failureOf(error) }, 'usage events not checked: the database did not answer');
      count('unavailable', batch.length);
      return { outcome: 'unavailable' };
    }

    const at = new Date();
    const accepted: UsageEvent[] = [];
    let unknownComponent = 0;
    let unknownEnvironment = 0;
    let unknownVariant = 0;
    for (const event of batch) {
      const componentId = event.component.toLowerCase();
      const organizationId = organizations.get(componentId) ?? null;
      if (organizationId === null) {
        unknownComponent += 1;
        continue;
      }
      if (event.env !== null && environments.get(organizationId)?.has(event.env) !== true) {
        unknownEnvironment += 1;
        continue;
      }
      const variantId = event.variant === null ? NO_VARIANT : event.variant.toLowerCase();
      if (variantId !== NO_VARIANT && variantOwners.get(variantId) !== componentId) {
        unknownVariant += 1;
        continue;
      }
      accepted.push({
        at,
        componentId,
        environment: event.env ?? PREVIEW_ENVIRONMENT,
        variantId,
        type: event.type,
        name: event.name,
        value: event.ms ?? null,
        cacheHit: event.cache ?? null,
        isolation: event.isolation,
        sdkVersion: event.sdk,
        hostName: event.host.toLowerCase(),
        sessionId: event.session,
        sequence: event.seq,
        sampleRate: event.rate,
        browser: origin.browser,
        error: event.error ? { errorClass: event.error.class, message: event.error.message, stackHash: event.error.stack } : null,
      });
    }
    count('unknown_component', unknownComponent);
    count('unknown_environment', unknownEnvironment);
    count('unknown_variant', unknownVariant);
    count('accepted', accepted.length);
    events.add(accepted);
    return { outcome: 'stored', accepted: accepted.length };
  }

  return {
    metrics,
    served,
    ingest,
    async flush() {
      await Promise.all([events.flush(), served.flush()]);
    },
    async close() {
      await Promise.all([events.close(), served.close()]);
    },
  };
}
