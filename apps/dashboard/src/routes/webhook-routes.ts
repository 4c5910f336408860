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
import { field } from '@cp/web-forms';
import { Router, type Request, type Response } from 'express';
import { webhookEndpointPage } from '../pages/webhook-endpoint-page.js';
import { webhooksPage } from '../pages/webhooks-page.js';
import { formBody, notice, page, sendPage, type RouteContext, type Visitor, organizationOf } from './context.js';

/** Checkbox groups arrive as one string or a list. */
const fieldList = (req: Request, name: string): string[] => {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
};

/** Webhook endpoints (owners and admins: the use cases refuse the others): list, add (secret shown once), change, rotate, delete, redeliver. */
export function webhookRoutes(ctx: RouteContext): Router {
  const router = Router();
  const base = (orgId: string) => `/orgs/${orgId}/webhooks`;
  const deps = { ...ctx.domain, webhookUrls: ctx.webhookUrls };
  const ids = (req: Request, visitor: Visitor) => ({
    actor: visitor.actor,
    organizationId: organizationOf(req, visitor).id,
    endpointId: String(req.params.endpointId),
  });

  const renderList = async (
    res: Response,
    visitor: Visitor,
    organization: MemberOrganization,
    extra: { notice: string | null; created?: { url: string; secret: string } },
  ) => {
    const endpoints = await listWebhookEndpoints(
      { actor: visitor.actor, organizationId: organization.id },
      ctx.domain,
    );
    sendPage(
      res,
      200,
      webhooksPage({ organization, endpoints, chrome: visitor.chrome(organization.id), ...extra }),
    );
  };
  const renderEndpoint = async (
    req: Request,
    res: Response,
    visitor: Visitor,
    extra: { notice: string | null; rotatedSecret?: string },
  ) => {
    const organization = organizationOf(req, visitor);
    const { endpoint, attempts } = await getWebhookEndpoint(ids(req, visitor), ctx.domain);
    sendPage(
      res,
      200,
      webhookEndpointPage({
        organization,
        endpoint,
        attempts,
        chrome: visitor.chrome(organization.id),
        ...extra,
      }),
    );
  };

  router.get(
    '/orgs/:orgId/webhooks',
    page(ctx, async (req, res, visitor) =>
      renderList(res, visitor, organizationOf(req, visitor), { notice: notice(req) }),
    ),
  );

  // Answered with the page itself, not a redirect: the secret must not travel in a URL.
  router.post(
    '/orgs/:orgId/webhooks',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const organization = organizationOf(req, visitor);
      const input = {
        actor: visitor.actor,
        organizationId: organization.id,
        url: field(req, 'url'),
        eventTypes: fieldList(req, 'eventTypes'),
        enabled: field(req, 'enabled') === 'on',
      };
      const { endpoint, secret } = await createWebhookEndpoint(input, deps);
      await renderList(res, visitor, organization, {
        notice: null,
        created: { url: endpoint.url, secret },
      });
    }),
  );

  router.get(
    '/orgs/:orgId/webhooks/:endpointId',
    page(ctx, async (req, res, visitor) =>
      renderEndpoint(req, res, visitor, { notice: notice(req) }),
    ),
  );

  router.post(
    '/orgs/:orgId/webhooks/:endpointId',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const input = {
        ...ids(req, visitor),
        eventTypes: fieldList(req, 'eventTypes'),
        enabled: field(req, 'enabled') === 'on',
      };
      const updated = await updateWebhookEndpoint(input, ctx.domain);
      res.redirect(303, `${base(updated.organizationId)}/${updated.id}?notice=webhook-saved`);
    }),
  );

  router.post(
    '/orgs/:orgId/webhooks/:endpointId/enable',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const updated = await updateWebhookEndpoint(
        { ...ids(req, visitor), enabled: true },
        ctx.domain,
      );
      res.redirect(303, `${base(updated.organizationId)}/${updated.id}?notice=webhook-enabled`);
    }),
  );

  router.post(
    '/orgs/:orgId/webhooks/:endpointId/rotate',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const { secret } = await rotateWebhookSecret(ids(req, visitor), ctx.domain);
      await renderEndpoint(req, res, visitor, { notice: null, rotatedSecret: secret });
    }),
  );

  router.post(
    '/orgs/:orgId/webhooks/:endpointId/delete',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const input = ids(req, visitor);
      await deleteWebhookEndpoint(input, ctx.domain);
      res.redirect(303, `${base(input.organizationId)}?notice=webhook-deleted`);
    }),
  );

  router.post(
    '/orgs/:orgId/webhooks/:endpointId/messages/:messageId/redeliver',
    formBody,
    page(ctx, async (req, res, visitor) => {
      const input = { ...ids(req, visitor), messageId: String(req.params.messageId) };
      await redeliverWebhookMessage(input, ctx.domain);
      res.redirect(
        303,
        `${base(input.organizationId)}/${input.endpointId}?notice=webhook-redelivered`,
      );
    }),
  );

  return router;
}
