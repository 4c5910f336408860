import { randomUUID } from 'node:crypto';
import { applicationGrantsContract, credentialsContract, ManualClock, oidcStorageContract } from '@cp/domain/testing';
import { createCredentials, createOidcStorage } from '../src/index.js';
import { aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('oidc storage', (db) => {
  const clock = new ManualClock(new Date('2026-07-01T12:00:00.000Z'));
  const subject = () => {
    const storage = createOidcStorage(db().prisma, clock);
    return { storage, grants: storage, advance: (seconds: number) => clock.advance(seconds), now: () => clock.now() };
  };

  describe('OidcStorage contract', () => oidcStorageContract(subject));
  describe('ApplicationGrants contract', () => applicationGrantsContract(subject));

  it('purging deletes the expired rows', async () => {
    const { storage } = subject();
    const id = randomUUID();
    await storage.adapterFor('DeviceCode').upsert(id, { jti: id }, 60);
    clock.advance(61);
    expect(await storage.purgeExpired(clock.now())).toBeGreaterThanOrEqual(1);
    expect(await db().prisma.oidcPayload.count({ where: { id } })).toBe(0);
  });
});

describeEachBackend('credentials', (db) => {
  credentialsContract(() => ({
    credentials: createCredentials(db().prisma),
    aUser: async () => (await aUserWithOrganization(db().repos)).user.id,
  }));
});
