import { grantLookupContract } from '@cp/domain/testing';
import { createGrantLookup } from '../src/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('grant lookup', (db) => {
  const now = new Date('2026-07-01T12:00:00Z');
  const expiresAt = {
    live: new Date(now.getTime() + 60_000),
    forever: null,
    expired: new Date(now.getTime() - 1),
  };

  // Rows written as oidc-provider's storage holds them (tokens carry their grant's id).
  grantLookupContract(() => ({
    lookup: createGrantLookup(db().prisma, { now: () => now }),
    store: async (id, lifetime, owner, type = 'Grant') => {
      await db().prisma.oidcPayload.create({
        data: {
          id,
          type,
          payload: { jti: id, kind: type, accountId: owner.accountId, clientId: owner.clientId },
          expiresAt: expiresAt[lifetime],
          grantId: type === 'Grant' ? null : id,
        },
      });
    },
    revoke: async (id) => {
      await db().prisma.oidcPayload.delete({ where: { id_type: { id, type: 'Grant' } } });
    },
  }));
});
