import { createGrantLookup } from '../src/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('grant lookup', (db) => {
  const now = new Date('2026-07-01T12:00:00Z');
  const store = (id: string, type: string, expiresAt: Date | null) =>
    db().prisma.oidcPayload.create({
      data: { id, type, payload: { jti: id }, expiresAt, grantId: type === 'Grant' ? null : id },
    });

  beforeAll(async () => {
    await store('live', 'Grant', new Date(now.getTime() + 60_000));
    await store('forever', 'Grant', null);
    await store('gone', 'Grant', new Date(now.getTime() - 1));
    await store('token', 'AccessToken', new Date(now.getTime() + 60_000));
  });

  it('knows unexpired grants and nothing else', async () => {
    const grants = createGrantLookup(db().prisma, { now: () => now });
    expect(await grants.exists('live')).toBe(true);
    expect(await grants.exists('forever')).toBe(true);
    expect(await grants.exists('gone')).toBe(false);
    expect(await grants.exists('token')).toBe(false);
    expect(await grants.exists('missing')).toBe(false);
    expect(await grants.exists('')).toBe(false);
  });

  it('sees a revocation (the row deleted) at once', async () => {
    await store('revoked', 'Grant', null);
    const grants = createGrantLookup(db().prisma, { now: () => now });
    expect(await grants.exists('revoked')).toBe(true);
    await db().prisma.oidcPayload.delete({ where: { id_type: { id: 'revoked', type: 'Grant' } } });
    expect(await grants.exists('revoked')).toBe(false);
  });
});
