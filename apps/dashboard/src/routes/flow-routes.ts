import { createFlow, editFlowComponents, getFlowPage, listFlows, setFlowStatus } from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { flowPage } from '../pages/flow-page.js';
import { flowsPage } from '../pages/flows-page.js';
import type { RouteContext } from './context.js';

const flowActions = [
  defineAction({
    path: '/orgs/:orgId/flows',
    input: z.object({ name: text }),
    run: ({ actor, organization, input }, ctx) => createFlow({ actor, organizationId: organization.id, name: input.name }, ctx.domain),
    done: (flow) => ({ to: `/flows/${flow.id}`, notice: 'flow-saved' }),
  }),
  defineAction({
    path: '/flows/:flowId/components',
    input: z.object({ op: text, component: text }),
    run: ({ actor, params, input }, ctx) =>
      editFlowComponents({ actor, flowId: params.flowId, edit: input.op, componentId: input.component }, ctx.domain),
    done: (flow) => ({ to: `/flows/${flow.id}`, notice: 'flow-saved' }),
  }),
  defineAction({
    path: '/flows/:flowId/status',
    input: z.object({ status: text.transform((status) => (status === 'published' ? 'published' : 'draft')) }),
    run: ({ actor, params, input }, ctx) => setFlowStatus({ actor, flowId: params.flowId, status: input.status }, ctx.domain),
    done: (flow, { input }) => ({ to: `/flows/${flow.id}`, notice: input.status === 'published' ? 'flow-published' : 'flow-unpublished' }),
  }),
];

const flowPages = [
  definePage({
    path: '/orgs/:orgId/flows',
    view: async ({ actor, visitor, organization }, ctx) => {
      const flows = await listFlows({ actor, organizationId: organization.id }, ctx.domain);
      return flowsPage({ organizationId: organization.id, flows, role: organization.role, chrome: visitor.chrome(organization.id) });
    },
  }),
  definePage({
    path: '/flows/:flowId',
    view: async ({ actor, visitor, params, notice }, ctx) => {
      const view = await getFlowPage({ actor, flowId: params.flowId }, ctx.domain);
      const role = visitor.organizations.find((org) => org.id === view.flow.organizationId)?.role;
      return flowPage({ view, role, chrome: visitor.chrome(view.flow.organizationId), notice, deliveryUrl: ctx.config.deliveryUrl });
    },
  }),
];

/** Flows (legacy `/flow`): create, order components, publish. */
export function flowRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, flowPages), ctx, flowActions);
}
