import { ErrorCode, isUuid } from '@cp/domain';
import { ConsumeQuery } from '../api/query-schemas.js';
import { loadConsumeResponse, type ConsumeTarget, type ReadDeps } from '@cp/consume';
import { servedSlotOf, type ServedSlots } from '../usage/served-counter.js';
import { createCachedEndpoint, type CheckedQuery } from './cached-endpoint.js';
import { isPrivatePreviewRefusal, presentedPreviewKey, servePrivatePreview } from './private-preview.js';
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

/**
 * GET /consume: validated, then served from the response cache. The shared
 * load sends no key, so only what anyone may read is ever cached: public
 * previews (which depend on their organization's id, announced when its switch
 * changes) and released variants. A private preview fails that load and, for a
 * request presenting a key, is served apart (http/private-preview.ts).
 */
export function createConsumeEndpoint(deps: ServeCachedDeps & { read: ReadDeps; served: ServedSlots }) {
  return createCachedEndpoint(
    {
      validate: validateConsume,
      // A preview also depends on its organization's switch, known only once loaded: any change during the load counts.
      watches: (target) => (target.environment === null ? null : [target.componentId]),
      load: async (target) => {
        const loaded = await loadConsumeResponse(target, deps.read);
        const preview = target.environment === null;
        return {
          payload: loaded.response,
          freshness: preview ? 'preview' : 'released',
          dependsOn: preview ? [target.componentId, loaded.organizationId] : [target.componentId],
          served: servedSlotOf(deps.served, target, loaded),
        };
      },
      divert: (error, target, req, res) => {
        const key = isPrivatePreviewRefusal(error) ? presentedPreviewKey(req) : null;
        if (key === null) return false;
        servePrivatePreview(req, res, target, key, deps);
        return true;
      },
    },
    deps,
  );
}
