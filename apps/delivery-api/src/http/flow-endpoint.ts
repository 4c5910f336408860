import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, isUuid } from '@cp/domain';
import { FlowQuery } from '../api/query-schemas.js';
import { FLOW_DEPRECATED_AT } from '../config.js';
import type { ReadDeps } from '../delivery/consume-item.js';
import { loadFlowResponse, type FlowTarget } from '../delivery/published-flow.js';
import { problem, sendProblem, type Problem } from './problem.js';
import { parseQuery, QueryMemo, shownId } from './query.js';
import { serveCached, type ServeCachedDeps } from './serve-cached.js';

/**
 * Headers on every /flow response, errors included: `Deprecation` (RFC 9745, a
 * structured-field date), `Sunset` (RFC 8594, an HTTP date) and the successor.
 */
export function deprecationHeaders(publicUrl: string, sunset: Date): string[] {
  return [
    'Deprecation', `@${Math.floor(FLOW_DEPRECATED_AT.getTime() / 1000)}`,
    'Sunset', sunset.toUTCString(),
    'Link', `<${publicUrl}/consume>; rel="successor-version"`,
  ];
}

type FlowRequest = { readonly problem: Problem } | { readonly problem: null; readonly target: FlowTarget; readonly key: string };

function validateFlow(rawQuery: string): FlowRequest {
  const query = parseQuery(FlowQuery, rawQuery, '/flow');
  if (!query.ok) return { problem: query.problem };
  const flowId = query.value.id.toLowerCase();
  if (!isUuid(flowId)) return { problem: problem(ErrorCode.NotFound, `Flow "${shownId(query.value.id)}" was not found.`, 'Flow') };
  const resolveComponents = query.value.resolve === 'components';
  return { problem: null, target: { flowId, resolveComponents }, key: `flow:${flowId}:${resolveComponents ? 'resolved' : 'plain'}` };
}

/** GET /flow (deprecated): a published flow, optionally with each component's released loader. */
export function createFlowEndpoint(deps: ServeCachedDeps & { read: ReadDeps }) {
  const deprecation = deprecationHeaders(deps.config.publicUrl, deps.config.flowSunset);
  const environment = deps.config.flowEnvironment;
  const requests = new QueryMemo(validateFlow);
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const request = requests.get(rawQuery);
    if (request.problem) {
      sendProblem(res, request.problem, deprecation);
      return;
    }
    const { target } = request;
    serveCached(
      req,
      res,
      request.key,
      // The components are known only once the flow is read: any change during the load counts.
      null,
      async () => {
        const { body, componentIds } = await loadFlowResponse(target, environment, deps.read);
        return { payload: body, freshness: 'released', dependsOn: [target.flowId, ...componentIds], extraHeaders: deprecation };
      },
      deps,
      deprecation,
    );
  };
}
