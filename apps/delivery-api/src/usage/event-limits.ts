import { createRateLimiter, type RateDecision, type Redis } from '@cp/http-runtime/rate-limit';
import type { UsagePolicy } from '../config.js';

/** A refusal: which budget, and when it is back. */
export interface LimitRefusal {
  readonly budget: 'network' | 'component' | 'lookups';
  readonly retryAfterSeconds: number;
}

/**
 * The ingest's budgets, counted in events (a batch of N events pays N points, atomically, so
 * N parallel requests together never pass more than the budget): per client network (an IPv6
 * /64 counts as one), and per component. In Redis when the service has REDIS_URL, shared by
 * every instance; if Redis fails, each instance counts in its memory meanwhile. A third budget
 * counts, per client network, the ids the instance has to read from the database (not cached
 * yet), so that a flood of made-up ids costs the database a bounded number of reads.
 */
export function createEventLimits(
  policy: Pick<UsagePolicy, 'eventsPerNetwork' | 'eventsPerComponent' | 'lookupsPerNetwork' | 'limitWindowSeconds'>,
  redis: Redis | null,
) {
  const make = (name: string, points: number) =>
    createRateLimiter({ keyPrefix: `delivery-usage:${name}`, points, windowSeconds: policy.limitWindowSeconds, redis, onStoreFailure: 'memory' });
  const network = make('network', policy.eventsPerNetwork);
  const component = make('component', policy.eventsPerComponent);
  const lookups = make('lookups', policy.lookupsPerNetwork);
  const refusal = (budget: LimitRefusal['budget'], decision: RateDecision): LimitRefusal => ({ budget, retryAfterSeconds: decision.resetSeconds });

  return {
    /** Pays for a batch: the network first (the whole batch), then each component its events; the first refusal answers. */
    async pay(clientNetwork: string, perComponent: ReadonlyMap<string, number>): Promise<LimitRefusal | null> {
      let events = 0;
      for (const count of perComponent.values()) events += count;
      const byNetwork = await network.consume(clientNetwork, events);
      if (!byNetwork.allowed) return refusal('network', byNetwork);
      const decisions = await Promise.all([...perComponent].map(([id, count]) => component.consume(id, count)));
      const refused = decisions.find((decision) => !decision.allowed);
      return refused === undefined ? null : refusal('component', refused);
    },
    /** Pays for the ids a batch makes the instance read. */
    async payLookups(clientNetwork: string, reads: number): Promise<LimitRefusal | null> {
      if (reads === 0) return null;
      const decision = await lookups.consume(clientNetwork, reads);
      return decision.allowed ? null : refusal('lookups', decision);
    },
  };
}

export type EventLimits = ReturnType<typeof createEventLimits>;
