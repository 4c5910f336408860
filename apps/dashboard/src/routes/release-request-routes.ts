import { approveReleaseRequest, declineReleaseRequest, listReleaseRequests } from '@cp/domain';
import { field } from '@cp/web-forms';
import { Router } from 'express';
import { releaseRequestsPage } from '../pages/release-requests-page.js';
import { formBody, notice, page, safeReturnTo, sendPage, type RouteContext } from './context.js';

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

  router.post(
    '/release-requests/:id/approve',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const { request } = await approveReleaseRequest(
        { actor: visitor.actor, requestId: String(req.params.id) },
        ctx.domain,
      );
      res.redirect(303, `${back(field(req, 'back'), request.componentId)}?notice=request-approved`);
    }),
  );

  router.post(
    '/release-requests/:id/decline',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const { request } = await declineReleaseRequest(
        { actor: visitor.actor, requestId: String(req.params.id), reason: field(req, 'reason') },
        ctx.domain,
      );
      res.redirect(303, `${back(field(req, 'back'), request.componentId)}?notice=request-declined`);
    }),
  );

  return router;
}

/** Back to the page the form was on (a path of this site only), else the component's page. */
const back = (value: string, componentId: string): string => {
  const path = safeReturnTo(value);
  return path === '/' || path.includes('?') ? `/component/${componentId}` : path;
};
