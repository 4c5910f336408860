import { createPreviewKey, listPreviewKeys, revokePreviewKey, setPrivatePreviews, type MemberOrganization } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../actions/define-action.js';
import { onOff, text } from '../actions/form-input.js';
import { mountActions } from '../actions/mount-actions.js';
import { previewsPage } from '../pages/previews-page.js';
import { notice, page, sendPage, type RouteContext, type Visitor, organizationOf } from './context.js';

const base = (orgId: string) => `/orgs/${orgId}/previews`;

/** The previews page: private previews and the organization's preview keys. */
async function previewsView(
  ctx: RouteContext,
  visitor: Visitor,
  organization: MemberOrganization,
  extra: Pick<Parameters<typeof previewsPage>[0], 'notice' | 'created'>,
): Promise<string> {
  const keys = await listPreviewKeys({ actor: visitor.actor, organizationId: organization.id }, ctx.domain);
  return previewsPage({ organization, keys, chrome: visitor.chrome(organization.id), ...extra });
}

const previewActions = [
  defineAction({
    path: '/orgs/:orgId/previews/private',
    input: z.object({ private: onOff }),
    run: ({ actor, organization, input }, ctx) =>
      setPrivatePreviews({ actor, organizationId: organization.id, enabled: input.private }, ctx.domain),
    done: (_, { organization, input }) => ({ to: base(organization.id), notice: input.private ? 'previews-private' : 'previews-public' }),
  }),
  // Answered with the page itself, not a redirect: the secret must not travel in a URL.
  defineAction({
    path: '/orgs/:orgId/previews/keys',
    input: z.object({ name: text }),
    run: ({ actor, organization, input }, ctx) => createPreviewKey({ actor, organizationId: organization.id, name: input.name }, ctx.domain),
    done: async (created, { visitor, organization }, ctx) => ({
      status: 200,
      page: await previewsView(ctx, visitor, organization, { notice: null, created: { name: created.key.name, secret: created.secret } }),
    }),
  }),
  defineAction({
    path: '/orgs/:orgId/previews/keys/:keyId/revoke',
    run: ({ actor, organization, params }, ctx) => revokePreviewKey({ actor, organizationId: organization.id, keyId: params.keyId }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'preview-key-revoked' }),
  }),
];

/** Preview access: switch private previews, create (shown once), list and revoke preview keys. */
export function previewRoutes(ctx: RouteContext): Router {
  const router = Router();
  router.get(
    '/orgs/:orgId/previews',
    page(ctx, async (req, res, visitor) => {
      sendPage(res, 200, await previewsView(ctx, visitor, organizationOf(req, visitor), { notice: notice(req) }));
    }),
  );
  return mountActions(router, ctx, previewActions);
}
