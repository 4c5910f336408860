/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { OidcStorage } from '../../ports/oidc-storage.js';

export interface OidcStorageSubject {
  readonly storage: OidcStorage;
  /** Moves the clock the storage was made with. */
  readonly advance: (seconds: number) => void;
  readonly now: () => Date;
}

/**
 * The `OidcStorage` port's contract (oidc-provider's adapter contract plus the
 * purge), for every implementation: call it inside a describe block. `subject`
 * is called in each test, so it may read a database opened in a `beforeAll`.
 */
export function oidcStorageContract(subject: () => OidcStorageSubject): void {
  const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

  it('stores, finds, replaces and destroys a payload per model', async () => {
    const { storage } = subject();
    const sessions = storage.adapterFor('Session');
    const id = randomUUID();
    await sessions.upsert(id, { jti: id, uid: `uid-${id}`, accountId: 'a', kind: 'Session', nested: { list: [1, 'two'] } }, 3600);
    expect(await sessions.find(id)).toEqual({ jti: id, uid: `uid-${id}`, accountId: 'a', kind: 'Session', nested: { list: [1, 'two'] } });
    expect(await sessions.findByUid(`uid-${id}`)).toMatchObject({ jti: id });
    // Same id, another model: a separate row.
    expect(await storage.adapterFor('Interaction').find(id)).toBeUndefined();
    await sessions.upsert(id, { jti: id, uid: `uid-${id}`, accountId: 'b' }, 3600);
    expect(await sessions.find(id)).toEqual({ jti: id, uid: `uid-${id}`, accountId: 'b' });
    await sessions.destroy(id);
    expect(await sessions.find(id)).toBeUndefined();
    expect(await sessions.findByUid(`uid-${id}`)).toBeUndefined();
  });

  it('finds by user code, and hides expired rows until they are purged', async () => {
    const { storage, advance, now } = subject();
    const codes = storage.adapterFor('DeviceCode');
    const id = randomUUID();
    await codes.upsert(id, { jti: id, userCode: `UC-${id}` }, 60);
    expect(await codes.findByUserCode(`UC-${id}`)).toMatchObject({ jti: id });
    advance(61);
    expect(await codes.find(id)).toBeUndefined();
    expect(await codes.findByUserCode(`UC-${id}`)).toBeUndefined();
    expect(await storage.purgeExpired(now())).toBeGreaterThanOrEqual(1);
  });

  it('keeps rows without a lifetime (registered clients)', async () => {
    const { storage } = subject();
    const clients = storage.adapterFor('Client');
    await clients.upsert('client-1', { client_id: 'client-1', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] });
    await storage.purgeExpired(new Date('2999-01-01T00:00:00Z'));
    expect(await clients.find('client-1')).toMatchObject({ client_id: 'client-1' });
  });

  it('consumes once, atomically, and reports consumption in the payload', async () => {
    const { storage, now } = subject();
    const tokens = storage.adapterFor('RefreshToken');
    const id = randomUUID();
    await tokens.upsert(id, { jti: id, grantId: 'g-consume' }, 3600);
    const results = await Promise.all(Array.from({ length: 5 }, () => tokens.consume(id)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await tokens.find(id)).toMatchObject({ jti: id, consumed: epoch(now()) });
    expect(await tokens.consume('missing')).toBe(false);
  });

  it('revokes by grant id within one model only', async () => {
    const { storage } = subject();
    const grantId = randomUUID();
    await storage.adapterFor('RefreshToken').upsert(`rt-${grantId}`, { jti: `rt-${grantId}`, grantId }, 3600);
    await storage.adapterFor('AuthorizationCode').upsert(`code-${grantId}`, { jti: `code-${grantId}`, grantId }, 60);
    await storage.adapterFor('AuthorizationCode').revokeByGrantId(grantId);
    expect(await storage.adapterFor('AuthorizationCode').find(`code-${grantId}`)).toBeUndefined();
    expect(await storage.adapterFor('RefreshToken').find(`rt-${grantId}`)).toBeDefined();
  });
}
