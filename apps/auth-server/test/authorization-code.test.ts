import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange } from './support/flow.js';
import { generateSigningKey } from '../src/keys/signing-keys.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, decodeJwt, tokenRequest } from './support/oauth-client.js';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth.close());

test('code flow: JWT access token for the MCP resource, refresh token, iss in the response', async () => {
  const user = await aUser(auth);
  const client = await aPublicClient(auth.issuer);
  const browser = new FormBrowser();
  const flow = await authorizeCode(browser, auth, client, user);
  expect(flow.callback.origin + flow.callback.pathname).toBe('http://localhost:33418/callback');
  expect(flow.callback.searchParams.get('iss')).toBe(auth.issuer);
  expect(flow.callback.searchParams.get('state')).toBe('st4te');

  const tokens = await exchange(auth, client, flow);
  expect(tokens.status).toBe(200);
  expect(tokens.json).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write', refresh_token: expect.any(String) });
  const jwks = createLocalJWKSet((await (await fetch(`${auth.issuer}/jwks`)).json()) as JSONWebKeySet);
  const { payload, protectedHeader } = await jwtVerify(tokens.json.access_token, jwks, {
    issuer: auth.issuer,
    audience: auth.config.mcpResourceUrl,
    typ: 'at+jwt',
    algorithms: ['ES256'],
  });
  expect(protectedHeader.kid).toBe(auth.signingKeys[0]!.kid);
  expect(payload).toMatchObject({ sub: user.id, scope: 'mcp:read mcp:write', client_id: client.client_id, grantId: expect.any(String) });
  expect(payload.exp! - payload.iat!).toBe(30 * 24 * 60 * 60);

  const refreshed = await tokenRequest(auth.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.json.refresh_token });
  expect(refreshed.status).toBe(200);
  expect(refreshed.json.refresh_token).not.toBe(tokens.json.refresh_token);
});

test('key rotation: every listed key is published, only the first signs', async () => {
  const [current, next] = [await generateSigningKey(), await generateSigningKey()];
  for (const keys of [[current, next], [next, current]]) {
    const rotating = await startAuthServer({ signingKeys: keys });
    try {
      const jwks = (await (await fetch(`${rotating.issuer}/jwks`)).json()) as JSONWebKeySet;
      expect(jwks.keys.map((key) => key.kid).sort()).toEqual([current.kid, next.kid].sort());
      expect(jwks.keys.every((key) => key.d === undefined)).toBe(true);
      const client = await aPublicClient(rotating.issuer);
      const flow = await authorizeCode(new FormBrowser(), rotating, client, await aUser(rotating));
      const { json } = await exchange(rotating, client, flow);
      expect(decodeJwt(json.access_token).header.kid).toBe(keys[0]!.kid);
    } finally {
      await rotating.close();
    }
  }
});
