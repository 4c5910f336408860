import type { Credentials } from '../ports/credentials.js';
import type { InMemoryState } from './in-memory-state.js';

/** Over the in-memory repositories' state, where `users.createWithOrganization` stores the hash with the user. */
export function createInMemoryCredentials(state: Pick<InMemoryState, 'passwordHashes'>): Credentials {
  return {
    findPasswordHash: async (userId) => state.passwordHashes.get(userId) ?? null,
    async setPasswordHash(userId, passwordHash) {
      state.passwordHashes.set(userId, passwordHash);
    },
    async replacePasswordHash(userId, expected, passwordHash) {
      if (state.passwordHashes.get(userId) !== expected) return false;
      state.passwordHashes.set(userId, passwordHash);
      return true;
    },
  };
}
