import { Router } from 'express';
import { accountPage, type ConnectedApplication } from '../pages/account-page.js';
import { messagePage } from '../pages/message-pages.js';
import type { GrantRecord } from '../oidc/storage.js';
import { formBody, refuseForgedForm, sendPage, type PageContext } from './page-context.js';

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'Access revoked. The application is signed out within 30 seconds.',
};

/** All scopes of a grant, whichever resource they were granted for. */
const scopesOf = (grant: GrantRecord): string[] => {
  const scopes = Object.values(grant.resources).flatMap((scope) => scope.split(' '));
  // OpenID scopes that are not resource scopes (openid, offline_access) are shown too.
  for (const scope of (grant.openidScope ?? '').split(' ')) if (scope === 'openid' || scope === 'offline_access') scopes.push(scope);
  return [...new Set(scopes.filter((scope) => scope.length > 0))];
};

/** "Connected applications": the signed-in user's grants, each revocable (the spec's "revoked from the dashboard"). */
export function accountRoutes(ctx: PageContext): Router {
  const router = Router();

  const applications = async (accountId: string): Promise<ConnectedApplication[]> =>
    Promise.all(
      (await ctx.oidc.listGrants(accountId)).map(async (grant) => {
        const client = await ctx.provider.Client.find(grant.clientId).catch(() => undefined);
        return {
          grantId: grant.grantId,
          clientName: client?.clientName ?? `Unnamed application (${grant.clientId})`,
          scopes: scopesOf(grant),
          grantedAt: grant.grantedAt,
          lastUsedAt: grant.lastUsedAt,
        };
      }),
    );

  router.get('/account', async (req, res) => {
    const accountId = await ctx.sessions.accountId(req, res);
    const user = accountId === undefined ? null : await ctx.domain.repos.users.findById(accountId);
    if (user === null) return res.redirect(303, '/login');
    const notice = typeof req.query.notice === 'string' ? (NOTICES[req.query.notice] ?? null) : null;
    sendPage(res, 200, accountPage({ csrf: ctx.csrf.token(req, res), email: user.email, applications: await applications(user.id), notice }));
  });

  router.post('/account/applications/:grantId/revoke', formBody, async (req, res) => {
    const grantId = String(req.params.grantId);
    if (!ctx.csrf.verify(req)) return refuseForgedForm(res);
    const accountId = await ctx.sessions.accountId(req, res);
    if (accountId === undefined) return res.redirect(303, '/login');
    const owned = (await ctx.oidc.listGrants(accountId)).some((grant) => grant.grantId === grantId);
    if (!owned) {
      return sendPage(res, 404, messagePage({ title: 'Not found', message: 'That application is not connected to your account.', link: { href: '/account', label: 'Back to your account' } }));
    }
    await ctx.oidc.revokeGrant(grantId);
    ctx.log.info({ accountId, grantId }, 'grant revoked from the account page');
    res.redirect(303, '/account?notice=revoked');
  });

  return router;
}
