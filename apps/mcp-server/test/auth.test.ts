import { randomUUID } from 'node:crypto';
import { SignJWT, base64url } from 'jose';
import { Scope, type ToolScope } from '../src/auth/scopes.js';
import { TOOLS } from '../src/tools/registry.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

let domain: TestDomain;
let h: Harness;

beforeAll(async () => {
  domain = await createTestDomain();
  // A 1 s grant cache and no JWKS cooldown keep the revocation and rotation tests fast.
  h = await startHarness({ domain: domain.deps, grantCacheSeconds: 1, jwksCooldownMs: 0 });
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const metadata = () => `${h.baseUrl}/.well-known/oauth-protected-resource/mcp`;
const invalidTokenChallenge = (description: string) =>
  `Bearer error="invalid_token", error_description="${description}", resource_metadata="${metadata()}", scope="mcp:read mcp:write"`;

async function expectInvalidToken(token: string, description: string): Promise<void> {
  const { status, headers, json } = await rpc(h.mcpUrl, toolCall('whoami'), { token });
  expect(status).toBe(401);
  expect(headers.get('www-authenticate')).toBe(invalidTokenChallenge(description));
  expect(json.error).toEqual({ code: -32001, message: `Unauthorized: ${description} Reconnect to obtain a fresh token.` });
}

describe('a valid token', () => {
  test('is accepted by the SDK client', async () => {
    const user = await aUser(h.domain);
    const client = await h.connect(await h.tokenFor(user));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ success: true, authenticated: true, userId: user.id, email: user.email, scope: 'mcp:read mcp:write', credential: null });
  });

  test('with an audience list that contains the resource is accepted', async () => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user, { aud: ['https://other.example', h.mcpUrl] }) });
    expect(status).toBe(200);
  });
});

