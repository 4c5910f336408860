/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf } from '@cp/db/testing';
import type { ActingCredential, Component, CredentialScope, User } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';

/*
 * Tokens exchanged for an API token or a CI token carry `cp_credential` (docs/cli-and-ci.md). The
 * auth server's exchange is tested in apps/auth-server; here the test issuer signs such tokens, and
 * the MCP server must hand the narrowing to the domain: the rules themselves are tested once, in
 * packages/domain; this proves the claim reaches them and the audit row says how the change was made.
 */
let domain: TestDomain;
let h: Harness;
let admin: User;
let organizationId: string;
let allowed: Component;
let other: Component;

const via = { via: 'api-token', tokenId: '7b0f3d0c-1f0e-4c55-9f57-0b7c0c1c2d3e', tokenName: 'nightly' } as const;
const scopeOf = (overrides: Partial<CredentialScope> = {}): CredentialScope => ({
  organizationId,
  componentIds: [allowed.id],
  environments: ['staging', 'prod'],
  access: 'write',
  protectedEnvironments: false,
  ...overrides,
});
const connectWith = async (credential: ActingCredential, scope = 'mcp:read mcp:write'): Promise<Client> =>
  h.connect(await h.tokenFor(admin, { scope, clientId: 'cpc', claims: { cp_credential: credential } }));

type Result = { structuredContent?: Record<string, any>; isError?: boolean; content?: { text: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const errorText = (result: Result) => result.content?.[0]?.text ?? '';

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  const owner = await aUser(h.domain);
  organizationId = owner.defaultOrganizationId;
  admin = await aMemberOf(domain.database, organizationId, 'admin');
  allowed = await aComponent(domain.deps.repos, { organizationId, createdBy: owner.id, name: 'Allowed' });
  other = await aComponent(domain.deps.repos, { organizationId, createdBy: owner.id, name: 'Other' });
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

test('whoami shows the credential a connection acts through', async () => {
  const client = await connectWith({ scope: scopeOf(), via });
  const result = await call(client, 'whoami', {});
  expect(result.structuredContent?.credential).toEqual({ ...scopeOf(), via });
});

test("a component outside the credential's list is FORBIDDEN, naming the credential", async () => {
  const client = await connectWith({ scope: scopeOf(), via });
  const result = await call(client, 'publish_component', { componentId: other.id, environment: 'staging' });
  expect(result.isError).toBe(true);
  expect(errorText(result)).toMatch(/FORBIDDEN/);
  expect(errorText(result)).toMatch(/nightly/);
});

test('a protected environment becomes a release request unless the credential allows it, even for an admin', async () => {
  const narrowed = await connectWith({ scope: scopeOf(), via });
  const requested = await call(narrowed, 'publish_component', { componentId: allowed.id, environment: 'prod' });
  expect(requested.isError).toBeFalsy();
  expect(requested.structuredContent?.status).toBe('pending_approval');

  const trusted = await connectWith({ scope: scopeOf({ protectedEnvironments: true }), via });
  const released = await call(trusted, 'publish_component', { componentId: allowed.id, environment: 'prod' });
  expect(released.isError).toBeFalsy();
  expect(released.structuredContent?.status).not.toBe('pending_approval');
});

test('the audit row of a change made through a credential says so', async () => {
  const client = await connectWith({ scope: scopeOf(), via });
  const result = await call(client, 'publish_component', { componentId: allowed.id, environment: 'staging' });
  expect(result.isError).toBeFalsy();
  const events = await domain.deps.repos.auditTrail.list(organizationId, { componentId: allowed.id, limit: 10 });
  expect(events.find((event) => event.kind === 'release.published' && event.details.environment === 'staging')?.via).toEqual(via);
});

test('a token whose cp_credential claim is malformed is refused, not read as unnarrowed', async () => {
  const token = await h.tokenFor(admin, { clientId: 'cpc', claims: { cp_credential: { scope: { organizationId } } } });
  const res = await fetch(h.mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/cp_credential/);
});
