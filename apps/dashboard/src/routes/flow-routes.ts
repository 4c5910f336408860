import { createFlow, editFlowComponents, getFlowPage, listFlows, setFlowStatus } from '@cp/domain';
import { Router } from 'express';
import { flowPage } from '../pages/flow-page.js';
import { flowsPage } from '../pages/flows-page.js';
import { field } from '@cp/web-forms';
import { formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** Flows (legacy `/flow`): create, order components, publish. */
export function flowRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/orgs/:orgId/flows', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const flows = await listFlows({ actor: visitor.actor, organizationId }, ctx.domain);
    const role = visitor.organizations.find((org) => org.id === organizationId)?.role;
    sendPage(res, 200, flowsPage({ organizationId, flows, role, chrome: visitor.chrome(organizationId) }));
  }));

  router.post('/orgs/:orgId/flows', formBody, page(ctx, async (req, res, visitor) => {
    const flow = await createFlow({ actor: visitor.actor, organizationId: String(req.params.orgId), name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=flow-saved`);
  }));

  router.get('/flows/:flowId', page(ctx, async (req, res, visitor) => {
    const view = await getFlowPage({ actor: visitor.actor, flowId: String(req.params.flowId) }, ctx.domain);
    const role = visitor.organizations.find((org) => org.id === view.flow.organizationId)?.role;
    sendPage(res, 200, flowPage({ view, role, chrome: visitor.chrome(view.flow.organizationId), notice: notice(req), deliveryUrl: ctx.config.deliveryUrl }));
  }));

  router.post('/flows/:flowId/components', formBody, page(ctx, async (req, res, visitor) => {
    const flow = await editFlowComponents({ actor: visitor.actor, flowId: String(req.params.flowId), edit: field(req, 'op'), componentId: field(req, 'component') }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=flow-saved`);
  }));

  router.post('/flows/:flowId/status', formBody, page(ctx, async (req, res, visitor) => {
    const status = field(req, 'status') === 'published' ? 'published' : 'draft';
    const flow = await setFlowStatus({ actor: visitor.actor, flowId: String(req.params.flowId), status }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=${status === 'published' ? 'flow-published' : 'flow-unpublished'}`);
  }));

  return router;
}