describe('every 401', () => {
  test('no token', async () => {
    const { status, headers } = await rpc(h.mcpUrl, toolCall('whoami'));
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata()}", scope="mcp:read mcp:write"`);
  });

  test('a token in the query string is ignored', async () => {
    const token = await h.tokenFor(await aUser(h.domain));
    const { status } = await rpc(`${h.mcpUrl}?access_token=${token}`, toolCall('whoami'));
    expect(status).toBe(401);
  });

  test('a non-Bearer Authorization header', async () => {
    const { status, headers } = await rpc(h.mcpUrl, toolCall('whoami'), { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe(invalidTokenChallenge('The Authorization header must be "Bearer <access token>".'));
  });

  test('garbage', async () => {
    await expectInvalidToken('not-a-jwt', 'The access token signature or format is invalid.');
  });

  test('a bad signature (a key the issuer never published, same kid)', async () => {
    const user = await aUser(h.domain);
    const good = await h.tokenFor(user);
    const forged = await h.issuer.foreignKey();
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(good.split('.')[0]!))) as { kid: string };
    const token = await h.issuer.sign({ sub: user.id, key: { ...forged, kid: header.kid } });
    await expectInvalidToken(token, 'The access token signature or format is invalid.');
  });

  test('a tampered payload', async () => {
    const user = await aUser(h.domain);
    const [head, , signature] = (await h.tokenFor(user, { scope: 'mcp:read' })).split('.');
    const payload = base64url.encode(JSON.stringify({ sub: user.id, scope: 'mcp:read mcp:write' }));
    await expectInvalidToken(`${head}.${payload}.${signature}`, 'The access token signature or format is invalid.');
  });

  test('an unknown signing key', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.issuer.sign({ sub: user.id, key: await h.issuer.foreignKey() }), 'The access token signature or format is invalid.');
  });

  test('alg: none', async () => {
    const user = await aUser(h.domain);
    const now = Math.floor(Date.now() / 1000);
    const head = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }));
    const payload = base64url.encode(
      JSON.stringify({ iss: h.issuer.issuer, aud: h.mcpUrl, sub: user.id, scope: 'mcp:read mcp:write', exp: now + 600, iat: now, jti: randomUUID(), client_id: 'c', grantId: 'g' }),
    );
    await expectInvalidToken(`${head}.${payload}.`, 'The access token is signed with an algorithm that is not accepted.');
  });

  test('HS256 signed with the public key (algorithm confusion)', async () => {
    const user = await aUser(h.domain);
    const jwks = (await (await fetch(h.issuer.jwksUrl)).json()) as { keys: { kid: string }[] };
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ scope: 'mcp:read', client_id: 'c', grantId: 'g' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwks.keys[0]!.kid })
      .setIssuer(h.issuer.issuer)
      .setAudience(h.mcpUrl)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
    await expectInvalidToken(token, 'The access token is signed with an algorithm that is not accepted.');
  });

  test('a wrong audience', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { aud: 'http://localhost:9999/mcp' }), 'The access token was not issued for this resource.');
  });

  test('a wrong issuer', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { iss: 'http://evil.example' }), 'The access token was not issued by the expected authorization server.');
  });

  test('an expired token', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { expiresIn: -60 }), 'The access token has expired.');
  });

  test('an ID token or other JWT (typ is not at+jwt)', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { typ: 'JWT' }), 'The token is not an access token (typ must be at+jwt).');
  });

  test('a token without a grant id', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { grantId: null }), 'The access token has an invalid "grantId" claim.');
  });

  test('a grant that never existed', async () => {
    const user = await aUser(h.domain);
    await expectInvalidToken(await h.tokenFor(user, { grantId: randomUUID() }), 'The authorization for this token was revoked.');
  });

  test('a revoked grant stops working within the cache time (<= 30 s; 1 s here)', async () => {
    const user = await aUser(h.domain);
    const grantId = randomUUID();
    h.issuer.grants.set(grantId, { accountId: user.id, clientId: 'test-client' });
    const token = await h.tokenFor(user, { grantId });
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token })).status).toBe(200);
    h.issuer.grants.delete(grantId);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expectInvalidToken(token, 'The authorization for this token was revoked.');
  });

  test("a token naming another user's grant (signed correctly) is refused", async () => {
    const [owner, other] = [await aUser(h.domain), await aUser(h.domain)];
    const grantId = randomUUID();
    h.issuer.grants.set(grantId, { accountId: owner.id, clientId: 'test-client' });
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(owner, { grantId }) })).status).toBe(200);
    await expectInvalidToken(await h.tokenFor(other, { grantId }), "The access token's grant does not belong to this user and client.");
  });

  test("a token naming another client's grant (signed correctly) is refused", async () => {
    const user = await aUser(h.domain);
    const grantId = randomUUID();
    h.issuer.grants.set(grantId, { accountId: user.id, clientId: 'claude' });
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user, { grantId, clientId: 'claude' }) })).status).toBe(200);
    await expectInvalidToken(await h.tokenFor(user, { grantId, clientId: 'cursor' }), "The access token's grant does not belong to this user and client.");
  });

  test('a user that does not exist', async () => {
    await expectInvalidToken(await h.issuer.sign({ sub: randomUUID() }), 'The user of this token no longer exists.');
  });
});

describe('keys', () => {
  test('a token signed with a newly published key is accepted (JWKS refetched on an unknown kid)', async () => {
    const user = await aUser(h.domain);
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user) })).status).toBe(200);
    await h.issuer.rotateKey();
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user) })).status).toBe(200);
  });
});

