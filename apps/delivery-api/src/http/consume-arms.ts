import type { IncomingMessage, ServerResponse } from 'node:http';
import { armVariantOf } from '@cp/consume';
import { assign, RELEASE_ARM, type LiveAssignment } from '@cp/domain';
import type { CachedResponse } from '../cache/cached-response.js';
import type { ConsumeRequest } from './consume-endpoint.js';
import { loadConsume, type ConsumeDeps } from './consume-load.js';
import { keyedFromHeaders } from './keyed-request.js';
import { sendProblem } from './problem.js';
import { sendCached, serveCached } from './serve-cached.js';

type CheckedRequest = Extract<ConsumeRequest, { problem: null }>;

/**
 * /consume of a component environment with a live assignment (docs/experiences.md "Delivery"),
 * from its fallback entry, which holds the assignment: no database read per request.
 * - `?arm=`: that arm, public and cached per arm; an arm the mapping does not have (or
 *   `release`) gets the fallback. `rev` is not part of the cache key: every answer carries
 *   the current mapping.
 * - a key and attributes (query, else the `Cp-Key` / `Cp-Attributes` headers): the user's
 *   arm by the domain's `assign`, the same bodies sent `private`.
 * - neither: the fallback.
 */
export function serveAssigned(
  req: IncomingMessage,
  res: ServerResponse,
  request: CheckedRequest,
  fallback: CachedResponse,
  assignment: LiveAssignment,
  deps: ConsumeDeps,
): void {
  let arm = request.arm;
  let keyed = request.keyed;
  if (arm === null && keyed === null) {
    const fromHeaders = keyedFromHeaders(req);
    if (fromHeaders === null) {
      sendCached(req, res, fallback);
      return;
    }
    if (fromHeaders.problem) {
      sendProblem(res, fromHeaders.problem);
      return;
    }
    keyed = fromHeaders.keyed;
  }
  if (keyed !== null) arm = assign(assignment.segments, keyed.key, keyed.attributes)?.arm ?? RELEASE_ARM;
  const send = keyed === null ? (entry: CachedResponse) => sendCached(req, res, entry) : (entry: CachedResponse) => sendCached(req, res, entry.keyed ?? entry);
  if (arm === null || armVariantOf(assignment, arm) === null) {
    send(fallback);
    return;
  }
  const key = `${request.key}:arm:${arm}`;
  const entry = deps.cache.get(key);
  if (entry !== undefined && Date.now() < entry.freshUntil) {
    deps.lookups?.inc('hit');
    send(entry);
    return;
  }
  const servedArm = arm;
  serveCached(req, res, key, [request.target.componentId], () => loadConsume(request.target, deps, servedArm), deps, [], undefined, send);
}
