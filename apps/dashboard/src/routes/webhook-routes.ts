import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  redeliverWebhookMessage,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type MemberOrganization,
} from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { checked, list, text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { webhookEndpointPage } from '../pages/webhook-endpoint-page.js';
import { webhooksPage } from '../pages/webhooks-page.js';
import type { RouteContext, Visitor } from './context.js';

const base = (orgId: string) => `/orgs/${orgId}/webhooks`;
const endpointPath = '/orgs/:orgId/webhooks/:endpointId';

async function listView(
  ctx: RouteContext,
  visitor: Visitor,
  organization: MemberOrganization,
  extra: { notice: string | null; created?: { url: string; secret: string } },
): Promise<string> {
  const endpoints = await listWebhookEndpoints({ actor: visitor.actor, organizationId: organization.id }, ctx.domain);
  return webhooksPage({ organization, endpoints, chrome: visitor.chrome(organization.id), ...extra });
}

async function endpointView(
  ctx: RouteContext,
  visitor: Visitor,
  organization: MemberOrganization,
  endpointId: string,
  extra: { notice: string | null; rotatedSecret?: string },
): Promise<string> {
  const { endpoint, attempts } = await getWebhookEndpoint({ actor: visitor.actor, organizationId: organization.id, endpointId }, ctx.domain);
  return webhookEndpointPage({ organization, endpoint, attempts, chrome: visitor.chrome(organization.id), ...extra });
}

/** The use cases' ids of the endpoint in the path. */
const endpointOf = (args: { actor: Visitor['actor']; organization: MemberOrganization; params: { endpointId: string } }) => ({
  actor: args.actor,
  organizationId: args.organization.id,
  endpointId: args.params.endpointId,
});

/** Owners and admins only: the use cases refuse the others. */
const webhookActions = [
  // Answered with the page itself, not a redirect: the secret must not travel in a URL.
  defineAction({
    path: '/orgs/:orgId/webhooks',
    input: z.object({ url: text, eventTypes: list, enabled: checked }),
    run: ({ actor, organization, input }, ctx) =>
      createWebhookEndpoint({ actor, organizationId: organization.id, ...input }, { ...ctx.domain, webhookUrls: ctx.webhookUrls }),
    done: async ({ endpoint, secret }, { visitor, organization }, ctx) => ({
      status: 200,
      page: await listView(ctx, visitor, organization, { notice: null, created: { url: endpoint.url, secret } }),
    }),
  }),
  defineAction({
    path: endpointPath,
    input: z.object({ eventTypes: list, enabled: checked }),
    run: (args, ctx) => updateWebhookEndpoint({ ...endpointOf(args), ...args.input }, ctx.domain),
    done: (updated) => ({ to: `${base(updated.organizationId)}/${updated.id}`, notice: 'webhook-saved' }),
  }),
  defineAction({
    path: `${endpointPath}/enable`,
    run: (args, ctx) => updateWebhookEndpoint({ ...endpointOf(args), enabled: true }, ctx.domain),
    done: (updated) => ({ to: `${base(updated.organizationId)}/${updated.id}`, notice: 'webhook-enabled' }),
  }),
  defineAction({
    path: `${endpointPath}/rotate`,
    run: (args, ctx) => rotateWebhookSecret(endpointOf(args), ctx.domain),
    done: async ({ secret }, { visitor, organization, params }, ctx) => ({
      status: 200,
      page: await endpointView(ctx, visitor, organization, params.endpointId, { notice: null, rotatedSecret: secret }),
    }),
  }),
  defineAction({
    path: `${endpointPath}/delete`,
    run: (args, ctx) => deleteWebhookEndpoint(endpointOf(args), ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'webhook-deleted' }),
  }),
  defineAction({
    path: `${endpointPath}/messages/:messageId/redeliver`,
    run: (args, ctx) => redeliverWebhookMessage({ ...endpointOf(args), messageId: args.params.messageId }, ctx.domain),
    done: (_, { organization, params }) => ({ to: `${base(organization.id)}/${params.endpointId}`, notice: 'webhook-redelivered' }),
  }),
];

const webhookPages = [
  definePage({
    path: '/orgs/:orgId/webhooks',
    view: ({ visitor, organization, notice }, ctx) => listView(ctx, visitor, organization, { notice }),
  }),
  definePage({
    path: endpointPath,
    view: ({ visitor, organization, params, notice }, ctx) => endpointView(ctx, visitor, organization, params.endpointId, { notice }),
  }),
];

/** Webhook endpoints: list, add (secret shown once), change, rotate, delete, redeliver. */
export function webhookRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, webhookPages), ctx, webhookActions);
}
