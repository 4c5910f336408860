import { createPreviewKey, listPreviewKeys, revokePreviewKey, setPrivatePreviews, type MemberOrganization } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { onOff, text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { previewsPage } from '../pages/previews-page.js';
import type { RouteContext, Visitor } from './context.js';

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

const previewPages = [
  definePage({
    path: '/orgs/:orgId/previews',
    view: ({ visitor, organization, notice }, ctx) => previewsView(ctx, visitor, organization, { notice }),
  }),
];

/** Preview access: switch private previews, create (shown once), list and revoke preview keys. */
export function previewRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, previewPages), ctx, previewActions);
}
