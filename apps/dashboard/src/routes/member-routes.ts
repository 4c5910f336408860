import {
  changeMemberRole,
  createOrganization,
  deleteOrganization,
  leaveOrganization,
  listMembers,
  notFound,
  removeMember,
  renameOrganization,
  transferOwnership,
} from '@cp/domain';
import { field } from '@cp/web-forms';
import { Router } from 'express';
import { membersPage } from '../pages/members-page.js';
import { organizationSettingsPage } from '../pages/organization-settings-page.js';
import { formBody, notice, page, sendPage, type RouteContext, type Visitor } from './context.js';

/** The visitor's membership of the organization in the URL: "not found" (404) when they have none. */
function membershipOf(visitor: Visitor, organizationId: string) {
  const organization = visitor.organizations.find((o) => o.id === organizationId);
  if (organization === undefined) throw notFound('Organization', organizationId);
  return organization;
}

/** An organization's members and settings, and new organizations. Every rule is the domain's. */
export function memberRoutes(ctx: RouteContext): Router {
  const router = Router();
  const members = (orgId: string) => `/orgs/${orgId}/members`;
  const orgOf = (params: Record<string, unknown>) => String(params.orgId);
  const userOf = (params: Record<string, unknown>) => String(params.userId);

  router.get(
    '/orgs/:orgId/members',
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      const list = await listMembers({ actor: visitor.actor, organizationId }, ctx.domain);
      const organization = membershipOf(visitor, organizationId);
      const me = { userId: visitor.user.id, role: organization.role };
      sendPage(
        res,
        200,
        membersPage({
          organizationId,
          organizationName: organization.name,
          members: list,
          me,
          chrome: visitor.chrome(organizationId),
          notice: notice(req),
        }),
      );
    }),
  );

  router.post(
    '/orgs/:orgId/members/:userId/role',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      await changeMemberRole(
        {
          actor: visitor.actor,
          organizationId,
          userId: userOf(req.params),
          from: field(req, 'from'),
          to: field(req, 'role'),
        },
        ctx.domain,
      );
      res.redirect(303, `${members(organizationId)}?notice=role-changed`);
    }),
  );

  router.post(
    '/orgs/:orgId/members/:userId/remove',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      await removeMember(
        { actor: visitor.actor, organizationId, userId: userOf(req.params) },
        ctx.domain,
      );
      res.redirect(303, `${members(organizationId)}?notice=member-removed`);
    }),
  );

  router.post(
    '/orgs/:orgId/members/:userId/transfer',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      await transferOwnership(
        { actor: visitor.actor, organizationId, userId: userOf(req.params) },
        ctx.domain,
      );
      res.redirect(303, `${members(organizationId)}?notice=ownership-transferred`);
    }),
  );

  router.post(
    '/orgs/:orgId/leave',
    formBody,
    page(ctx, async (req, res, visitor) => {
      await leaveOrganization(
        { actor: visitor.actor, organizationId: orgOf(req.params) },
        ctx.domain,
      );
      res.redirect(303, '/orgs?notice=left');
    }),
  );

  router.post(
    '/orgs',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = await createOrganization(
        { actor: visitor.actor, name: field(req, 'name') },
        ctx.domain,
      );
      res.redirect(303, `/orgs/${organization.id}/components`);
    }),
  );

  router.get(
    '/orgs/:orgId/settings',
    page(ctx, async (req, res, visitor) => {
      const organization = membershipOf(visitor, orgOf(req.params));
      sendPage(
        res,
        200,
        organizationSettingsPage({
          organization,
          chrome: visitor.chrome(organization.id),
          notice: notice(req),
        }),
      );
    }),
  );

  router.post(
    '/orgs/:orgId/rename',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      await renameOrganization(
        { actor: visitor.actor, organizationId, name: field(req, 'name') },
        ctx.domain,
      );
      res.redirect(303, `/orgs/${organizationId}/settings?notice=org-renamed`);
    }),
  );

  router.post(
    '/orgs/:orgId/delete',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organizationId = orgOf(req.params);
      const deleted = await deleteOrganization(
        { actor: visitor.actor, organizationId, confirmName: field(req, 'name') },
        ctx.domain,
      );
      // The rows are gone either way; files left in storage are only logged (docs/rules.md, "deleting an organization").
      if (deleted.failedObjects > 0)
        ctx.log.warn(
          { organizationId, failedObjects: deleted.failedObjects },
          'organization deleted; some stored objects could not be removed',
        );
      res.redirect(303, '/orgs?notice=org-deleted');
    }),
  );

  return router;
}
