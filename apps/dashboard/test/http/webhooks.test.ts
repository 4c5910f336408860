import { randomUUID } from 'node:crypto';
import { createWebhookDeliveryStore } from '@cp/db';
import { aComponent } from '@cp/db/testing';
import { AuditKind, Limits, type Role, type User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { headline, signedInBrowser } from '../support/sign-in.js';

/*
 * Webhook endpoints over real HTTP: the owner adds one (the secret shown once), changes, rotates,
 * deletes it, each with its audit row; bad input gets its exact message; members and viewers get 403
 * with nothing changed; the limit holds under parallel creations; an endpoint the worker disabled
 * shows the notice on both pages and is enabled again from its page; recent deliveries list with
 * "Redeliver", which queues a job. Deliveries themselves: apps/worker/test/webhooks.test.ts.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const base = () => `/orgs/${orgId}/webhooks`;
const signedIn = (user: User) => signedInBrowser(stack.url, base(), user);
const endpoints = () => stack.domain.repos.webhookEndpoints.listForOrganization(orgId);
const RECEIVER = 'http://127.0.0.1:9/hooks';

async function aMemberWith(role: Role): Promise<User> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return user;
}

test('the owner adds an endpoint (secret shown once), changes it, rotates its secret and deletes it, each change audited', async () => {
  const { page, post, get } = await signedIn(owner);
  expect(page.status).toBe(200);
  expect(page.html).toContain('No endpoints yet.');

  const created = await post(base(), {
    url: RECEIVER,
    eventTypes: 'release.published',
    enabled: 'on',
  });
  expect(created.status).toBe(200);
  const secret = /id="new-secret"\s+readonly\s+value="(whsec_[A-Za-z0-9+/=]+)"/.exec(
    created.html,
  )?.[1];
  expect(Buffer.from(secret!.slice('whsec_'.length), 'base64')).toHaveLength(24);
  const [endpoint] = await endpoints();
  expect(endpoint).toMatchObject({
    url: RECEIVER,
    eventTypes: ['release.published'],
    enabled: true,
    disabled: null,
  });
  expect((await get(base())).html).not.toContain(secret!);

  const changed = await post(`${base()}/${endpoint!.id}`, { eventTypes: 'component.tags_changed' });
  expect([changed.status, changed.url]).toEqual([
    200,
    `${stack.url}${base()}/${endpoint!.id}?notice=webhook-saved`,
  ]);
  expect((await endpoints())[0]).toMatchObject({
    eventTypes: ['component.tags_changed'],
    enabled: false,
  });

  const rotated = await post(`${base()}/${endpoint!.id}/rotate`, {});
  const newSecret = /id="new-secret"\s+readonly\s+value="(whsec_[^"]+)"/.exec(rotated.html)?.[1];
  expect(newSecret).toBeDefined();
  expect(newSecret).not.toBe(secret);

  const deleted = await post(`${base()}/${endpoint!.id}/delete`, {});
  expect([deleted.status, deleted.url]).toEqual([
    200,
    `${stack.url}${base()}?notice=webhook-deleted`,
  ]);
  expect(await endpoints()).toEqual([]);

  const trail = await stack.domain.repos.auditTrail.list(orgId, { limit: 20 });
  expect(trail.map((event) => event.kind).filter((kind) => kind.startsWith('webhook.'))).toEqual([
    AuditKind.WebhookEndpointDeleted,
    AuditKind.WebhookEndpointChanged,
    AuditKind.WebhookEndpointChanged,
    AuditKind.WebhookEndpointCreated,
  ]);
  const audit = await get(`/orgs/${orgId}/audit`);
  expect(audit.html).toContain('Webhook endpoint added');
  expect(audit.html).not.toContain(secret!);
});

test.each([
  ['no event type', { url: RECEIVER }, 'eventTypes: choose at least one event type.'],
  [
    'an unknown event type',
    { url: RECEIVER, eventTypes: 'component.deleted' },
    'eventTypes: unknown event type "component.deleted": choose among component.created, variant.created, release.published, component.tags_changed, experience.published, rollout.started, rollout.advanced, rollout.promoted, rollout.stopped, rollout.rolled_back, app.saved, app.removed.',
  ],
  [
    'no URL',
    { url: '', eventTypes: 'component.created' },
    'url: give the URL the events are POSTed to, for example https://example.com/webhooks.',
  ],
  [
    'a URL too long',
    {
      url: `https://example.com/${'a'.repeat(Limits.webhookUrlMaxLength)}`,
      eventTypes: 'component.created',
    },
    `url: the URL must be at most ${Limits.webhookUrlMaxLength} characters.`,
  ],
  [
    'a private address',
    { url: 'https://10.0.0.1/hooks', eventTypes: 'component.created' },
    'url: its host resolves to 10.0.0.1, a private address: events are sent only to public addresses.',
  ],
  [
    'a link-local address (cloud metadata)',
    { url: 'https://169.254.169.254/latest', eventTypes: 'component.created' },
    'url: its host resolves to 169.254.169.254, a link-local address: events are sent only to public addresses.',
  ],
  [
    'http to a public address',
    { url: 'http://93.184.215.14/hooks', eventTypes: 'component.created' },
    'url: the URL must use https:// (plain http is allowed only for loopback receivers in development).',
  ],
  [
    'credentials in the URL',
    { url: 'https://user:pw@93.184.215.14/', eventTypes: 'component.created' },
    'url: the URL must not carry a user name or password; put a secret in the path instead, or verify the signature.',
  ],
])('refused with its message: %s', async (_case, form, message) => {
  const { post } = await signedIn(owner);
  const answer = await post(base(), form);
  expect({ status: answer.status, ...headline(answer) }).toEqual({
    status: 400,
    title: 'That did not work',
    message,
  });
  expect(await endpoints()).toEqual([]);
});

test('without the development setting (production), a loopback receiver is refused', async () => {
  const production = await startDashboardStack({ config: { webhooksAllowLoopback: false } });
  try {
    const someone = await anAccount(production.auth);
    const { post } = await signedInBrowser(
      production.url,
      `/orgs/${someone.defaultOrganizationId}/webhooks`,
      someone,
    );
    const answer = await post(`/orgs/${someone.defaultOrganizationId}/webhooks`, {
      url: RECEIVER,
      eventTypes: 'component.created',
    });
    expect({ status: answer.status, ...headline(answer) }).toEqual({
      status: 400,
      title: 'That did not work',
      message:
        'url: its host resolves to 127.0.0.1, a loopback address: events are sent only to public addresses.',
    });
  } finally {
    await production.close();
  }
}, 60_000);

test.each(['member', 'viewer'] as const)(
  'a %s gets 403 on the pages and every form, with nothing changed',
  async (role) => {
    const kept = (
      await (
        await signedIn(owner)
      ).post(base(), { url: RECEIVER, eventTypes: 'component.created', enabled: 'on' })
    ).status;
    expect(kept).toBe(200);
    const [endpoint] = await endpoints();
    const { page, post, get } = await signedIn(await aMemberWith(role));
    const refusal = {
      status: 403,
      title: 'Not allowed',
      message: `Your role in this organization is ${role}: only owners and admins can manage webhooks. Ask an owner or admin for a role that can.`,
    };
    expect({ status: page.status, ...headline(page) }).toEqual(refusal);
    expect(page.html).not.toContain(RECEIVER);
    const endpointPage = await get(`${base()}/${endpoint!.id}`);
    expect({ status: endpointPage.status, ...headline(endpointPage) }).toEqual(refusal);
    const before = await endpoints();
    for (const [path, form] of [
      [base(), { url: RECEIVER, eventTypes: 'component.created' }],
      [`${base()}/${endpoint!.id}`, { eventTypes: 'release.published' }],
      [`${base()}/${endpoint!.id}/enable`, {}],
      [`${base()}/${endpoint!.id}/rotate`, {}],
      [`${base()}/${endpoint!.id}/delete`, {}],
      [`${base()}/${endpoint!.id}/messages/msg_0/redeliver`, {}],
    ] as const) {
      const answer = await post(path, form);
      expect({ path, status: answer.status, ...headline(answer) }).toEqual({ path, ...refusal });
    }
    expect(await endpoints()).toEqual(before);
    await (await signedIn(owner)).post(`${base()}/${endpoint!.id}/delete`, {});
  },
);

test('an endpoint the worker disabled shows the notice on both pages and is enabled again from its page; deliveries list with Redeliver', async () => {
  const { post, get } = await signedIn(owner);
  await post(base(), { url: RECEIVER, eventTypes: 'component.tags_changed', enabled: 'on' });
  const [endpoint] = await endpoints();
  // A message and an attempt, as a change and the worker write them.
  const componentId = (
    await aComponent(stack.domain.repos, { organizationId: orgId, createdBy: owner.id })
  ).id;
  await stack.domain.repos.components.editTags(
    componentId,
    { kind: 'change', add: ['hooked'], remove: [] },
    { now: new Date(), maxTags: 50, audit: { eventId: randomUUID(), actorId: owner.id } },
  );
  const message = await stack.db!.prisma.webhookMessage.findFirstOrThrow({
    where: { endpointId: endpoint!.id },
  });
  const store = createWebhookDeliveryStore(stack.db!.prisma);
  await store.recordAttempt({
    id: randomUUID(),
    messageId: message.id,
    endpointId: endpoint!.id,
    attempt: 11,
    delivered: false,
    responseStatus: 503,
    durationMs: 42,
    detail: 'HTTP 503: down',
    at: new Date(),
  });
  await store.disableEndpoint(
    endpoint!.id,
    `The last of 11 attempts to deliver ${message.id} failed: HTTP 503: down`,
    new Date(),
  );

  const list = await get(base());
  expect(list.html).toContain('Deliveries stopped.');
  expect(list.html).toContain(
    `The last of 11 attempts to deliver ${message.id} failed: HTTP 503: down`,
  );
  const page = await get(`${base()}/${endpoint!.id}`);
  expect(page.html).toContain('Disabled after failed deliveries');
  expect(page.html).toContain(message.id);
  expect(page.html).toMatch(/<td>503<\/td>\s*<td>42 ms<\/td>/);

  const redeliverWhileDisabled = await post(
    `${base()}/${endpoint!.id}/messages/${message.id}/redeliver`,
    {},
  );
  expect({ status: redeliverWhileDisabled.status, ...headline(redeliverWhileDisabled) }).toEqual({
    status: 409,
    title: 'Something changed meanwhile',
    message:
      'This endpoint is disabled, so nothing is delivered to it: enable it first, then redeliver.',
  });

  const enabled = await post(`${base()}/${endpoint!.id}/enable`, {});
  expect(enabled.url).toBe(`${stack.url}${base()}/${endpoint!.id}?notice=webhook-enabled`);
  expect(enabled.html).not.toContain('Disabled after failed deliveries');
  expect((await get(base())).html).not.toContain('Deliveries stopped.');

  const jobs = async () =>
    stack.db!.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM jobs.job WHERE name = 'webhook-delivery' AND data->>'messageId' = $1`,
      message.id,
    );
  const queuedBefore = (await jobs())[0]!.n;
  const redelivered = await post(`${base()}/${endpoint!.id}/messages/${message.id}/redeliver`, {});
  expect(redelivered.url).toBe(`${stack.url}${base()}/${endpoint!.id}?notice=webhook-redelivered`);
  expect((await jobs())[0]!.n).toBe(queuedBefore + 1);
  const unknown = await post(`${base()}/${endpoint!.id}/messages/msg_unknown/redeliver`, {});
  expect(unknown.status).toBe(404);
  await post(`${base()}/${endpoint!.id}/delete`, {});
});

test(`${Limits.webhookEndpointsPerOrganization + 30} parallel creations never pass the per-organization limit`, async () => {
  const someone = await anAccount(stack.auth);
  orgId = someone.defaultOrganizationId;
  const { post } = await signedIn(someone);
  const answers = await Promise.all(
    Array.from({ length: Limits.webhookEndpointsPerOrganization + 30 }, (_, i) =>
      post(base(), { url: `${RECEIVER}/${i}`, eventTypes: 'component.created', enabled: 'on' }),
    ),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(
    Limits.webhookEndpointsPerOrganization,
  );
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused.map((a) => [a.status, headline(a).message])).toEqual(
    refused.map(() => [
      409,
      `The organization already has ${Limits.webhookEndpointsPerOrganization} webhook endpoints: delete one it no longer uses, then add this one.`,
    ]),
  );
  expect(await endpoints()).toHaveLength(Limits.webhookEndpointsPerOrganization);
}, 60_000);
