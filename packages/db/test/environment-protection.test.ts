import { environmentProtectionContract } from '@cp/domain/testing';
import { aMembership } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('environment protection', (db) => {
  environmentProtectionContract(() => ({
    repos: db().repos,
    addMember: async (userId, organizationId, role) => {
      await aMembership(db(), { userId, organizationId, role });
    },
  }));
});
