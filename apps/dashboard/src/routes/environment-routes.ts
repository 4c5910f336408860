import { createEnvironment, invalidInput, listEnvironments, removeEnvironment, renameEnvironment, setEnvironmentProtection } from '@cp/domain';
import { Router, type Request } from 'express';
import { environmentsPage } from '../pages/environments-page.js';
import { field } from '@cp/web-forms';
import { formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** The form's `protected`: the toggle sends true or false, the add form's checkbox true or nothing. */
function protectedField(req: Request, absent: boolean | null): boolean {
  const value = field(req, 'protected');
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === '' && absent !== null) return absent;
  throw invalidInput('protected', 'send true (only owners and admins publish there) or false (every member does).');
}

/** An organization's environments: add, rename, remove one nothing was released to, protect or open. */
export function environmentRoutes(ctx: RouteContext): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/environments`;

  router.get('/orgs/:orgId/environments', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const environments = await listEnvironments({ actor: visitor.actor, organizationId }, ctx.domain);
    const role = visitor.organizations.find((org) => org.id === organizationId)?.role;
    sendPage(res, 200, environmentsPage({ organizationId, environments, role, chrome: visitor.chrome(organizationId), notice: notice(req) }));
  }));

  router.post('/orgs/:orgId/environments', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await createEnvironment({ actor: visitor.actor, organizationId, name: field(req, 'name'), protected: protectedField(req, false) }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-added`);
  }));

  router.post('/orgs/:orgId/environments/:envId/rename', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await renameEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId), name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-renamed`);
  }));

  router.post('/orgs/:orgId/environments/:envId/protection', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const changed = await setEnvironmentProtection({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId), protected: protectedField(req, null) }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=${changed.protected ? 'env-protected' : 'env-opened'}`);
  }));

  router.post('/orgs/:orgId/environments/:envId/remove', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await removeEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId) }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-removed`);
  }));

  return router;
}
