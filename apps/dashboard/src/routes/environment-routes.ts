import { createEnvironment, listEnvironments, removeEnvironment, renameEnvironment } from '@cp/domain';
import { Router } from 'express';
import { environmentsPage } from '../pages/environments-page.js';
import { field } from '@cp/web-forms';
import { formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** An organization's environments: add, rename, remove one nothing was released to. */
export function environmentRoutes(ctx: RouteContext): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/environments`;

  router.get('/orgs/:orgId/environments', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const environments = await listEnvironments({ actor: visitor.actor, organizationId }, ctx.domain);
    sendPage(res, 200, environmentsPage({ organizationId, environments, chrome: visitor.chrome(organizationId), notice: notice(req) }));
  }));

  router.post('/orgs/:orgId/environments', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await createEnvironment({ actor: visitor.actor, organizationId, name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-added`);
  }));

  router.post('/orgs/:orgId/environments/:envId/rename', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await renameEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId), name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-renamed`);
  }));

  router.post('/orgs/:orgId/environments/:envId/remove', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await removeEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId) }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-removed`);
  }));

  return router;
}
