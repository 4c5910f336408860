import { exportBaseUrl, organizationFolder } from '@cp/consume';
import { getStaticExport, setStaticExport } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { onOff } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { staticExportPage } from '../pages/static-export-page.js';
import type { RouteContext } from './context.js';

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

const staticExportPages = [
  definePage({
    path: '/orgs/:orgId/export',
    view: async ({ actor, visitor, organization, notice }, ctx) => {
      const { prefix, publicUrl } = ctx.config.staticExport;
      return staticExportPage({
        organization,
        state: await getStaticExport({ actor, organizationId: organization.id }, ctx.domain),
        baseUrl: publicUrl === null ? null : exportBaseUrl(publicUrl, prefix, organization.id),
        folder: organizationFolder(prefix, organization.id),
        chrome: visitor.chrome(organization.id),
        notice,
      });
    },
  }),
];

/** The static export for CDNs: owners and admins turn it on or off and see how it went. */
export function staticExportRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, staticExportPages), ctx, staticExportActions);
}
