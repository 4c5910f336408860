import { createEnvironment, listEnvironments, removeEnvironment, renameEnvironment, requireMembership } from '@cp/domain';
import { Router } from 'express';
import { html } from '@cp/web-forms';
import { csrfInput, layout, noticeBox, when } from '../pages/layout.js';
import { field, formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** An organization's environments: add, rename, remove one nothing was released to. */
export function environmentRoutes(ctx: RouteContext): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/environments`;

  router.get('/orgs/:orgId/environments', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const environments = await listEnvironments({ actor: visitor.actor, organizationId }, ctx.domain);
    const csrf = visitor.chrome(null).csrf;
    sendPage(res, 200, layout({
      title: 'Environments',
      chrome: visitor.chrome(organizationId),
      body: html`<h1>Environments</h1>
${noticeBox(notice(req))}
<p>Hosts fetch a component's release with <code>/consume?id=…&amp;env=&lt;name&gt;</code>. Names are lower-case slugs (<code>prod</code>, <code>eu-canary</code>).</p>
<table><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Rename</th><th scope="col"><span class="hint">Remove</span></th></tr></thead><tbody>
${environments.map((env) => html`<tr><th scope="row">${env.name}</th><td>${when(env.createdAt)}</td>
<td><form method="post" action="${base(organizationId)}/${env.id}/rename" class="inline">${csrfInput(csrf)}<label for="rename-${env.id}" class="hint">New name for ${env.name}</label><input type="text" id="rename-${env.id}" name="name" value="${env.name}" size="16"><button type="submit" class="secondary">Rename</button></form></td>
<td><form method="post" action="${base(organizationId)}/${env.id}/remove">${csrfInput(csrf)}<button type="submit" class="danger" aria-label="Remove ${env.name}">Remove</button></form></td></tr>`)}
</tbody></table>
<p class="hint">Only an environment nothing was ever released to can be removed.</p>
<h2>Add an environment</h2>
<form method="post" action="${base(organizationId)}" class="inline">${csrfInput(csrf)}<label for="new-env">Name</label><input type="text" id="new-env" name="name" required size="16"><button type="submit">Add</button></form>`,
    }));
  }));

  router.post('/orgs/:orgId/environments', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await createEnvironment({ actor: visitor.actor, organizationId, name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-added`);
  }));

  router.post('/orgs/:orgId/environments/:envId/rename', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await renameEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId), name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-renamed`);
  }));

  router.post('/orgs/:orgId/environments/:envId/remove', formBody, page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await requireMembership(visitor.actor, organizationId, ctx.domain);
    await removeEnvironment({ actor: visitor.actor, organizationId, environmentId: String(req.params.envId) }, ctx.domain);
    res.redirect(303, `${base(organizationId)}?notice=env-removed`);
  }));

  return router;
}
