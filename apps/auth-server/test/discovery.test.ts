import { startAuthServer, type AuthHarness } from './support/harness.js';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth.close());

test('health', async () => {
  const res = await fetch(`${auth.issuer}/`);
  expect(res.status).toBe(200);
  const body: unknown = await res.json();
  expect(body).toEqual({ status: 'ok', version: expect.any(String), server: 'component-platform-auth' });
});

test.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])('discovery at %s', async (path) => {
  const res = await fetch(`${auth.issuer}${path}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { issuer: string };
  expect(body.issuer).toBe(auth.issuer);
});
