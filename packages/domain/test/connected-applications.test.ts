import { randomUUID } from 'node:crypto';
import { listConnectedApplications, revokeConnectedApplication } from '../src/index.js';
import { createInMemoryOidcStorage, createInMemoryRepositories, ManualClock } from '../src/testing/index.js';

describe('connected applications', () => {
  it("lists an account's grants with client names and scopes, hides first-party clients, revokes only its own", async () => {
    const { state } = createInMemoryRepositories();
    const clock = new ManualClock();
    const storage = createInMemoryOidcStorage(clock, state);
    const deps = { grants: storage, firstPartyClientIds: ['dashboard'], clock, ids: { newId: randomUUID } };
    const accountId = randomUUID();
    const organizationId = randomUUID();
    state.memberships.push({ userId: accountId, organizationId, role: 'viewer' });
    const actor = { userId: accountId };
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

    const listed = await listConnectedApplications({ actor }, deps);
    expect(listed.map((app) => [app.clientName, app.scopes])).toEqual([
      ['Cursor', ['mcp:read', 'mcp:write']],
      ['Unnamed application (gone)', ['openid']],
    ]);
    expect(listed[0]!.lastUsedAt).toEqual(new Date(iat * 1000));

    expect(await revokeConnectedApplication({ actor, grantId: dashboard }, deps)).toBe('not-connected');
    expect(await revokeConnectedApplication({ actor, grantId: foreign }, deps)).toBe('not-connected');
    expect(await revokeConnectedApplication({ actor, grantId: cursor }, deps)).toBe('revoked');
    expect((await listConnectedApplications({ actor }, deps)).map((app) => app.grantId)).toEqual([nameless]);
    expect(await storage.adapterFor('Grant').find(dashboard)).toBeDefined();
    expect(await storage.adapterFor('Grant').find(foreign)).toBeDefined();
    // Only the revocation that happened is recorded, with the name the person saw.
    expect(state.auditEvents).toEqual([
      expect.objectContaining({
        organizationId,
        actorId: accountId,
        kind: 'application.revoked',
        details: { clientId: 'cursor', clientName: 'Cursor' },
        createdAt: clock.now(),
      }),
    ]);
  });
});
