import {
  editComponentTags,
  getComponent,
  listEnvironments,
  listReleaseHistory,
  listVariants,
  publishVariant,
  notFound,
  isUuid,
  loadAccessibleComponent,
  type Variant,
} from '@cp/domain';
import { Router } from 'express';
import { html } from '@cp/web-forms';
import { bytes, csrfInput, layout, noticeBox, when } from '../pages/layout.js';
import { field, formBody, notice, page, query, sendPage, type RouteContext } from './context.js';

/** Content-Security-Policy of a variant preview: its own opaque origin (sandbox without allow-same-origin), nothing from the network. */
export const PREVIEW_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** The component page: details, tags, variants and preview, environments, publish / roll back, history. */
export function componentRoutes(ctx: RouteContext): Router {
  const router = Router();
  const emails = async (ids: Iterable<string>) => {
    const map = new Map<string, string>();
    for (const id of new Set(ids)) map.set(id, (await ctx.domain.repos.users.findById(id))?.email ?? 'a former member');
    return map;
  };

  router.get('/component/:id', page(ctx, async (req, res, visitor) => {
    const componentId = String(req.params.id);
    const { component } = await getComponent({ actor: visitor.actor, componentId, includeContent: false }, ctx.domain);
    const [{ variants }, releases, environments] = await Promise.all([
      listVariants({ actor: visitor.actor, componentId, limit: 100 }, ctx.domain),
      listReleaseHistory({ actor: visitor.actor, componentId, limit: 50 }, ctx.domain),
      listEnvironments({ actor: visitor.actor, organizationId: component.organizationId }, ctx.domain),
    ]);
    const people = await emails([...variants.map((v) => v.variant.createdBy), ...releases.history.map((e) => e.releasedBy)]);
    const bySequence = new Map(variants.map(({ variant }) => [variant.id, variant]));
    const label = (id: string | null) => (id === null ? '—' : bySequence.has(id) ? `v${bySequence.get(id)!.sequence}` : 'an older variant');
    const previewId = query(req, 'variant') || variants[0]?.variant.id;
    const preview = variants.find((v) => v.variant.id === previewId)?.variant ?? null;
    const latest = variants[0]?.variant ?? null;
    const rows = environments.map((env) => {
      const current = releases.current.find((r) => r.environmentId === env.id) ?? null;
      const lastEvent = releases.history.find((e) => e.environmentId === env.id && e.variantId === current?.variantId);
      // Roll back to what it replaced when that is older; otherwise (a first release, or one that was
      // itself a roll back) to the variant before it. Never "back" to a newer variant: that is Publish.
      const currentVariant = current === null ? undefined : bySequence.get(current.variantId);
      const older = currentVariant === undefined ? undefined : variants.find(({ variant }) => variant.sequence < currentVariant.sequence)?.variant;
      const replaced = lastEvent?.previousVariantId ?? null;
      // The page lists the newest 100 variants: one it does not list is older than all of them.
      const replacedIsOlder = replaced !== null && currentVariant !== undefined && (bySequence.get(replaced)?.sequence ?? 0) < currentVariant.sequence;
      const previous = (replacedIsOlder ? replaced : null) ?? older?.id ?? null;
      return html`<tr><th scope="row">${env.name}</th><td>${current === null ? html`<span class="hint">nothing released</span>` : html`${label(current.variantId)} <span class="hint">since ${when(current.releasedAt)}</span>`}</td>
<td class="inline">${latest !== null && latest.id !== current?.variantId ? html`<a class="button" href="/component/${component.id}/publish?environment=${env.name}&amp;variant=${latest.id}">Publish v${latest.sequence}</a>` : ''}
${previous !== null && previous !== current?.variantId ? html`<a class="button secondary" href="/component/${component.id}/publish?environment=${env.name}&amp;variant=${previous}">Roll back to ${label(previous)}</a>` : ''}</td></tr>`;
    });
    const consume = `${ctx.config.deliveryUrl}/consume?id=${component.id}`;
    sendPage(res, 200, layout({
      title: component.name,
      chrome: visitor.chrome(component.organizationId),
      body: html`<h1>${component.name}</h1>
${noticeBox(notice(req))}
${component.description ? html`<p>${component.description}</p>` : ''}
<p class="hint">Id <code>${component.id}</code> · updated ${when(component.updatedAt)} · preview at <code>${consume}</code></p>
<h2 id="tags-heading">Tags</h2>
${component.tags.length === 0 ? html`<p class="hint">No tags.</p>` : html`<ul class="tags" aria-labelledby="tags-heading">${component.tags.map((t) => html`<li>${t}</li>`)}</ul>`}
<form method="post" action="/component/${component.id}/tags" class="inline">${csrfInput(visitor.chrome(null).csrf)}
<label for="tags">Edit tags</label><input type="text" id="tags" name="tags" value="${component.tags.join(', ')}" aria-describedby="tags-hint" size="40">
<button type="submit">Save tags</button></form>
<p class="hint" id="tags-hint">Comma-separated. Saving replaces the list; an empty field removes every tag. No new version is made.</p>
<h2>Environments</h2>
<table><thead><tr><th scope="col">Environment</th><th scope="col">Released</th><th scope="col"><span class="hint">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>
<h2>Variants</h2>
${variants.length === 0 ? html`<p>No variant yet.</p>` : html`<table><thead><tr><th scope="col">Variant</th><th scope="col">Size</th><th scope="col">SHA-256</th><th scope="col">Uploaded by</th><th scope="col">When</th><th scope="col">Live in</th><th scope="col"><span class="hint">Actions</span></th></tr></thead>
<tbody>${variants.map(({ variant, environments: live }) => html`<tr><th scope="row">v${variant.sequence}</th><td>${bytes(variant.size)}</td><td class="mono">${variant.sha256}</td><td>${people.get(variant.createdBy)}</td><td>${when(variant.createdAt)}</td><td>${live.join(', ') || '—'}</td>
<td class="inline"><a href="/component/${component.id}?variant=${variant.id}#preview">Preview</a> <a href="/component/${component.id}/publish?variant=${variant.id}">Publish…</a></td></tr>`)}</tbody></table>`}
${preview === null ? '' : html`<h2 id="preview">Preview of v${preview.sequence}</h2>
<iframe class="preview" sandbox="allow-scripts" src="/component/${component.id}/variants/${preview.id}/preview" title="Preview of ${component.name} v${preview.sequence}"></iframe>`}
<h2>Release history</h2>
${releases.history.length === 0 ? html`<p class="hint">Nothing released yet.</p>` : html`<table><thead><tr><th scope="col">When</th><th scope="col">Environment</th><th scope="col">Variant</th><th scope="col">Replaced</th><th scope="col">By</th></tr></thead>
<tbody>${releases.history.map((e) => html`<tr><td>${when(e.releasedAt)}</td><td>${e.environmentName}</td><td>${label(e.variantId)}</td><td>${label(e.previousVariantId)}</td><td>${people.get(e.releasedBy)}</td></tr>`)}</tbody></table>`}`,
    }));
  }));

  router.post('/component/:id/tags', formBody, page(ctx, async (req, res, visitor) => {
    const componentId = String(req.params.id);
    const tags = field(req, 'tags').split(',').map((t) => t.trim()).filter((t) => t !== '');
    await editComponentTags({ actor: visitor.actor, componentId, set: tags }, ctx.domain);
    res.redirect(303, `/component/${componentId}?notice=tags`);
  }));

  const variantOf = async (componentId: string, variantId: string): Promise<Variant> => {
    const variant = isUuid(variantId) ? await ctx.domain.repos.variants.findById(variantId) : null;
    if (variant === null || variant.componentId !== componentId) throw notFound('Variant', variantId);
    return variant;
  };

  router.get('/component/:id/variants/:variantId/preview', page(ctx, async (req, res, visitor) => {
    const component = await loadAccessibleComponent(visitor.actor, String(req.params.id), ctx.domain);
    const variant = await variantOf(component.id, String(req.params.variantId));
    const body = await ctx.domain.objects.read(variant.objectKey);
    res.status(200).set({ 'Content-Security-Policy': PREVIEW_CSP, 'X-Frame-Options': 'SAMEORIGIN', 'Cache-Control': 'private, max-age=3600', 'Referrer-Policy': 'no-referrer' }).type('html').send(Buffer.from(body));
  }));

  /** The confirmation step: what will change, then one POST. */
  router.get('/component/:id/publish', page(ctx, async (req, res, visitor) => {
    const component = await loadAccessibleComponent(visitor.actor, String(req.params.id), ctx.domain);
    const variant = await variantOf(component.id, query(req, 'variant'));
    const environments = await listEnvironments({ actor: visitor.actor, organizationId: component.organizationId }, ctx.domain);
    const current = await ctx.domain.repos.releases.listCurrent(component.id);
    const chosen = environments.find((e) => e.name === query(req, 'environment'));
    const currentVariant = chosen === undefined ? null : current.find((r) => r.environmentId === chosen.id) ?? null;
    const currentSequence = currentVariant === null ? null : (await ctx.domain.repos.variants.findById(currentVariant.variantId))?.sequence ?? null;
    const rollback = currentSequence !== null && currentSequence > variant.sequence;
    const verb = rollback ? 'Roll back' : 'Publish';
    sendPage(res, 200, layout({
      title: `${verb} ${component.name}`,
      chrome: visitor.chrome(component.organizationId),
      body: html`<h1>${verb} ${component.name} v${variant.sequence}?</h1>
${chosen === undefined ? '' : html`<p>${chosen.name} serves ${currentSequence === null ? 'nothing yet' : html`v${currentSequence}`} now. After this, hosts asking <code>/consume?id=${component.id}&amp;env=${chosen.name}</code> get v${variant.sequence} (within about a minute).</p>`}
<form method="post" action="/component/${component.id}/publish">${csrfInput(visitor.chrome(null).csrf)}
<input type="hidden" name="variant" value="${variant.id}">
${chosen === undefined
  ? html`<p><label for="environment">Environment</label> <select id="environment" name="environment">${environments.map((e) => html`<option value="${e.name}">${e.name}</option>`)}</select></p>`
  : html`<input type="hidden" name="environment" value="${chosen.name}">`}
<p class="inline"><button type="submit">${verb}${chosen === undefined ? '' : ` ${chosen.name} to v${variant.sequence}`}</button> <a class="button secondary" href="/component/${component.id}">Cancel</a></p>
</form>`,
    }));
  }));

  router.post('/component/:id/publish', formBody, page(ctx, async (req, res, visitor) => {
    const componentId = String(req.params.id);
    await publishVariant({ actor: visitor.actor, componentId, environment: field(req, 'environment'), variantId: field(req, 'variant') }, ctx.domain);
    res.redirect(303, `/component/${componentId}?notice=published`);
  }));

  return router;
}
