import { browseComponents, notFound } from '@cp/domain';
import { Router } from 'express';
import { definePage, mountPages } from '../kit/define-page.js';
import { componentsPage } from '../pages/components-page.js';
import { organizationsPage } from '../pages/organizations-page.js';
import { page, query, type RouteContext } from './context.js';

const organizationPages = [
  definePage({
    path: '/orgs',
    view: ({ visitor, notice }) => organizationsPage(visitor.organizations, visitor.chrome(null), notice),
  }),
  definePage({
    path: '/orgs/:orgId/components',
    view: async ({ actor, visitor, organization, query }, ctx) => {
      // Trimmed as browseComponents trims them, so a blank search is no search.
      const name = query('q').trim();
      const tag = query('tag').trim();
      const input = { actor, organizationId: organization.id, name, tag, page: Number(query('page') || '1') };
      const result = await browseComponents(input, ctx.domain);
      return componentsPage({ organizationName: organization.name, name, tag, result, chrome: visitor.chrome(organization.id), mcpUrl: ctx.config.mcpUrl });
    },
  }),
];

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

  return mountPages(router, ctx, organizationPages);
}
