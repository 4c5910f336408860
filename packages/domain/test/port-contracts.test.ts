import { randomUUID } from 'node:crypto';
import {
  apiTokensContract,
  applicationGrantsContract,
  ciTrustPoliciesContract,
  auditTrailContract,
  auditedContentContract,
  auditedSetupContract,
  componentAppsContract,
  createInMemoryCredentials,
  createInMemoryOidcStorage,
  createInMemoryRepositories,
  credentialsContract,
  environmentProtectionContract,
  grantLookupContract,
  grantLookupFromMap,
  invitationsContract,
  membersContract,
  InMemoryState,
  ManualClock,
  oidcStorageContract,
  previewKeysContract,
  releaseCountsContract,
  releaseRequestsContract,
  uploadSweepContract,
} from '../src/testing/index.js';
import type { GrantOwner, Role } from '../src/index.js';

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

describe('in-memory audit trail', () => {
  const repos = createInMemoryRepositories();
  auditTrailContract(() => ({
    trail: repos.auditTrail,
    anOrganization: async () => randomUUID(),
    record: async (...events) => repos.state.recordAudit(...events),
  }));
});

describe('in-memory invitations', () => {
  const repos = createInMemoryRepositories();
  invitationsContract(() => ({
    repos,
    auditOf: async (organizationId) =>
      repos.state.auditEvents
        .filter((e) => e.organizationId === organizationId)
        .map(({ kind, actorId, subjectUserId, details }) => ({ kind, actorId, subjectUserId, details })),
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
  }));
});

describe('in-memory audited writes', () => {
  const repos = createInMemoryRepositories();
  const subject = () => ({
    repos,
    grants: createInMemoryOidcStorage(undefined, repos.state),
    addMember: async (userId: string, organizationId: string, role: Role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
    auditEvents: async (organizationId: string) =>
      repos.state.auditEvents.filter((event) => event.organizationId === organizationId),
  });
  describe('uploads, tags, flows', () => auditedContentContract(subject));
  describe('environments, preview access, applications', () => auditedSetupContract(subject));
});
describe('in-memory members', () => {
  const repos = createInMemoryRepositories();
  membersContract(() => ({
    repos,
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role, joinedAt: new Date('2026-05-06T07:08:09.000Z') });
    },
    setDefault: async (userId, organizationId) => {
      repos.state.users = repos.state.users.map((u) => (u.id === userId ? { ...u, defaultOrganizationId: organizationId } : u));
    },
    auditEvents: async (organizationId) => repos.state.auditEvents.filter((e) => e.organizationId === organizationId),
  }));
});

/** A component with two variants (sequence 1, 2), written straight into the in-memory state. */
const aComponentIn = (repos: ReturnType<typeof createInMemoryRepositories>) => async (organizationId: string, createdBy: string) => {
  const id = randomUUID();
  const now = new Date();
  repos.state.components.push({ id, organizationId, name: `c-${id}`, description: '', tags: [], variantsCount: 2, createdAt: now, updatedAt: now });
  const variants = [randomUUID(), randomUUID()] as [string, string];
  variants.forEach((variantId, index) =>
    repos.state.variants.push({ id: variantId, componentId: id, sequence: index + 1, objectKey: variantId, size: 1, sha256: '', integrity: '', createdBy, createdAt: now }),
  );
  return { id, variants };
};

describe('in-memory release requests', () => {
  const repos = createInMemoryRepositories();
  releaseRequestsContract(() => ({
    repos,
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
    aComponent: aComponentIn(repos),
    auditOf: async (componentId) =>
      repos.state.auditEvents
        .filter((e) => e.componentId === componentId && e.kind.startsWith('release.'))
        .map(({ kind, actorId, details }) => ({ kind, actorId, details })),
  }));
});

describe('in-memory release counts', () => {
  const repos = createInMemoryRepositories();
  releaseCountsContract(() => ({ repos, aComponent: aComponentIn(repos) }));
});

describe('in-memory component apps', () => {
  const repos = createInMemoryRepositories();
  componentAppsContract(() => ({
    repos,
    addMember: async (userId, organizationId, role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
    aComponent: async (organizationId, createdBy) => {
      const { id, variants } = await aComponentIn(repos)(organizationId, createdBy);
      const third = { ...repos.state.variants.find((v) => v.id === variants[1])!, id: randomUUID(), sequence: 3 };
      repos.state.variants.push({ ...third, objectKey: third.id });
      return { id, variants: [...variants, third.id] };
    },
    auditOf: async (componentId) =>
      repos.state.auditEvents.filter((e) => e.componentId === componentId).map(({ kind, actorId, details }) => ({ kind, actorId, details })),
    webhookEventsOf: async (organizationId) =>
      repos.state.webhookEvents.filter((e) => e.organizationId === organizationId).map(({ type, data }) => ({ type, data })),
  }));
});

describe('in-memory API tokens and CI trust policies', () => {
  const repos = createInMemoryRepositories();
  const subject = () => ({
    repos,
    grants: createInMemoryOidcStorage(undefined, repos.state),
    addMember: async (userId: string, organizationId: string, role: Role) => {
      repos.state.memberships.push({ userId, organizationId, role });
    },
    auditEvents: async (organizationId: string) => repos.state.auditEvents.filter((event) => event.organizationId === organizationId),
  });
  describe('ApiTokens', () => apiTokensContract(subject));
  describe('CiTrustPolicies', () => ciTrustPoliciesContract(subject));
});
