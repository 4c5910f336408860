import { ErrorCode, isUuid } from '@cp/domain';
import { FlowQuery } from '../api/query-schemas.js';
import { FLOW_DEPRECATED_AT } from '../config.js';
import type { ReadDeps } from '@cp/consume';
import { loadFlowResponse, type FlowTarget } from '../delivery/published-flow.js';
import { createCachedEndpoint, type CheckedQuery } from './cached-endpoint.js';
import { problem } from './problem.js';
import { parseQuery, shownId } from './query.js';
import type { ServeCachedDeps } from './serve-cached.js';

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

function validateFlow(rawQuery: string): CheckedQuery<FlowTarget> {
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
  return createCachedEndpoint(
    {
      validate: validateFlow,
      // The components are known only once the flow is read.
      watches: () => null,
      load: async (target) => {
        const { body, componentIds } = await loadFlowResponse(target, environment, deps.read);
        return { payload: body, freshness: 'released', dependsOn: [target.flowId, ...componentIds], extraHeaders: deprecation };
      },
      errorHeaders: deprecation,
    },
    deps,
  );
}
