import { randomUUID } from 'node:crypto';
import {
  applicationGrantsContract,
  createInMemoryCredentials,
  createInMemoryRepositories,
  createInMemoryOidcStorage,
  credentialsContract,
  grantLookupContract,
  grantLookupFromSet,
  InMemoryState,
  ManualClock,
  oidcStorageContract,
  previewKeysContract,
} from '../src/testing/index.js';

// The in-memory implementations the apps' tests use, held to the same contracts as packages/db's.

describe('in-memory OIDC storage', () => {
  const clock = new ManualClock();
  const storage = createInMemoryOidcStorage(clock);
  const subject = () => ({ storage, grants: storage, advance: (seconds: number) => clock.advance(seconds), now: () => clock.now() });
  describe('OidcStorage', () => oidcStorageContract(subject));
  describe('ApplicationGrants', () => applicationGrantsContract(subject));
});

describe('in-memory credentials', () => {
  const credentials = createInMemoryCredentials(new InMemoryState());
  credentialsContract(() => ({ credentials, aUser: async () => randomUUID() }));
});

describe('grant lookup from a Set', () => {
  // The Set holds the grants that exist: an expired grant, or another model's row, is simply not in it.
  const grants = new Set<string>();
  grantLookupContract(() => ({
    lookup: grantLookupFromSet(grants),
    store: async (id, lifetime, model = 'Grant') => {
      if (model === 'Grant' && lifetime !== 'expired') grants.add(id);
    },
    revoke: async (id) => {
      grants.delete(id);
    },
  }));
});

describe('in-memory preview keys', () => {
  const repos = createInMemoryRepositories();
  previewKeysContract(() => ({
    previewKeys: repos.previewKeys,
    anOrganization: async () => ({ organizationId: randomUUID(), userId: randomUUID() }),
  }));
});
