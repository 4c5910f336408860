import { ErrorCode, isUuid } from '@cp/domain';
import { ConsumeQuery } from '../api/query-schemas.js';
import { loadConsumeResponse, type ConsumeTarget, type ReadDeps } from '../delivery/consume-item.js';
import { createCachedEndpoint, type CheckedQuery } from './cached-endpoint.js';
import { problem } from './problem.js';
import { parseQuery, shownId } from './query.js';
import type { ServeCachedDeps } from './serve-cached.js';

/** Which variant a /consume query asks for (README "Choosing the variant"). */
export function consumeTarget(query: { id: string; env?: string | undefined; preview?: 'true' | 'false' | undefined }): ConsumeTarget {
  const preview = query.preview === 'true' || query.env === undefined;
  return { componentId: query.id.toLowerCase(), environment: preview ? null : (query.env ?? null) };
}

function validateConsume(rawQuery: string): CheckedQuery<ConsumeTarget> {
  const query = parseQuery(ConsumeQuery, rawQuery, '/consume');
  if (!query.ok) return { problem: query.problem };
  const target = consumeTarget(query.value);
  // A malformed id cannot name a component: answer without a database round trip.
  if (!isUuid(target.componentId)) {
    return { problem: problem(ErrorCode.NotFound, `Component "${shownId(query.value.id)}" was not found.`, 'Component') };
  }
  return { problem: null, target, key: `consume:${target.componentId}:${target.environment ?? ''}` };
}

/** GET /consume: validated, then served from the response cache. */
export function createConsumeEndpoint(deps: ServeCachedDeps & { read: ReadDeps }) {
  return createCachedEndpoint(
    {
      validate: validateConsume,
      watches: (target) => [target.componentId],
      load: async (target) => ({
        payload: await loadConsumeResponse(target, deps.read),
        freshness: target.environment === null ? 'preview' : 'released',
        dependsOn: [target.componentId],
      }),
    },
    deps,
  );
}
