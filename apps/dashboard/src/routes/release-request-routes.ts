import { approveReleaseRequest, declineReleaseRequest, listReleaseRequests } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { releaseRequestsPage } from '../pages/release-requests-page.js';
import { safeReturnTo, type RouteContext } from './context.js';

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
    // What the approval did, by the request's plan: a release, an experience published, a rollout started.
    done: ({ request, applied }, { input }) => ({
      to: back(input.back, request.componentId),
      notice: applied.kind === 'experience' ? 'request-approved-experience' : applied.kind === 'rollout' ? 'request-approved-rollout' : 'request-approved',
    }),
  }),
  defineAction({
    path: '/release-requests/:id/decline',
    input: z.object({ back: text, reason: text }),
    run: ({ actor, params, input }, ctx) => declineReleaseRequest({ actor, requestId: params.id, reason: input.reason }, ctx.domain),
    done: ({ request }, { input }) => ({ to: back(input.back, request.componentId), notice: 'request-declined' }),
  }),
];

const releaseRequestPages = [
  definePage({
    path: '/orgs/:orgId/release-requests',
    view: async ({ actor, visitor, organization, notice }, ctx) => {
      const list = await listReleaseRequests({ actor, organizationId: organization.id }, ctx.domain);
      return releaseRequestsPage(list, visitor.chrome(organization.id), notice, organization.id);
    },
  }),
];

/** Release requests: the organization's list, and owners' and admins' decisions (POST, CSRF). */
export function releaseRequestRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, releaseRequestPages), ctx, releaseRequestActions);
}
