import { exportBaseUrl, organizationFolder } from '@cp/consume';
import {
  getStaticExport,
  invalidInput,
  setStaticExport,
} from '@cp/domain';
import { field } from '@cp/web-forms';
import { Router } from 'express';
import { staticExportPage } from '../pages/static-export-page.js';
import { formBody, notice, page, sendPage, type RouteContext, organizationOf } from './context.js';

/** The static export for CDNs: owners and admins turn it on or off and see how it went. */
export function staticExportRoutes(ctx: RouteContext): Router {
  const router = Router();
  const { prefix, publicUrl } = ctx.config.staticExport;

  router.get(
    '/orgs/:orgId/export',
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const state = await getStaticExport(
        { actor: visitor.actor, organizationId: organization.id },
        ctx.domain,
      );
      const baseUrl = publicUrl === null ? null : exportBaseUrl(publicUrl, prefix, organization.id);
      const folder = organizationFolder(prefix, organization.id);
      sendPage(
        res,
        200,
        staticExportPage({
          organization,
          state,
          baseUrl,
          folder,
          chrome: visitor.chrome(organization.id),
          notice: notice(req),
        }),
      );
    }),
  );

  router.post(
    '/orgs/:orgId/export',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const value = field(req, 'enabled');
      if (value !== 'on' && value !== 'off') throw invalidInput('enabled', 'send "on" or "off".');
      const before = await getStaticExport(
        { actor: visitor.actor, organizationId: organization.id },
        ctx.domain,
      );
      await setStaticExport(
        { actor: visitor.actor, organizationId: organization.id, enabled: value === 'on' },
        ctx.domain,
      );
      const shown = value === 'off' ? 'export-off' : before.enabled ? 'export-again' : 'export-on';
      res.redirect(303, `/orgs/${organization.id}/export?notice=${shown}`);
    }),
  );

  return router;
}
