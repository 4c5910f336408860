import { exportBaseUrl, organizationFolder } from '@cp/consume';
import { getStaticExport, setStaticExport } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../actions/define-action.js';
import { onOff } from '../actions/form-input.js';
import { mountActions } from '../actions/mount-actions.js';
import { staticExportPage } from '../pages/static-export-page.js';
import { notice, page, sendPage, type RouteContext, organizationOf } from './context.js';

const staticExportActions = [
  defineAction({
    path: '/orgs/:orgId/export',
    input: z.object({ enabled: onOff }),
    run: async ({ actor, organization, input }, ctx) => {
      const scope = { actor, organizationId: organization.id };
      const before = await getStaticExport(scope, ctx.domain);
      await setStaticExport({ ...scope, enabled: input.enabled }, ctx.domain);
      return before;
    },
    done: (before, { organization, input }) => ({
      to: `/orgs/${organization.id}/export`,
      notice: !input.enabled ? 'export-off' : before.enabled ? 'export-again' : 'export-on',
    }),
  }),
];

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

  return mountActions(router, ctx, staticExportActions);
}
