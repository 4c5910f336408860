import { createApiToken, newApiTokenSecret, revokeApiToken } from '@cp/domain';
import { aUserWithOrganization, createTestDatabase, type Owner, type TestDatabase } from '@cp/db/testing';
import { ACCESS_TOKEN_TYPE, exchangeApiToken } from './support/exchange.js';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';
import { decodeJwt } from './support/oauth-client.js';

// API tokens at the token endpoint, over real HTTP on a real database. The domain's clock runs `ahead`
// of real time by what a test sets, so expiry is tested without waiting; oidc-provider keeps real time.
let db: TestDatabase;
let auth: AuthHarness;
let owner: Owner;
let ahead = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  const storage = databaseStorage(db);
  auth = await startAuthServer({ ...storage, domain: { ...storage.domain, clock: { now: () => new Date(Date.now() + ahead) } } });
  owner = await aUserWithOrganization(db.repos);
}, 120_000);
afterEach(() => {
  ahead = 0;
});
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

const DAY = 24 * 60 * 60 * 1000;

const aToken = (access: 'read' | 'write' = 'write', expiresInDays = 30) =>
  createApiToken(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      name: `nightly-${access}-${expiresInDays}`,
      expiresInDays,
      scope: access === 'write' ? { componentIds: null, environments: ['staging'], access, protectedEnvironments: false } : { componentIds: null, environments: [], access, protectedEnvironments: false },
    },
    auth.domain,
  );

test('an API token is exchanged for a 15-minute access token acting as its creator through the token; last_used_at is kept', async () => {
  const { token, secret } = await aToken();
  const { status, json } = await exchangeApiToken(auth.issuer, secret);
  expect(status).toBe(200);
  expect(json).toEqual({ access_token: expect.any(String), issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: 900, scope: 'mcp:read mcp:write' });
  const { payload } = decodeJwt(json.access_token);
  expect(payload).toMatchObject({ sub: owner.user.id, client_id: 'cpc', aud: auth.config.mcpResourceUrl, grantId: expect.any(String) });
  expect(payload.cp_credential).toEqual({
    scope: { organizationId: owner.organization.id, componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
    via: { via: 'api-token', tokenId: token.id, tokenName: token.name },
  });
  const listed = (await db.repos.apiTokens.listForOrganization(owner.organization.id)).find((entry) => entry.id === token.id);
  expect(listed?.lastUsedAt).toBeInstanceOf(Date);
  expect(listed?.grantId).toBe(payload.grantId);
});

test('one grant per token: a second exchange uses the same grant', async () => {
  const { secret } = await aToken('read');
  const grants = await Promise.all([exchangeApiToken(auth.issuer, secret), exchangeApiToken(auth.issuer, secret), exchangeApiToken(auth.issuer, secret)]);
  expect(new Set(grants.map((answer): unknown => decodeJwt(answer.json.access_token).payload.grantId)).size).toBe(1);
  expect(grants[0].json.scope).toBe('mcp:read');
});

test('the access token never outlives the API token', async () => {
  const { secret } = await aToken('write', 1);
  ahead = DAY - 100 * 1000;
  const { status, json } = await exchangeApiToken(auth.issuer, secret);
  expect(status).toBe(200);
  expect(json.expires_in).toBeGreaterThan(0);
  expect(json.expires_in).toBeLessThanOrEqual(100);
});

test('an expired token is refused (invalid_grant, naming it)', async () => {
  const { secret, token } = await aToken('write', 1);
  ahead = DAY + 1000;
  const { status, json } = await exchangeApiToken(auth.issuer, secret);
  expect({ status, error: json.error }).toEqual({ status: 400, error: 'invalid_grant' });
  expect(json.error_description).toContain(`'${token.name}' expired`);
});

test('a revoked token is refused, and revoking deleted its grant', async () => {
  const { secret, token } = await aToken();
  const first = await exchangeApiToken(auth.issuer, secret);
  const grantId = decodeJwt(first.json.access_token).payload.grantId as string;
  await revokeApiToken({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, tokenId: token.id }, auth.domain);
  expect(await auth.oidc.adapterFor('Grant').find(grantId)).toBeUndefined();
  const { status, json } = await exchangeApiToken(auth.issuer, secret);
  expect({ status, error: json.error }).toEqual({ status: 400, error: 'invalid_grant' });
  expect(json.error_description).toContain(`'${token.name}' was revoked`);
});

test('a token with a bad checksum, a malformed one, or an unknown one is refused', async () => {
  const { secret } = await aToken();
  const last = secret.at(-1) === 'A' ? 'B' : 'A';
  const typo = await exchangeApiToken(auth.issuer, `${secret.slice(0, -1)}${last}`);
  expect({ status: typo.status, error: typo.json.error }).toEqual({ status: 400, error: 'invalid_grant' });
  expect(typo.json.error_description).toContain('checksum');
  const malformed = await exchangeApiToken(auth.issuer, 'cpt_not-a-token');
  expect(malformed).toMatchObject({ status: 400, json: { error: 'invalid_grant', error_description: expect.stringContaining('This is not an API token') } });
  const unknown = await exchangeApiToken(auth.issuer, newApiTokenSecret());
  expect(unknown).toMatchObject({ status: 400, json: { error: 'invalid_grant', error_description: expect.stringContaining('not known') } });
  expect((await exchangeApiToken(auth.issuer, secret)).status).toBe(200);
});

test('a refusal never echoes the presented secret', async () => {
  const { secret } = await aToken();
  const bad = `${secret.slice(0, -1)}${secret.at(-1) === 'A' ? 'B' : 'A'}`;
  const { json } = await exchangeApiToken(auth.issuer, bad);
  expect(json.error_description).not.toContain(bad.slice(4, 20));
});
