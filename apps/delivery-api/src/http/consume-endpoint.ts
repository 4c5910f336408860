import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, isUuid } from '@cp/domain';
import { ConsumeQuery } from '../api/query-schemas.js';
import type { ConsumeTarget } from '@cp/consume';
import type { CachedResponse } from '../cache/cached-response.js';
import { serveAssigned } from './consume-arms.js';
import { loadConsume, type ConsumeDeps } from './consume-load.js';
import { ATTRIBUTE_PREFIX, isKeyedParameter, keyedFromQuery, type KeyedRequest } from './keyed-request.js';
import { isPrivatePreviewRefusal, presentedPreviewKey, servePrivatePreview } from './private-preview.js';
import { problem, sendProblem, type Problem } from './problem.js';
import { parseQuery, QueryMemo, shownId } from './query.js';
import { sendCached, serveCached } from './serve-cached.js';

/** Which variant a /consume query asks for (README "Choosing the variant"). */
export function consumeTarget(query: { id: string; env?: string | undefined; preview?: 'true' | 'false' | undefined }): ConsumeTarget {
  const preview = query.preview === 'true' || query.env === undefined;
  return { componentId: query.id.toLowerCase(), environment: preview ? null : (query.env ?? null) };
}

/** A checked /consume query: its problem, or the fallback's cache key and what else the request names. */
export type ConsumeRequest =
  | { readonly problem: Problem; readonly keyed: boolean }
  | {
      readonly problem: null;
      readonly target: ConsumeTarget;
      /** The fallback's cache key; arms are kept beside it. */
      readonly key: string;
      /** `?arm=`: one arm for everyone (the SDK, QA). */
      readonly arm: string | null;
      /** `?key=&attr.<name>=`: the user's arm. */
      readonly keyed: KeyedRequest | null;
    };

const CONSUME_PARAMETERS = [...Object.keys(ConsumeQuery.shape), 'key', `${ATTRIBUTE_PREFIX}<name>`];

function validateConsume(rawQuery: string): ConsumeRequest {
  // The user's key and attributes are set apart: the rest is checked as always.
  let shared = rawQuery;
  const params = new URLSearchParams(rawQuery);
  const keyedPairs = [...params].filter(([name]) => isKeyedParameter(name));
  if (keyedPairs.length > 0) {
    for (const [name] of keyedPairs) params.delete(name);
    shared = params.toString();
  }
  const keyed = keyedPairs.length > 0;
  const query = parseQuery(ConsumeQuery, shared, '/consume', CONSUME_PARAMETERS);
  if (!query.ok) return { problem: query.problem, keyed };
  const target = consumeTarget(query.value);
  // A malformed id cannot name a component: answer without a database round trip.
  if (!isUuid(target.componentId)) {
    return { problem: problem(ErrorCode.NotFound, `Component "${shownId(query.value.id)}" was not found.`, 'Component'), keyed };
  }
  const arm = query.value.arm ?? null;
  if (keyed && arm !== null) {
    return {
      problem: problem(ErrorCode.InvalidInput, 'Give either arm (one arm, for everyone) or key and attr.<name> (the user\'s arm), not both.'),
      keyed,
    };
  }
  const checked = keyed ? keyedFromQuery(keyedPairs) : null;
  if (checked?.problem) return { problem: checked.problem, keyed };
  return {
    problem: null,
    target,
    key: `consume:${target.componentId}:${target.environment ?? ''}`,
    arm,
    keyed: checked?.keyed ?? null,
  };
}

/**
 * GET /consume: validated (once per distinct shared query string), then served from the
 * response cache. The shared load sends no key, so only what anyone may read is ever cached:
 * public previews (which depend on their organization's id, announced when its switch
 * changes) and released variants. A private preview fails that load and, for a request
 * presenting a key, is served apart (http/private-preview.ts). The fallback entry of a
 * component environment with a live experience or rollout carries its assignment: arm and
 * keyed requests go on from it (http/consume-arms.ts); without one, they get the fallback.
 */
export function createConsumeEndpoint(deps: ConsumeDeps) {
  // A query naming one user is checked each time: kept, it would push the shared ones out.
  const requests = new QueryMemo(validateConsume, undefined, undefined, (outcome) => !outcome.keyed);
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const request = requests.get(rawQuery);
    if (request.problem) {
      sendProblem(res, request.problem);
      return;
    }
    // The hot path: a fresh fallback without an assignment is sent as it is, allocating nothing.
    const entry = deps.cache.get(request.key);
    if (entry !== undefined && Date.now() < entry.freshUntil) {
      deps.lookups?.inc('hit');
      if (entry.assignment === null) sendCached(req, res, entry);
      else serveAssigned(req, res, request, entry, entry.assignment, deps);
      return;
    }
    const { target } = request;
    serveCached(
      req,
      res,
      request.key,
      // A preview also depends on its organization's switch, known only once loaded: any change during the load counts.
      target.environment === null ? null : [target.componentId],
      () => loadConsume(target, deps),
      deps,
      [],
      (error) => {
        const key = isPrivatePreviewRefusal(error) ? presentedPreviewKey(req) : null;
        if (key === null) return false;
        servePrivatePreview(req, res, target, key, deps);
        return true;
      },
      (fallback: CachedResponse) => {
        if (fallback.assignment === null) sendCached(req, res, fallback);
        else serveAssigned(req, res, request, fallback, fallback.assignment, deps);
      },
    );
  };
}
