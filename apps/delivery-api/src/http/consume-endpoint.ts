import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, isUuid } from '@cp/domain';
import { ConsumeQuery } from '../api/schemas.js';
import { loadConsumeResponse, type ConsumeTarget, type ReadDeps } from '../delivery/consume-item.js';
import { problem, sendProblem } from './problem.js';
import { parseQuery } from './query.js';
import { serveCached, type ServeCachedDeps } from './serve-cached.js';

/** Which variant a /consume query asks for (README "Choosing the variant"). */
export function consumeTarget(query: { id: string; env?: string | undefined; preview?: 'true' | 'false' | undefined }): ConsumeTarget {
  const preview = query.preview === 'true' || query.env === undefined;
  return { componentId: query.id.toLowerCase(), environment: preview ? null : (query.env ?? null) };
}

const shownId = (id: string): string => (id.length > 64 ? `${id.slice(0, 64)}…` : id);

/** GET /consume: validated, then served from the response cache. */
export function createConsumeEndpoint(deps: ServeCachedDeps & { read: ReadDeps }) {
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const query = parseQuery(ConsumeQuery, rawQuery, '/consume');
    if (!query.ok) {
      sendProblem(res, query.problem);
      return;
    }
    const target = consumeTarget(query.value);
    // A malformed id cannot name a component: answer without a database round trip.
    if (!isUuid(target.componentId)) {
      sendProblem(res, problem(ErrorCode.NotFound, `Component "${shownId(query.value.id)}" was not found.`, 'Component'));
      return;
    }
    const key = `consume:${target.componentId}:${target.environment ?? ''}`;
    serveCached(
      req,
      res,
      key,
      [target.componentId],
      async () => ({
        payload: await loadConsumeResponse(target, deps.read),
        freshness: target.environment === null ? 'preview' : 'released',
        dependsOn: [target.componentId],
      }),
      deps,
    );
  };
}
