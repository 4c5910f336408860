import { browseComponents, notFound, requireMembership } from '@cp/domain';
import { Router } from 'express';
import { html } from '@cp/web-forms';
import { layout, noticeBox, when } from '../pages/layout.js';
import { setupHint } from '../pages/setup-hint.js';
import { page, query, sendPage, type RouteContext } from './context.js';

/** Organizations, the switcher, and an organization's components. */
export function organizationRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/', page(ctx, async (_req, res, visitor) => {
    res.redirect(303, `/orgs/${visitor.user.defaultOrganizationId}/components`);
  }));

  router.get('/switch', page(ctx, async (req, res, visitor) => {
    const org = visitor.organizations.find((o) => o.id === query(req, 'org'));
    // Like every other page: an organization the user is not in is "not found", the same as an unknown id.
    if (org === undefined) throw notFound('Organization', query(req, 'org'));
    res.redirect(303, `/orgs/${org.id}/components`);
  }));

  router.get('/orgs', page(ctx, async (_req, res, visitor) => {
    sendPage(res, 200, layout({
      title: 'Your organizations',
      chrome: visitor.chrome(null),
      body: html`<h1>Your organizations</h1>
<table><thead><tr><th scope="col">Organization</th><th scope="col">Your role</th><th scope="col">Since</th></tr></thead>
<tbody>${visitor.organizations.map((o) => html`<tr><th scope="row"><a href="/orgs/${o.id}/components">${o.name}</a>${o.isDefault ? html` <span class="hint">(default)</span>` : ''}</th><td>${o.role}</td><td>${when(o.createdAt)}</td></tr>`)}</tbody></table>`,
    }));
  }));

  router.get('/orgs/:orgId/components', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    await requireMembership(visitor.actor, organizationId, ctx.domain);
    // Trimmed as browseComponents trims them, so a blank search is no search.
    const name = query(req, 'q').trim();
    const tag = query(req, 'tag').trim();
    const pageNumber = Number(query(req, 'page') || '1');
    const result = await browseComponents({ actor: visitor.actor, organizationId, name, tag, page: pageNumber }, ctx.domain);
    const org = visitor.organizations.find((o) => o.id === organizationId);
    const filtered = name !== '' || tag !== '';
    const link = (p: number) => `?${new URLSearchParams({ ...(name ? { q: name } : {}), ...(tag ? { tag } : {}), page: String(p) }).toString()}`;
    sendPage(res, 200, layout({
      title: `Components of ${org?.name ?? ''}`,
      chrome: visitor.chrome(organizationId),
      body: html`<h1>Components of ${org?.name ?? ''}</h1>
<form method="get" class="inline" role="search" aria-label="Components">
<label for="q">Name</label><input type="search" id="q" name="q" value="${name}">
<label for="tag">Tag</label><input type="text" id="tag" name="tag" value="${tag}">
<button type="submit">Search</button>${filtered ? html` <a href="?">Clear</a>` : ''}
</form>
${result.components.length === 0
  ? result.page > 1 ? html`<p>Page ${result.page} is past the end of the list. <a href="${link(1)}">Go to the first page</a></p>`
    : filtered ? html`<p>No component matches.</p>` : html`<p>This organization has no component yet.</p>${setupHint(ctx.config.mcpUrl)}`
  : html`<table><caption class="hint">Most recently updated first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Tags</th><th scope="col">Variants</th><th scope="col">Updated</th></tr></thead>
<tbody>${result.components.map((c) => html`<tr><th scope="row"><a href="/component/${c.id}">${c.name}</a>${c.description ? html`<div class="hint">${c.description}</div>` : ''}</th>
<td><ul class="tags">${c.tags.map((t) => html`<li><a href="?tag=${encodeURIComponent(t)}">${t}</a></li>`)}</ul></td><td>${c.variantsCount}</td><td>${when(c.updatedAt)}</td></tr>`)}</tbody></table>
<nav class="pager" aria-label="Pages">${result.page > 1 ? html`<a href="${link(result.page - 1)}" rel="prev">Previous page</a>` : ''}<span>Page ${result.page}</span>${result.hasNextPage ? html`<a href="${link(result.page + 1)}" rel="next">Next page</a>` : ''}</nav>`}
${noticeBox(null)}`,
    }));
  }));

  return router;
}
