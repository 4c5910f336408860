import { randomUUID } from 'node:crypto';
import { connectedApplications, createOidcStorage } from '../src/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('connected applications', (db) => {
  it('lists an account\'s grants with client names and scopes, hides first-party clients, revokes only its own', async () => {
    const storage = createOidcStorage(db().prisma);
    const accountId = randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    await storage.adapterFor('Client').upsert('cursor', { client_id: 'cursor', client_name: 'Cursor' });
    const cursor = randomUUID();
    const nameless = randomUUID();
    const dashboard = randomUUID();
    const foreign = randomUUID();
    await storage.adapterFor('Grant').upsert(cursor, { jti: cursor, kind: 'Grant', accountId, clientId: 'cursor', iat, resources: { 'http://localhost:4100/mcp': 'mcp:read mcp:write' } }, 3600);
    await storage.adapterFor('Grant').upsert(nameless, { jti: nameless, kind: 'Grant', accountId, clientId: 'gone', iat: iat - 10, openid: { scope: 'openid' } }, 3600);
    await storage.adapterFor('Grant').upsert(dashboard, { jti: dashboard, kind: 'Grant', accountId, clientId: 'dashboard', iat, openid: { scope: 'openid' } }, 3600);
    await storage.adapterFor('Grant').upsert(foreign, { jti: foreign, kind: 'Grant', accountId: randomUUID(), clientId: 'cursor', iat }, 3600);
    await storage.adapterFor('RefreshToken').upsert(randomUUID(), { grantId: cursor, iat }, 3600);

    const apps = connectedApplications(storage, { hiddenClientIds: ['dashboard'], clientNames: { static: 'Configured' } });
    const listed = await apps.list(accountId);
    expect(listed.map((app) => [app.clientName, app.scopes])).toEqual([
      ['Cursor', ['mcp:read', 'mcp:write']],
      ['Unnamed application (gone)', ['openid']],
    ]);
    expect(listed[0]!.lastUsedAt).toEqual(new Date(iat * 1000));

    expect(await apps.revoke(accountId, dashboard)).toBe(false);
    expect(await apps.revoke(accountId, foreign)).toBe(false);
    expect(await apps.revoke(accountId, cursor)).toBe(true);
    expect((await apps.list(accountId)).map((app) => app.grantId)).toEqual([nameless]);
    expect(await storage.adapterFor('Grant').find(dashboard)).toBeDefined();
    expect(await storage.adapterFor('Grant').find(foreign)).toBeDefined();
  });
});
