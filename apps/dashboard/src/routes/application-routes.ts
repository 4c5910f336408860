import { listConnectedApplications, revokeConnectedApplication, type ConnectedApplicationsDeps } from '@cp/domain';
import { Router } from 'express';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { mountActions } from '../kit/mount-actions.js';
import { applicationsPage } from '../pages/applications-page.js';
import { messagePage } from '../pages/layout.js';
import type { RouteContext } from './context.js';

/** The use cases' dependencies: the dashboard is itself a first-party client, not a connected application. */
const applicationsOf = (ctx: RouteContext): ConnectedApplicationsDeps => ({
  grants: ctx.grants,
  firstPartyClientIds: [ctx.config.clientId],
  clock: ctx.domain.clock,
  ids: ctx.domain.ids,
});

const applicationActions = [
  defineAction({
    path: '/applications/:grantId/revoke',
    run: async ({ actor, params }, ctx) => {
      const outcome = await revokeConnectedApplication({ actor, grantId: params.grantId }, applicationsOf(ctx));
      if (outcome !== 'not-connected') ctx.log.info({ userId: actor.userId, grantId: params.grantId }, 'grant revoked from the dashboard');
      return outcome;
    },
    done: (outcome, { visitor }) =>
      outcome === 'not-connected'
        ? {
            status: 404,
            page: messagePage({ title: 'Not found', message: 'That application is not connected to your account.', chrome: visitor.chrome(null), link: { href: '/applications', label: 'Connected applications' } }),
          }
        : { to: '/applications', notice: 'revoked' },
  }),
];

const applicationPages = [
  definePage({
    path: '/applications',
    view: async ({ actor, visitor, notice }, ctx) =>
      applicationsPage({
        applications: await listConnectedApplications({ actor }, applicationsOf(ctx)),
        mcpUrl: ctx.config.mcpUrl,
        notice,
        chrome: visitor.chrome(null),
      }),
  }),
];

/** The user's connected applications (the same use cases as the auth server's /account). */
export function applicationRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, applicationPages), ctx, applicationActions);
}
