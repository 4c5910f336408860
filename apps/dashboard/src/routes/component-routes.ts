import { editComponentTags, getPublishPreview, getVariantContent, publishVariant } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { componentPage } from '../pages/component-page.js';
import { publishPage } from '../pages/publish-page.js';
import { componentPageContent } from './component-page-content.js';
import { componentPageHref, parseComponentPageQuery } from './component-page-query.js';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { notice, page, sendPage, type RouteContext } from './context.js';

/** Content-Security-Policy of a variant preview: its own opaque origin (sandbox without allow-same-origin), nothing from the network. */
export const PREVIEW_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const tagList = (tags: string) => tags.split(',').map((t) => t.trim()).filter((t) => t !== '');

const componentActions = [
  defineAction({
    path: '/component/:id/tags',
    input: z.object({ tags: text.transform(tagList) }),
    run: ({ actor, params, input }, ctx) => editComponentTags({ actor, componentId: params.id, set: input.tags }, ctx.domain),
    done: (_, { params }) => ({ to: `/component/${params.id}`, notice: 'tags' }),
  }),
  /** The confirmation page's one POST (GET /component/:id/publish). */
  defineAction({
    path: '/component/:id/publish',
    input: z.object({ environment: text, variant: text }),
    run: ({ actor, params, input }, ctx) =>
      publishVariant({ actor, componentId: params.id, environment: input.environment, variantId: input.variant }, ctx.domain),
    // A member's publish to a protected environment became a release request.
    done: ({ outcome }, { params }) => ({ to: `/component/${params.id}`, notice: outcome === 'requested' ? 'requested' : 'published' }),
  }),
];

const componentPages = [
  /** The confirmation step: what will change, then one POST. */
  definePage({
    path: '/component/:id/publish',
    view: async ({ actor, visitor, params, query }, ctx) => {
      const input = { actor, componentId: params.id, variantId: query('variant'), environment: query('environment') };
      const preview = await getPublishPreview(input, ctx.domain);
      return publishPage(preview, visitor.chrome(preview.component.organizationId));
    },
  }),
];

/** The component page: details, tags, variants and preview, environments, publish / roll back, history. */
export function componentRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/component/:id', page(ctx, async (req, res, visitor) => {
    const state = parseComponentPageQuery(req);
    const content = await componentPageContent(visitor, String(req.params.id), state, ctx, { notice: notice(req) });
    // "Newer" reached the newest events: that page is the latest one, under its own URL.
    if (state.releasesAfter !== undefined && content.view.history.newer === null) {
      return res.redirect(303, componentPageHref(content.view.component.id, { ...state, releasesAfter: undefined }, 'release-history'));
    }
    sendPage(res, 200, componentPage(content));
  }));

  router.get('/component/:id/variants/:variantId/preview', page(ctx, async (req, res, visitor) => {
    const { content } = await getVariantContent({ actor: visitor.actor, componentId: String(req.params.id), variantId: String(req.params.variantId) }, ctx.domain);
    res.status(200).set({ 'Content-Security-Policy': PREVIEW_CSP, 'X-Frame-Options': 'SAMEORIGIN', 'Cache-Control': 'private, max-age=3600', 'Referrer-Policy': 'no-referrer' }).type('html').send(Buffer.from(content));
  }));

  return mountActions(mountPages(router, ctx, componentPages), ctx, componentActions);
}
