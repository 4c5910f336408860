import {
  changeMemberRole,
  createOrganization,
  deleteOrganization,
  leaveOrganization,
  listMembers,
  removeMember,
  renameOrganization,
  transferOwnership,
} from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../actions/define-action.js';
import { text } from '../actions/form-input.js';
import { mountActions } from '../actions/mount-actions.js';
import { membersPage } from '../pages/members-page.js';
import { organizationSettingsPage } from '../pages/organization-settings-page.js';
import { notice, organizationOf, page, sendPage, type RouteContext } from './context.js';

const members = (orgId: string) => `/orgs/${orgId}/members`;

/** What an organization's members and settings pages post. Every rule is the domain's. */
const memberActions = [
  defineAction({
    path: '/orgs/:orgId/members/:userId/role',
    input: z.object({ from: text, role: text }),
    run: ({ actor, organization, params, input }, ctx) =>
      changeMemberRole({ actor, organizationId: organization.id, userId: params.userId, from: input.from, to: input.role }, ctx.domain),
    done: (_, { organization }) => ({ to: members(organization.id), notice: 'role-changed' }),
  }),
  defineAction({
    path: '/orgs/:orgId/members/:userId/remove',
    run: ({ actor, organization, params }, ctx) => removeMember({ actor, organizationId: organization.id, userId: params.userId }, ctx.domain),
    done: (_, { organization }) => ({ to: members(organization.id), notice: 'member-removed' }),
  }),
  defineAction({
    path: '/orgs/:orgId/members/:userId/transfer',
    run: ({ actor, organization, params }, ctx) => transferOwnership({ actor, organizationId: organization.id, userId: params.userId }, ctx.domain),
    done: (_, { organization }) => ({ to: members(organization.id), notice: 'ownership-transferred' }),
  }),
  defineAction({
    path: '/orgs/:orgId/leave',
    run: ({ actor, organization }, ctx) => leaveOrganization({ actor, organizationId: organization.id }, ctx.domain),
    done: () => ({ to: '/orgs', notice: 'left' }),
  }),
  defineAction({
    path: '/orgs',
    input: z.object({ name: text }),
    run: ({ actor, input }, ctx) => createOrganization({ actor, name: input.name }, ctx.domain),
    done: (created) => ({ to: `/orgs/${created.id}/components` }),
  }),
  defineAction({
    path: '/orgs/:orgId/rename',
    input: z.object({ name: text }),
    run: ({ actor, organization, input }, ctx) => renameOrganization({ actor, organizationId: organization.id, name: input.name }, ctx.domain),
    done: (_, { organization }) => ({ to: `/orgs/${organization.id}/settings`, notice: 'org-renamed' }),
  }),
  defineAction({
    path: '/orgs/:orgId/delete',
    input: z.object({ name: text }),
    run: async ({ actor, organization, input }, ctx) => {
      const organizationId = organization.id;
      const deleted = await deleteOrganization({ actor, organizationId, confirmName: input.name }, ctx.domain);
      // The rows are gone either way; files left in storage are only logged (docs/rules.md, "deleting an organization").
      if (deleted.failedObjects > 0)
        ctx.log.warn({ organizationId, failedObjects: deleted.failedObjects }, 'organization deleted; some stored objects could not be removed');
    },
    done: () => ({ to: '/orgs', notice: 'org-deleted' }),
  }),
];

/** An organization's members and settings, and new organizations. */
export function memberRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get(
    '/orgs/:orgId/members',
    page(ctx, async (req, res, visitor) => {
      const organizationId = String(req.params.orgId);
      const list = await listMembers({ actor: visitor.actor, organizationId }, ctx.domain);
      const organization = organizationOf(req, visitor);
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

  router.get(
    '/orgs/:orgId/settings',
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
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

  return mountActions(router, ctx, memberActions);
}
