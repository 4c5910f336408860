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
import { componentPage } from '../pages/component-page.js';
import { csrfInput, layout } from '../pages/layout.js';
import { componentPageHref, parseComponentPageQuery, type ComponentPageQuery } from './component-page-query.js';
import { field, formBody, notice, page, query, sendPage, type RouteContext } from './context.js';
import { environmentRows } from './environment-rows.js';

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

  const variantOf = async (componentId: string, variantId: string): Promise<Variant> => {
    const variant = isUuid(variantId) ? await ctx.domain.repos.variants.findById(variantId) : null;
    if (variant === null || variant.componentId !== componentId) throw notFound('Variant', variantId);
    return variant;
  };

  router.get('/component/:id', page(ctx, async (req, res, visitor) => {
    const { actor } = visitor;
    const componentId = String(req.params.id);
    const { component } = await getComponent({ actor, componentId, includeContent: false }, ctx.domain);
    const state = parseComponentPageQuery(req);
    const sizes = ctx.config.componentPageSizes;
    const variantsPage = (beforeSequence?: number) => listVariants({ actor, componentId, limit: sizes.variants, beforeSequence }, ctx.domain);
    const historyPage = (before?: string, after?: string) => listReleaseHistory({ actor, componentId, limit: sizes.releaseEvents, before, after }, ctx.domain);
    const historyPaged = state.releasesBefore !== undefined || state.releasesAfter !== undefined;
    // The environments section always works from the latest pages; the lists show the pages asked for.
    const [latestVariants, olderVariants, latestHistory, olderHistory, environments, chosen] = await Promise.all([
      variantsPage(),
      state.variantsBefore === undefined ? null : variantsPage(state.variantsBefore),
      historyPage(),
      historyPaged ? historyPage(state.releasesBefore, state.releasesAfter) : null,
      listEnvironments({ actor, organizationId: component.organizationId }, ctx.domain),
      // A variant that is not this component's: 404, as for any unknown id (not a page without a preview).
      state.variant === null ? null : variantOf(component.id, state.variant),
    ]);
    const href = (change: Partial<ComponentPageQuery>, anchor?: string) => componentPageHref(component.id, { ...state, ...change }, anchor);
    // "Newer" reached the newest events: that page is the latest one, under its own URL.
    if (state.releasesAfter !== undefined && olderHistory?.newerAfter === null) return res.redirect(303, href({ releasesAfter: undefined }, 'release-history'));
    const variants = olderVariants ?? latestVariants;
    const history = olderHistory ?? latestHistory;

    // Every variant the page names, even those on no page shown (older, or only in the history).
    const known = new Map([...latestVariants.variants, ...variants.variants].map(({ variant }) => [variant.id, variant]));
    if (chosen !== null) known.set(chosen.id, chosen);
    const named = [...latestHistory.history, ...history.history].flatMap((e) => [e.variantId, e.previousVariantId]).concat(latestHistory.current.map((r) => r.variantId));
    const missing = [...new Set(named)].filter((id): id is string => id !== null && !known.has(id));
    for (const variant of await Promise.all(missing.map((id) => ctx.domain.repos.variants.findById(id)))) if (variant !== null) known.set(variant.id, variant);
    const label = (id: string | null) => (id === null ? '—' : known.has(id) ? `v${known.get(id)!.sequence}` : 'an unknown variant');

    const people = await emails([...variants.variants.map((v) => v.variant.createdBy), ...history.history.map((e) => e.releasedBy)]);
    const latestList = latestVariants.variants.map(({ variant }) => variant);
    const newestShown = latestList[0]?.sequence ?? 0;
    const newerBefore = state.variantsBefore === undefined ? undefined : state.variantsBefore + sizes.variants;

    sendPage(res, 200, componentPage({
      component,
      chrome: visitor.chrome(component.organizationId),
      notice: notice(req),
      consumeUrl: `${ctx.config.deliveryUrl}/consume?id=${component.id}`,
      environments: await environmentRows({
        componentId: component.id,
        environments,
        current: latestHistory.current,
        history: latestHistory.history,
        latestVariants: latestList,
        known,
        label,
        olderThan: async (sequence) => (await ctx.domain.repos.variants.listForComponent(component.id, { limit: 1, beforeSequence: sequence }))[0] ?? null,
      }),
      variants: {
        items: variants.variants,
        empty: state.variantsBefore === undefined ? 'No variant yet.' : 'No older variant.',
        links: {
          latest: state.variantsBefore === undefined ? null : href({ variantsBefore: undefined }, 'variants'),
          // Sequences are 1, 2, 3…: the newer page is this cursor + a page; past the newest variant, that is the latest page.
          newer: newerBefore === undefined ? null : href({ variantsBefore: newerBefore > newestShown ? undefined : newerBefore }, 'variants'),
          older: variants.nextBeforeSequence === null ? null : href({ variantsBefore: variants.nextBeforeSequence }, 'variants'),
        },
      },
      preview: chosen ?? latestList[0] ?? null,
      history: {
        items: history.history,
        empty: historyPaged ? 'No release event here: see the latest ones.' : 'Nothing released yet.',
        links: {
          latest: historyPaged ? href({ releasesBefore: undefined, releasesAfter: undefined }, 'release-history') : null,
          newer: history.newerAfter === null ? null : href({ releasesBefore: undefined, releasesAfter: history.newerAfter }, 'release-history'),
          older: history.olderBefore === null ? null : href({ releasesBefore: history.olderBefore, releasesAfter: undefined }, 'release-history'),
        },
      },
      people,
      label,
      previewHref: (variantId) => href({ variant: variantId }, 'preview'),
    }));
  }));

  router.post('/component/:id/tags', formBody, page(ctx, async (req, res, visitor) => {
    const componentId = String(req.params.id);
    const tags = field(req, 'tags').split(',').map((t) => t.trim()).filter((t) => t !== '');
    await editComponentTags({ actor: visitor.actor, componentId, set: tags }, ctx.domain);
    res.redirect(303, `/component/${componentId}?notice=tags`);
  }));

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
