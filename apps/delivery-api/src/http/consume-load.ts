import { loadConsumeResponse, type ConsumeTarget, type ReadDeps } from '@cp/consume';
import type { ResponseSpec } from '../cache/cached-response.js';
import { servedSlotOf, type ServedSlots } from '../usage/served-counter.js';
import type { ServeCachedDeps } from './serve-cached.js';

export type ConsumeDeps = ServeCachedDeps & { read: ReadDeps; served: ServedSlots };

/** The /consume response of a target: the fallback, or with `arm` that arm's (which the loader checks against the live mapping). */
export async function loadConsume(target: ConsumeTarget, deps: ConsumeDeps, arm?: string): Promise<ResponseSpec> {
  const loaded = await loadConsumeResponse(target, deps.read, null, arm);
  const preview = target.environment === null;
  return {
    payload: loaded.response,
    freshness: preview ? 'preview' : 'released',
    dependsOn: preview ? [target.componentId, loaded.organizationId] : [target.componentId],
    served: servedSlotOf(deps.served, target, loaded),
    experience: loaded.assignment === null ? null : { assignment: loaded.assignment, arm: loaded.arm },
  };
}
