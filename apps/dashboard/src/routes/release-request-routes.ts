import { approveReleaseRequest, declineReleaseRequest, listReleaseRequests } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../actions/define-action.js';
import { text } from '../actions/form-input.js';
import { mountActions } from '../actions/mount-actions.js';
import { releaseRequestsPage } from '../pages/release-requests-page.js';
import { notice, page, safeReturnTo, sendPage, type RouteContext } from './context.js';

/** Back to the page the form was on (a path of this site only), else the component's page. */
const back = (value: string, componentId: string): string => {
  const path = safeReturnTo(value);
  return path === '/' || path.includes('?') ? `/component/${componentId}` : path;
};

/** Owners' and admins' decisions, from the organization's list or a component's page. */
const releaseRequestActions = [
  defineAction({
    path: '/release-requests/:id/approve',
    input: z.object({ back: text }),
    run: ({ actor, params }, ctx) => approveReleaseRequest({ actor, requestId: params.id }, ctx.domain),
    done: ({ request }, { input }) => ({ to: back(input.back, request.componentId), notice: 'request-approved' }),
  }),
  defineAction({
    path: '/release-requests/:id/decline',
    input: z.object({ back: text, reason: text }),
    run: ({ actor, params, input }, ctx) => declineReleaseRequest({ actor, requestId: params.id, reason: input.reason }, ctx.domain),
    done: ({ request }, { input }) => ({ to: back(input.back, request.componentId), notice: 'request-declined' }),
  }),
];

/** Release requests: the organization's list, and owners' and admins' decisions (POST, CSRF). */
export function releaseRequestRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get(
    '/orgs/:orgId/release-requests',
    page(ctx, async (req, res, visitor) => {
      const organizationId = String(req.params.orgId);
      const list = await listReleaseRequests({ actor: visitor.actor, organizationId }, ctx.domain);
      sendPage(
        res,
        200,
        releaseRequestsPage(list, visitor.chrome(organizationId), notice(req), organizationId),
      );
    }),
  );

  return mountActions(router, ctx, releaseRequestActions);
}
