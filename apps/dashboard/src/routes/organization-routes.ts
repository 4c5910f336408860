import { browseComponents, notFound, requireMembership } from '@cp/domain';
import { Router } from 'express';
import { componentsPage } from '../pages/components-page.js';
import { organizationsPage } from '../pages/organizations-page.js';
import { notice, page, query, sendPage, type RouteContext } from './context.js';

/** Organizations, the switcher, and an organization's components. */
export function organizationRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/', page(ctx, async (_req, res, visitor) => {
    res.redirect(303, `/orgs/${visitor.user.defaultOrganizationId}/components`);
  }));

  router.get('/switch', page(ctx, async (req, res, visitor) => {
    const org = visitor.organizations.find((o) => o.id === query(req, 'org'));
    // Like every other page: an organization the user is not in is "not found", the same as an unknown id.
    if (org === undefined) throw notFound('Organization', query(req, 'org'));
    res.redirect(303, `/orgs/${org.id}/components`);
  }));

  router.get('/orgs', page(ctx, async (req, res, visitor) => {
    sendPage(res, 200, organizationsPage(visitor.organizations, visitor.chrome(null), notice(req)));
  }));

  router.get('/orgs/:orgId/components', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await requireMembership(visitor.actor, organizationId, ctx.domain);
    // Trimmed as browseComponents trims them, so a blank search is no search.
    const name = query(req, 'q').trim();
    const tag = query(req, 'tag').trim();
    const pageNumber = Number(query(req, 'page') || '1');
    const result = await browseComponents({ actor: visitor.actor, organizationId, name, tag, page: pageNumber }, ctx.domain);
    const organizationName = visitor.organizations.find((o) => o.id === organizationId)?.name ?? '';
    sendPage(res, 200, componentsPage({ organizationName, name, tag, result, chrome: visitor.chrome(organizationId), mcpUrl: ctx.config.mcpUrl }));
  }));

  return router;
}
