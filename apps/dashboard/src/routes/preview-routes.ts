import {
  createPreviewKey,
  invalidInput,
  listPreviewKeys,
  revokePreviewKey,
  setPrivatePreviews,
  type MemberOrganization,
} from '@cp/domain';
import { field } from '@cp/web-forms';
import { Router, type Response } from 'express';
import { previewsPage } from '../pages/previews-page.js';
import { formBody, notice, page, sendPage, type RouteContext, type Visitor, organizationOf } from './context.js';

/** Preview access: switch private previews, create (shown once), list and revoke preview keys. */
export function previewRoutes(ctx: RouteContext): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/previews`;
  const renderPreviews = async (
    res: Response,
    visitor: Visitor,
    organization: MemberOrganization,
    extra: Pick<Parameters<typeof previewsPage>[0], 'notice' | 'created'>,
  ) => {
    const keys = await listPreviewKeys(
      { actor: visitor.actor, organizationId: organization.id },
      ctx.domain,
    );
    sendPage(
      res,
      200,
      previewsPage({ organization, keys, chrome: visitor.chrome(organization.id), ...extra }),
    );
  };

  router.get(
    '/orgs/:orgId/previews',
    page(ctx, async (req, res, visitor) => {
      await renderPreviews(res, visitor, organizationOf(req, visitor), { notice: notice(req) });
    }),
  );

  router.post(
    '/orgs/:orgId/previews/private',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const value = field(req, 'private');
      if (value !== 'on' && value !== 'off') throw invalidInput('private', 'send "on" or "off".');
      await setPrivatePreviews(
        { actor: visitor.actor, organizationId: organization.id, enabled: value === 'on' },
        ctx.domain,
      );
      res.redirect(
        303,
        `${base(organization.id)}?notice=${value === 'on' ? 'previews-private' : 'previews-public'}`,
      );
    }),
  );

  // Answered with the page itself, not a redirect: the secret must not travel in a URL.
  router.post(
    '/orgs/:orgId/previews/keys',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const created = await createPreviewKey(
        { actor: visitor.actor, organizationId: organization.id, name: field(req, 'name') },
        ctx.domain,
      );
      await renderPreviews(res, visitor, organization, {
        notice: null,
        created: { name: created.key.name, secret: created.secret },
      });
    }),
  );

  router.post(
    '/orgs/:orgId/previews/keys/:keyId/revoke',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      await revokePreviewKey(
        { actor: visitor.actor, organizationId: organization.id, keyId: String(req.params.keyId) },
        ctx.domain,
      );
      res.redirect(303, `${base(organization.id)}?notice=preview-key-revoked`);
    }),
  );

  return router;
}
