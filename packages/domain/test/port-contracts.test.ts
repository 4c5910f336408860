import { randomUUID } from 'node:crypto';
import {
  applicationGrantsContract,
  createInMemoryCredentials,
  createInMemoryOidcStorage,
  createInMemoryRepositories,
  credentialsContract,
  environmentProtectionContract,
  grantLookupContract,
  grantLookupFromMap,
  InMemoryState,
  ManualClock,
  oidcStorageContract,
  previewKeysContract,
  releaseRequestsContract,
  uploadSweepContract,
} from '../src/testing/index.js';
import type { GrantOwner } from '../src/index.js';

// The in-memory implementations the apps' tests use, held to the same contracts as packages/db's.

describe('in-memory OIDC storage', () => {
  const clock = new ManualClock();
  const storage = createInMemoryOidcStorage(clock);
  const subject = () => ({
    storage,
    grants: storage,
    advance: (seconds: number) => clock.advance(seconds),
    now: () => clock.now(),
  });
  describe('OidcStorage', () => oidcStorageContract(subject));
  describe('ApplicationGrants', () => applicationGrantsContract(subject));
});

describe('in-memory credentials', () => {
  const credentials = createInMemoryCredentials(new InMemoryState());
  credentialsContract(() => ({ credentials, aUser: async () => randomUUID() }));
});

describe('grant lookup from a Map', () => {
  // The Map holds the grants that exist: an expired grant, or another model's row, is simply not in it.
  const grants = new Map<string, GrantOwner>();
  grantLookupContract(() => ({
    lookup: grantLookupFromMap(grants),
    store: async (id, lifetime, owner, model = 'Grant') => {
      if (model === 'Grant' && lifetime !== 'expired') grants.set(id, owner);
    },
    revoke: async (id) => {
      grants.delete(id);
    },
  }));
});

describe('in-memory environments and organizations', () => {
  const repos = createInMemoryRepositories();
  environmentProtectionContract(() => ({
    repos,
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
  }));
});

describe('in-memory upload sessions', () => {
  const repos = createInMemoryRepositories();
  uploadSweepContract(() => ({
    sessions: repos.uploadSessions,
    aSession: async (expiresAt) => {
      const id = randomUUID();
      const session = {
        id,
        userId: randomUUID(),
        organizationId: randomUUID(),
        componentId: null,
        componentName: `component ${id}`,
        stagingKey: `uploads/${id}/index.html`,
        state: 'pending' as const,
        expiresAt,
        createdAt: new Date(expiresAt.getTime() - 3_600_000),
        result: null,
        stagingRemovedAt: null,
      };
      await repos.uploadSessions.create(session);
      return session;
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

describe('in-memory release requests', () => {
  const repos = createInMemoryRepositories();
  releaseRequestsContract(() => ({
    repos,
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
    aComponent: async (organizationId, createdBy) => {
      const id = randomUUID();
      const now = new Date();
      repos.state.components.push({ id, organizationId, name: `c-${id}`, description: '', tags: [], variantsCount: 2, createdAt: now, updatedAt: now });
      const variants = [randomUUID(), randomUUID()] as [string, string];
      variants.forEach((variantId, index) =>
        repos.state.variants.push({ id: variantId, componentId: id, sequence: index + 1, objectKey: variantId, size: 1, sha256: '', integrity: '', createdBy, createdAt: now }),
      );
      return { id, variants };
    },
    auditOf: async (componentId) =>
      repos.state.auditEvents
        .filter((e) => e.componentId === componentId)
        .map(({ kind, actorId, details }) => ({ kind, actorId, details })),
  }));
});
