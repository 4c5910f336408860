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
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { membersPage } from '../pages/members-page.js';
import { organizationSettingsPage } from '../pages/organization-settings-page.js';
import type { RouteContext } from './context.js';

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

const memberPages = [
  definePage({
    path: '/orgs/:orgId/members',
    view: async ({ actor, visitor, organization, notice }, ctx) =>
      membersPage({
        organizationId: organization.id,
        organizationName: organization.name,
        members: await listMembers({ actor, organizationId: organization.id }, ctx.domain),
        me: { userId: visitor.user.id, role: organization.role },
        chrome: visitor.chrome(organization.id),
        notice,
      }),
  }),
  definePage({
    path: '/orgs/:orgId/settings',
    view: ({ visitor, organization, notice }) =>
      organizationSettingsPage({ organization, chrome: visitor.chrome(organization.id), notice }),
  }),
];

/** An organization's members and settings, and new organizations. */
export function memberRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, memberPages), ctx, memberActions);
}
