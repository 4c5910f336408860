import { listConnectedApplications, revokeConnectedApplication, type ConnectedApplicationsDeps } from '@cp/domain';
import { Router } from 'express';
import { applicationsPage } from '../pages/applications-page.js';
import { messagePage } from '../pages/layout.js';
import { formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** The user's connected applications (the same use cases as the auth server's /account). */
export function applicationRoutes(ctx: RouteContext): Router {
  const router = Router();
  // The dashboard is itself a first-party client: signing in to it is not a connected application.
  const applications: ConnectedApplicationsDeps = {
    grants: ctx.grants,
    firstPartyClientIds: [ctx.config.clientId],
    clock: ctx.domain.clock,
    ids: ctx.domain.ids,
  };

  router.get('/applications', page(ctx, async (req, res, visitor) => {
    const connected = await listConnectedApplications({ actor: visitor.actor }, applications);
    sendPage(res, 200, applicationsPage({ applications: connected, mcpUrl: ctx.config.mcpUrl, notice: notice(req), chrome: visitor.chrome(null) }));
  }));

  router.post('/applications/:grantId/revoke', formBody, page(ctx, async (req, res, visitor) => {
    const grantId = String(req.params.grantId);
    if ((await revokeConnectedApplication({ actor: visitor.actor, grantId }, applications)) === 'not-connected') {
      return sendPage(res, 404, messagePage({ title: 'Not found', message: 'That application is not connected to your account.', chrome: visitor.chrome(null), link: { href: '/applications', label: 'Connected applications' } }));
    }
    ctx.log.info({ userId: visitor.user.id, grantId }, 'grant revoked from the dashboard');
    res.redirect(303, '/applications?notice=revoked');
  }));

  return router;
}