describe('the verified-token cache is capped at MCP_TOKEN_CACHE_SECONDS', () => {
  // A harness of its own: its token cache runs on a clock the test moves, and its JWKS
  // is fetched again on every verification, so re-verifying is visible at the issuer.
  let capped: Harness;
  let clock = Date.now();
  const CAP = 300;
  beforeAll(async () => {
    capped = await startHarness({ domain: domain.deps, tokenCacheSeconds: CAP, jwksMaxAgeMs: 0, jwksCooldownMs: 0, now: () => clock });
  });
  afterAll(async () => {
    await capped.close();
  });
  const call = async (token: string) => rpc(capped.mcpUrl, toolCall('whoami'), { token });

  test('a cached token is verified again after the cap, although it lives longer', async () => {
    const token = await capped.tokenFor(await aUser(capped.domain), { expiresIn: 30 * 24 * 3600 });
    expect((await call(token)).status).toBe(200);
    const fetches = capped.issuer.jwksFetches;
    clock += (CAP - 1) * 1000;
    expect((await call(token)).status).toBe(200);
    expect(capped.issuer.jwksFetches).toBe(fetches);
    clock += 1000;
    expect((await call(token)).status).toBe(200);
    expect(capped.issuer.jwksFetches).toBe(fetches + 1);
  });

  test('a token whose signing key was removed from the JWKS is refused once the cap has passed', async () => {
    const token = await capped.tokenFor(await aUser(capped.domain), { expiresIn: 30 * 24 * 3600 });
    expect((await call(token)).status).toBe(200);
    const retired = capped.issuer.currentKid;
    await capped.issuer.rotateKey();
    capped.issuer.removeKey(retired);
    // Within the cap the cached verification still answers (the documented bound)...
    clock += (CAP - 1) * 1000;
    expect((await call(token)).status).toBe(200);
    // ...after it, the signature is checked against the keys published now.
    clock += 1000;
    const refused = await call(token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="The access token signature or format is invalid."');
    // Tokens signed with the new key are accepted.
    expect((await call(await capped.tokenFor(await aUser(capped.domain)))).status).toBe(200);
  });
});

describe('scopes', () => {
  // Every tool, by the scope its definition declares (tools/define.ts): the gate answers before any argument is read.
  const toolsNeeding = (scope: ToolScope): string[] => TOOLS.filter((tool) => tool.scope === scope).map((tool) => tool.name);

  test.each(toolsNeeding(Scope.Write))('a read-only token calling %s gets 403 insufficient_scope', async (name) => {
    const user = await aUser(h.domain);
    const { status, headers, json } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:read' }) });
    expect(status).toBe(403);
    expect(headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="mcp:read mcp:write", resource_metadata="${metadata()}"`);
    expect(json.error).toEqual({
      code: -32003,
      message: 'Forbidden: this needs the mcp:write scope, which this connection was not granted. Reconnect and allow mcp:write.',
    });
  });

  test.each(toolsNeeding(Scope.Read))('a write-only token calling %s gets 403 (write does not imply read)', async (name) => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:write' }) });
    expect(status).toBe(403);
  });

  test.each(toolsNeeding(Scope.Read))('a read-only token may call %s (the tool answers)', async (name) => {
    const user = await aUser(h.domain);
    const { status, json } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:read' }) });
    expect(status).toBe(200);
    expect(json.error).toBeUndefined();
    expect(json.result.structuredContent).toHaveProperty('success');
  });

  test.each([...toolsNeeding(Scope.Read), ...toolsNeeding(Scope.Write)])('%s without a token answers 401', async (name) => {
    const { status, headers } = await rpc(h.mcpUrl, toolCall(name));
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata()}", scope="mcp:read mcp:write"`);
  });

  test.each(toolsNeeding('public'))('%s is answered without a token', async (name) => {
    const { status, json } = await rpc(h.mcpUrl, toolCall(name));
    expect(status).toBe(200);
    expect(json.result.isError).toBeUndefined();
  });

  test('every tool is in one of these lists', () => {
    expect([...toolsNeeding(Scope.Read), ...toolsNeeding(Scope.Write), ...toolsNeeding('public')]).toHaveLength(TOOLS.length);
  });

  test('a read-only token lists tools and reads', async () => {
    const user = await aUser(h.domain);
    const client = await h.connect(await h.tokenFor(user, { scope: 'mcp:read' }));
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    expect((await client.callTool({ name: 'list_organizations', arguments: {} })).isError).toBeUndefined();
  });

  test('a token without any MCP scope cannot even initialize', async () => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: await h.tokenFor(user, { scope: 'openid' }) });
    expect(status).toBe(403);
  });

  test('a token with any scope may still call the public tool', async () => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, toolCall('get_service_guide'), { token: await h.tokenFor(user, { scope: '' }) });
    expect(status).toBe(200);
  });
});

describe('authorization server unavailable', () => {
  test('tokens cannot be checked: 503 with Retry-After, not a 401 that would start a new sign-in', async () => {
    const other = await createTestDomain();
    const down = await startHarness({ domain: other.deps });
    const token = await down.tokenFor(await aUser(other.deps));
    await down.issuer.close();
    const { status, headers, json } = await rpc(down.mcpUrl, toolCall('whoami'), { token });
    expect(status).toBe(503);
    expect(headers.get('retry-after')).toBe('5');
    expect(json.error.message).toBe('The authorization server is unavailable; retry in a few seconds.');
    await down.close().catch(() => undefined);
    await other.close();
  });
});
