import { randomUUID } from 'node:crypto';
import { createCredentials, createOidcStorage } from '../src/index.js';
import { aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('oidc storage', (db) => {
  let now = new Date('2026-07-01T12:00:00.000Z');
  const clock = { now: () => now };
  const storage = () => createOidcStorage(db().prisma, clock);
  const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

  it('stores, finds, replaces and destroys a payload per model', async () => {
    const sessions = storage().adapterFor('Session');
    const id = randomUUID();
    await sessions.upsert(id, { jti: id, uid: `uid-${id}`, accountId: 'a', kind: 'Session', nested: { list: [1, 'two'] } }, 3600);
    expect(await sessions.find(id)).toEqual({ jti: id, uid: `uid-${id}`, accountId: 'a', kind: 'Session', nested: { list: [1, 'two'] } });
    expect(await sessions.findByUid(`uid-${id}`)).toMatchObject({ jti: id });
    // Same id, another model: a separate row.
    expect(await storage().adapterFor('Interaction').find(id)).toBeUndefined();
    await sessions.upsert(id, { jti: id, uid: `uid-${id}`, accountId: 'b' }, 3600);
    expect(await sessions.find(id)).toEqual({ jti: id, uid: `uid-${id}`, accountId: 'b' });
    await sessions.destroy(id);
    expect(await sessions.find(id)).toBeUndefined();
    expect(await sessions.findByUid(`uid-${id}`)).toBeUndefined();
  });

  it('finds by user code, and hides expired rows until they are purged', async () => {
    const codes = storage().adapterFor('DeviceCode');
    const id = randomUUID();
    await codes.upsert(id, { jti: id, userCode: `UC-${id}` }, 60);
    expect(await codes.findByUserCode(`UC-${id}`)).toMatchObject({ jti: id });
    now = new Date(now.getTime() + 61_000);
    expect(await codes.find(id)).toBeUndefined();
    expect(await codes.findByUserCode(`UC-${id}`)).toBeUndefined();
    expect(await storage().purgeExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await db().prisma.oidcPayload.count({ where: { id } })).toBe(0);
  });

  it('keeps rows without a lifetime (registered clients)', async () => {
    const clients = storage().adapterFor('Client');
    await clients.upsert('client-1', { client_id: 'client-1', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] });
    await storage().purgeExpired(new Date('2999-01-01T00:00:00Z'));
    expect(await clients.find('client-1')).toMatchObject({ client_id: 'client-1' });
  });

  it('consumes once, atomically, and reports consumption in the payload', async () => {
    const tokens = storage().adapterFor('RefreshToken');
    const id = randomUUID();
    await tokens.upsert(id, { jti: id, grantId: 'g-consume' }, 3600);
    const results = await Promise.all(Array.from({ length: 5 }, () => tokens.consume(id)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await tokens.find(id)).toMatchObject({ jti: id, consumed: epoch(now) });
    expect(await tokens.consume('missing')).toBe(false);
  });

  it('revokes by grant id per model, and a whole grant with everything under it', async () => {
    const s = storage();
    const grantId = randomUUID();
    await s.adapterFor('Grant').upsert(grantId, { jti: grantId, accountId: 'acc-revoke', clientId: 'c' }, 3600);
    await s.adapterFor('RefreshToken').upsert('rt-1', { jti: 'rt-1', grantId }, 3600);
    await s.adapterFor('AuthorizationCode').upsert('code-1', { jti: 'code-1', grantId }, 60);
    await s.adapterFor('RefreshToken').upsert('rt-other', { jti: 'rt-other', grantId: 'another' }, 3600);

    await s.adapterFor('AuthorizationCode').revokeByGrantId(grantId);
    expect(await s.adapterFor('AuthorizationCode').find('code-1')).toBeUndefined();
    expect(await s.adapterFor('RefreshToken').find('rt-1')).toBeDefined();

    await s.revokeGrant(grantId);
    expect(await s.adapterFor('Grant').find(grantId)).toBeUndefined();
    expect(await s.adapterFor('RefreshToken').find('rt-1')).toBeUndefined();
    expect(await s.adapterFor('RefreshToken').find('rt-other')).toBeDefined();
  });

  it('lists an account grants, newest first, with the last token issue time', async () => {
    const s = storage();
    const accountId = randomUUID();
    const older = randomUUID();
    const newer = randomUUID();
    const iat = epoch(now);
    await s.adapterFor('Grant').upsert(older, { jti: older, kind: 'Grant', accountId, clientId: 'cursor', iat: iat - 100, resources: { 'http://localhost:4100/mcp': 'mcp:read' } }, 3600);
    await s.adapterFor('Grant').upsert(newer, { jti: newer, kind: 'Grant', accountId, clientId: 'claude', iat, openid: { scope: 'openid mcp:read' }, resources: {} }, 3600);
    await s.adapterFor('Grant').upsert(randomUUID(), { accountId: 'someone-else', clientId: 'x', iat }, 3600);
    await s.adapterFor('AuthorizationCode').upsert(randomUUID(), { grantId: older, iat: iat - 90 }, 60);
    await s.adapterFor('RefreshToken').upsert(randomUUID(), { grantId: older, iat: iat - 10 }, 3600);

    const grants = await s.listGrants(accountId);
    expect(grants.map((grant) => grant.grantId)).toEqual([newer, older]);
    expect(grants[1]).toEqual({
      grantId: older,
      accountId,
      clientId: 'cursor',
      resources: { 'http://localhost:4100/mcp': 'mcp:read' },
      openidScope: null,
      grantedAt: new Date((iat - 100) * 1000),
      lastUsedAt: new Date((iat - 10) * 1000),
      expiresAt: new Date(now.getTime() + 3600_000),
    });
    expect(grants[0]).toMatchObject({ clientId: 'claude', openidScope: 'openid mcp:read', lastUsedAt: null });
  });
});

describeEachBackend('credentials', (db) => {
  it('stores and replaces a password hash; none for unknown or malformed ids', async () => {
    const credentials = createCredentials(db().prisma);
    const { user } = await aUserWithOrganization(db().repos);
    expect(await credentials.findPasswordHash(user.id)).toBeNull();
    await credentials.setPasswordHash(user.id, 'scrypt$15$8$1$a$b', new Date('2026-01-01T00:00:00Z'));
    await credentials.setPasswordHash(user.id, 'scrypt$15$8$1$c$d', new Date('2026-01-02T00:00:00Z'));
    expect(await credentials.findPasswordHash(user.id)).toBe('scrypt$15$8$1$c$d');
    expect(await credentials.findPasswordHash(randomUUID())).toBeNull();
    expect(await credentials.findPasswordHash('not-a-uuid')).toBeNull();
  });
});
