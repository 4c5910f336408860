import { listConnectedApplications, revokeConnectedApplication, type ConnectedApplicationsDeps } from '@cp/domain';
import { Router } from 'express';
import { accountPage } from '../pages/account-page.js';
import { messagePage } from '../pages/message-pages.js';
import { formBody, refuseForgedForm, sendPage, type PageContext } from './page-context.js';

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'Access revoked. The application is signed out within 30 seconds.',
};

/** "Connected applications": the signed-in user's grants, each revocable (docs/tool-contract.md, "Authorization"). */
export function accountRoutes(ctx: PageContext): Router {
  const router = Router();
  // The same use cases as the dashboard's page; the dashboard itself is first-party, not listed.
  const applications: ConnectedApplicationsDeps = {
    grants: ctx.oidc,
    firstPartyClientIds: ctx.config.dashboard === null ? [] : [ctx.config.dashboard.clientId],
    clock: ctx.domain.clock,
    ids: ctx.domain.ids,
  };

  router.get('/account', async (req, res) => {
    const accountId = await ctx.sessions.accountId(req, res);
    const user = accountId === undefined ? null : await ctx.domain.repos.users.findById(accountId);
    if (user === null) return res.redirect(303, '/login');
    const notice = typeof req.query.notice === 'string' ? (NOTICES[req.query.notice] ?? null) : null;
    const connected = await listConnectedApplications({ actor: { userId: user.id } }, applications);
    sendPage(res, 200, accountPage({ csrf: ctx.csrf.token(req, res), email: user.email, applications: connected, notice }));
  });

  router.post('/account/applications/:grantId/revoke', formBody, async (req, res) => {
    const grantId = String(req.params.grantId);
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const accountId = await ctx.sessions.accountId(req, res);
    if (accountId === undefined) return res.redirect(303, '/login');
    if ((await revokeConnectedApplication({ actor: { userId: accountId }, grantId }, applications)) === 'not-connected') {
      return sendPage(res, 404, messagePage({ title: 'Not found', message: 'That application is not connected to your account.', link: { href: '/account', label: 'Back to your account' } }));
    }
    ctx.log.info({ accountId, grantId }, 'grant revoked from the account page');
    res.redirect(303, '/account?notice=revoked');
  });

  return router;
}

