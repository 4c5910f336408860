import { createFlow, editFlowComponents, getFlowPage, listFlows, setFlowStatus } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../actions/define-action.js';
import { text } from '../actions/form-input.js';
import { mountActions } from '../actions/mount-actions.js';
import { flowPage } from '../pages/flow-page.js';
import { flowsPage } from '../pages/flows-page.js';
import { notice, page, sendPage, type RouteContext } from './context.js';

const flowActions = [
  defineAction({
    path: '/orgs/:orgId/flows',
    input: z.object({ name: text }),
    run: ({ actor, organization, input }, ctx) => createFlow({ actor, organizationId: organization.id, name: input.name }, ctx.domain),
    done: (flow) => ({ to: `/flows/${flow.id}`, notice: 'flow-saved' }),
  }),
  defineAction({
    path: '/flows/:flowId/components',
    input: z.object({ op: text, component: text }),
    run: ({ actor, params, input }, ctx) =>
      editFlowComponents({ actor, flowId: params.flowId, edit: input.op, componentId: input.component }, ctx.domain),
    done: (flow) => ({ to: `/flows/${flow.id}`, notice: 'flow-saved' }),
  }),
  defineAction({
    path: '/flows/:flowId/status',
    input: z.object({ status: text.transform((status) => (status === 'published' ? 'published' : 'draft')) }),
    run: ({ actor, params, input }, ctx) => setFlowStatus({ actor, flowId: params.flowId, status: input.status }, ctx.domain),
    done: (flow, { input }) => ({ to: `/flows/${flow.id}`, notice: input.status === 'published' ? 'flow-published' : 'flow-unpublished' }),
  }),
];

/** Flows (legacy `/flow`): create, order components, publish. */
export function flowRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/orgs/:orgId/flows', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const flows = await listFlows({ actor: visitor.actor, organizationId }, ctx.domain);
    const role = visitor.organizations.find((org) => org.id === organizationId)?.role;
    sendPage(res, 200, flowsPage({ organizationId, flows, role, chrome: visitor.chrome(organizationId) }));
  }));

  router.get('/flows/:flowId', page(ctx, async (req, res, visitor) => {
    const view = await getFlowPage({ actor: visitor.actor, flowId: String(req.params.flowId) }, ctx.domain);
    const role = visitor.organizations.find((org) => org.id === view.flow.organizationId)?.role;
    sendPage(res, 200, flowPage({ view, role, chrome: visitor.chrome(view.flow.organizationId), notice: notice(req), deliveryUrl: ctx.config.deliveryUrl }));
  }));

  return mountActions(router, ctx, flowActions);
}
