import { Router } from 'express';
import { html } from '@cp/web-forms';
import { csrfInput, layout, messagePage, noticeBox, when } from '../pages/layout.js';
import { formBody, notice, page, sendPage, type RouteContext } from './context.js';

const SCOPES: Readonly<Record<string, string>> = {
  'mcp:read': 'See your organizations, components, versions and releases',
  'mcp:write': 'Upload components, change tags and publish releases',
  openid: 'Know which account you signed in with',
  offline_access: 'Stay connected until you revoke it',
};

/** The user's connected applications (the same implementation as the auth server's /account). */
export function applicationRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/applications', page(ctx, async (req, res, visitor) => {
    const apps = await ctx.applications.list(visitor.user.id);
    const csrf = visitor.chrome(null).csrf;
    sendPage(res, 200, layout({
      title: 'Connected applications',
      chrome: visitor.chrome(null),
      body: html`<h1>Connected applications</h1>
${noticeBox(notice(req))}
${apps.length === 0 ? html`<p>No application has access to your account. Assistants you connect to the tool server (<code>${ctx.config.mcpUrl}</code>) appear here.</p>` : html`<p>These applications can use your account until you revoke them. Revoking signs the application out within 30 seconds.</p>
<table><thead><tr><th scope="col">Application</th><th scope="col">Can</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${apps.map((app) => html`<tr><th scope="row">${app.clientName}</th><td><ul>${app.scopes.map((s) => html`<li>${SCOPES[s] ?? s}</li>`)}</ul></td><td>${when(app.grantedAt)}</td><td>${when(app.lastUsedAt)}</td>
<td><form method="post" action="/applications/${app.grantId}/revoke">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Revoke ${app.clientName}">Revoke</button></form></td></tr>`)}</tbody></table>`}`,
    }));
  }));

  router.post('/applications/:grantId/revoke', formBody, page(ctx, async (req, res, visitor) => {
    const grantId = String(req.params.grantId);
    if (!(await ctx.applications.revoke(visitor.user.id, grantId))) {
      return sendPage(res, 404, messagePage({ title: 'Not found', message: 'That application is not connected to your account.', chrome: visitor.chrome(null), link: { href: '/applications', label: 'Connected applications' } }));
    }
    ctx.log.info({ userId: visitor.user.id, grantId }, 'grant revoked from the dashboard');
    res.redirect(303, '/applications?notice=revoked');
  }));

  return router;
}
