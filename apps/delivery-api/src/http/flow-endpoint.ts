import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, isUuid } from '@cp/domain';
import { FlowQuery } from '../api/schemas.js';
import { FLOW_DEPRECATED_AT } from '../config.js';
import type { ReadDeps } from '../delivery/consume-item.js';
import { loadFlowResponse } from '../delivery/published-flow.js';
import { problem, sendProblem } from './problem.js';
import { parseQuery } from './query.js';
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

/** GET /flow (deprecated): a published flow, optionally with each component's released loader. */
export function createFlowEndpoint(deps: ServeCachedDeps & { read: ReadDeps }) {
  const deprecation = deprecationHeaders(deps.config.publicUrl, deps.config.flowSunset);
  const environment = deps.config.flowEnvironment;
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const query = parseQuery(FlowQuery, rawQuery, '/flow');
    if (!query.ok) {
      sendProblem(res, query.problem, deprecation);
      return;
    }
    const flowId = query.value.id.toLowerCase();
    if (!isUuid(flowId)) {
      const shown = query.value.id.length > 64 ? `${query.value.id.slice(0, 64)}…` : query.value.id;
      sendProblem(res, problem(ErrorCode.NotFound, `Flow "${shown}" was not found.`, 'Flow'), deprecation);
      return;
    }
    const resolveComponents = query.value.resolve === 'components';
    serveCached(
      req,
      res,
      `flow:${flowId}:${resolveComponents ? 'resolved' : 'plain'}`,
      // The components are known only once the flow is read: any change during the load counts.
      null,
      async () => {
        const { body, componentIds } = await loadFlowResponse({ flowId, resolveComponents }, environment, deps.read);
        return { payload: body, freshness: 'released', dependsOn: [flowId, ...componentIds], extraHeaders: deprecation };
      },
      deps,
      deprecation,
    );
  };
}
