import { AuditKind } from '../src/entities/audit-event.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { Limits } from '../src/rules/limits.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { createWebhookEndpoint } from '../src/use-cases/webhooks/create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from '../src/use-cases/webhooks/delete-webhook-endpoint.js';
import { getWebhookEndpoint } from '../src/use-cases/webhooks/get-webhook-endpoint.js';
import { listWebhookEndpoints } from '../src/use-cases/webhooks/list-webhook-endpoints.js';
import { updateWebhookEndpoint } from '../src/use-cases/webhooks/update-webhook-endpoint.js';
import { aUser } from './builders.js';

// The webhook use cases over the in-memory repositories; the URL rule is a stand-in that refuses
// one host (the real rule: packages/http-runtime/test/outbound-url.test.ts).
async function setup() {
  const base = inMemoryDeps();
  const deps = {
    ...base.deps,
    webhookUrls: {
      check: async (url: string) => (url.includes('internal') ? 'its host is internal.' : null),
    },
  };
  const owner = await aUser(base.deps);
  const member = await aUser(base.deps);
  base.repos.state.memberships.push({
    userId: member.user.id,
    organizationId: owner.organizationId,
    role: 'member',
  });
  const outsider = await aUser(base.deps);
  return { ...base, deps, owner, member, outsider };
}
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
  );

test('an owner adds an endpoint with a whsec_ secret, lists it without the secret, changes and deletes it, each audited', async () => {
  const { deps, owner, repos } = await setup();
  const input = { actor: owner.actor, organizationId: owner.organizationId };
  const { endpoint, secret } = await createWebhookEndpoint(
    {
      ...input,
      url: ' https://example.com/hooks#frag ',
      eventTypes: ['release.published', 'component.created'],
      enabled: true,
    },
    deps,
  );
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(endpoint).toMatchObject({
    url: 'https://example.com/hooks',
    eventTypes: ['component.created', 'release.published'],
    enabled: true,
    disabled: null,
  });
  expect(JSON.stringify(await listWebhookEndpoints(input, deps))).not.toContain(secret);
  expect(
    (await updateWebhookEndpoint({ ...input, endpointId: endpoint.id, enabled: false }, deps))
      .enabled,
  ).toBe(false);
  expect((await getWebhookEndpoint({ ...input, endpointId: endpoint.id }, deps)).attempts).toEqual(
    [],
  );
  await deleteWebhookEndpoint({ ...input, endpointId: endpoint.id }, deps);
  expect(await listWebhookEndpoints(input, deps)).toEqual([]);
  expect(repos.state.auditEvents.map((e) => e.kind)).toEqual(
    expect.arrayContaining([
      AuditKind.WebhookEndpointCreated,
      AuditKind.WebhookEndpointChanged,
      AuditKind.WebhookEndpointDeleted,
    ]),
  );
  expect(JSON.stringify(repos.state.auditEvents)).not.toContain(secret);
});

test('members are refused naming the roles that can; another organization is not found; the URL rule and the limit hold', async () => {
  const { deps, owner, member, outsider } = await setup();
  const as = (actor: { userId: string }) => ({
    actor,
    organizationId: owner.organizationId,
    url: 'https://example.com/',
    eventTypes: ['component.created'],
    enabled: true,
  });
  expect(await refusal(createWebhookEndpoint(as(member.actor), deps))).toBe(
    `${ErrorCode.Forbidden}: Your role in this organization is member: only owners and admins can manage webhooks. Ask an owner or admin for a role that can.`,
  );
  expect(
    await refusal(
      listWebhookEndpoints({ actor: member.actor, organizationId: owner.organizationId }, deps),
    ),
  ).toMatch(/^FORBIDDEN/);
  expect(await refusal(createWebhookEndpoint(as(outsider.actor), deps))).toMatch(/^NOT_FOUND/);
  expect(
    await refusal(
      createWebhookEndpoint({ ...as(owner.actor), url: 'https://internal.example/' }, deps),
    ),
  ).toBe(`${ErrorCode.InvalidInput}: url: its host is internal.`);
  expect(
    await refusal(createWebhookEndpoint({ ...as(owner.actor), url: 'ftp://example.com/' }, deps)),
  ).toBe(`${ErrorCode.InvalidInput}: url: the URL must start with https://.`);
  expect(await refusal(createWebhookEndpoint({ ...as(owner.actor), eventTypes: [] }, deps))).toBe(
    `${ErrorCode.InvalidInput}: eventTypes: choose at least one event type.`,
  );
  const results = await Promise.all(
    Array.from({ length: 40 }, () => refusal(createWebhookEndpoint(as(owner.actor), deps))),
  );
  expect(results.filter((r) => r === 'resolved')).toHaveLength(
    Limits.webhookEndpointsPerOrganization,
  );
  expect(new Set(results.filter((r) => r !== 'resolved'))).toEqual(
    new Set([
      `${ErrorCode.LimitReached}: The organization already has ${Limits.webhookEndpointsPerOrganization} webhook endpoints: delete one it no longer uses, then add this one.`,
    ]),
  );
});
