import { createEnvironment, listEnvironments, removeEnvironment, renameEnvironment, setEnvironmentProtection } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { choice, text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { environmentsPage } from '../pages/environments-page.js';
import type { RouteContext } from './context.js';

const PROTECTED = 'send true (only owners and admins publish there) or false (every member does).';
/** The add form's checkbox sends true or nothing; the toggle sends true or false. */
const checkboxProtected = choice({ true: true, false: false, '': false }, PROTECTED);
const toggleProtected = choice({ true: true, false: false }, PROTECTED);

const base = (orgId: string) => `/orgs/${orgId}/environments`;

const environmentActions = [
  defineAction({
    path: '/orgs/:orgId/environments',
    input: z.object({ name: text, protected: checkboxProtected }),
    run: ({ actor, organization, input }, ctx) => createEnvironment({ actor, organizationId: organization.id, ...input }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'env-added' }),
  }),
  defineAction({
    path: '/orgs/:orgId/environments/:envId/rename',
    input: z.object({ name: text }),
    run: ({ actor, organization, params, input }, ctx) =>
      renameEnvironment({ actor, organizationId: organization.id, environmentId: params.envId, name: input.name }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'env-renamed' }),
  }),
  defineAction({
    path: '/orgs/:orgId/environments/:envId/protection',
    input: z.object({ protected: toggleProtected }),
    run: ({ actor, organization, params, input }, ctx) =>
      setEnvironmentProtection({ actor, organizationId: organization.id, environmentId: params.envId, ...input }, ctx.domain),
    done: (changed, { organization }) => ({ to: base(organization.id), notice: changed.protected ? 'env-protected' : 'env-opened' }),
  }),
  defineAction({
    path: '/orgs/:orgId/environments/:envId/remove',
    run: ({ actor, organization, params }, ctx) =>
      removeEnvironment({ actor, organizationId: organization.id, environmentId: params.envId }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'env-removed' }),
  }),
];

const environmentPages = [
  definePage({
    path: '/orgs/:orgId/environments',
    view: async ({ actor, visitor, organization, notice }, ctx) => {
      const environments = await listEnvironments({ actor, organizationId: organization.id }, ctx.domain);
      return environmentsPage({ organizationId: organization.id, environments, role: organization.role, chrome: visitor.chrome(organization.id), notice });
    },
  }),
];

/** An organization's environments: add, rename, remove one nothing was released to, protect or open. */
export function environmentRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, environmentPages), ctx, environmentActions);
}
