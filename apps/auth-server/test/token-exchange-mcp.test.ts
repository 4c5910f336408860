/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers, checked by assertions */
import { createApiToken, createCiPolicy, deleteCiPolicy, revokeApiToken } from '@cp/domain';
import { aUserWithOrganization, createTestDatabase, type Owner, type TestDatabase } from '@cp/db/testing';
import { PRODUCTION_CI_ISSUERS } from '../src/ci/issuers.js';
import { defaultExchange } from '../src/config.js';
import { CiIssuerStandIn, githubClaims } from './support/ci-issuer.js';
import { exchangeApiToken, exchangeCiToken, uniqueNumericId } from './support/exchange.js';
import { startStack, type Stack } from './support/mcp-stack.js';

// The exchanged access token at the real MCP server: it acts through its credential, and revoking the
// credential (deleting the policy, revoking the token) stops it through the existing grant check.
let db: TestDatabase;
let stack: Stack;
let github: CiIssuerStandIn;
let owner: Owner;

beforeAll(async () => {
  db = await createTestDatabase();
  github = await CiIssuerStandIn.start();
  stack = await startStack(db, {
    grantCacheSeconds: 1,
    auth: { config: { exchange: { ...defaultExchange, ciIssuers: [...PRODUCTION_CI_ISSUERS, { issuer: github.issuer, provider: 'github' }] } } },
  });
  owner = await aUserWithOrganization(db.repos);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await github?.close();
  await db?.close();
});

const callWhoami = async (accessToken: string): Promise<{ status: number; result?: any }> => {
  const res = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status };
  const json = text.trimStart().startsWith('{') ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
  return { status: 200, result: json.result.structuredContent };
};

/** Calls whoami until it is refused, at most `withinMs` (the MCP server's grant cache is 1 s here). */
async function refusedWithin(accessToken: string, withinMs: number): Promise<number> {
  const since = Date.now();
  let { status } = await callWhoami(accessToken);
  while (status === 200 && Date.now() - since < withinMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    ({ status } = await callWhoami(accessToken));
  }
  return status;
}

test('a CI job acts through its policy at the MCP server; deleting the policy stops its access token', async () => {
  const policy = await createCiPolicy(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      name: 'web-release',
      provider: 'github',
      ownerId: uniqueNumericId(),
      repositoryId: uniqueNumericId(),
      repositoryName: 'acme/web',
      workflow: '.github/workflows/release.yml',
      scope: { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
    },
    stack.domain,
  );
  const token = await github.mint(githubClaims({ repository_owner_id: policy.ownerId, repository_id: policy.repositoryId, aud: stack.auth.issuer }));
  const { json } = await exchangeCiToken(stack.auth.issuer, token);
  const { status, result } = await callWhoami(json.access_token);
  expect(status).toBe(200);
  expect(result).toMatchObject({ userId: owner.user.id, scope: 'mcp:read mcp:write', credential: { via: { via: 'ci', policyName: 'web-release' } } });

  await deleteCiPolicy({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, policyId: policy.id }, stack.domain);
  expect(await refusedWithin(json.access_token, 10_000)).toBe(401);
}, 30_000);

test('an API token acts through itself at the MCP server; revoking it stops its access token', async () => {
  const { token, secret } = await createApiToken(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      name: 'nightly',
      scope: { componentIds: null, environments: [], access: 'read', protectedEnvironments: false },
    },
    stack.domain,
  );
  const { json } = await exchangeApiToken(stack.auth.issuer, secret);
  const { status, result } = await callWhoami(json.access_token);
  expect(status).toBe(200);
  expect(result).toMatchObject({ userId: owner.user.id, scope: 'mcp:read', credential: { via: { via: 'api-token', tokenName: 'nightly' } } });

  await revokeApiToken({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, tokenId: token.id }, stack.domain);
  expect(await refusedWithin(json.access_token, 10_000)).toBe(401);
}, 30_000);
