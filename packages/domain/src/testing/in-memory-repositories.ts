import type { Component, Variant } from '../entities/component.js';
import type { Flow } from '../entities/flow.js';
import type { Membership, Organization } from '../entities/organization.js';
import type { Environment, Release, ReleaseEvent } from '../entities/release.js';
import type { UploadSession } from '../entities/upload-session.js';
import type { User } from '../entities/user.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { NewOrganization, Repositories } from '../ports/repositories.js';

/**
 * Plain-array implementations of every repository port, for domain unit tests
 * only. Each method runs without awaiting in between, so it is as atomic as the
 * port demands; the real guarantees are tested against PostgreSQL in packages/db.
 */
export function createInMemoryRepositories(): Repositories & { state: InMemoryState } {
  const state = new InMemoryState();
  const byKey = <T extends { id: string }>(rows: T[], id: string) => rows.find((row) => row.id === id) ?? null;

  const addOrganization = (organization: NewOrganization, ownerId: string, now: Date): Organization => {
    const org = { id: organization.id, name: organization.name, createdAt: now };
    state.organizations.push(org);
    state.memberships.push({ userId: ownerId, organizationId: org.id, role: 'owner' });
    for (const env of organization.environments) {
      state.environments.push({ id: env.id, organizationId: org.id, name: env.name, createdAt: now });
    }
    return org;
  };
  const envName = (id: string) => byKey(state.environments, id)?.name ?? '?';

  return {
    state,
    users: {
      async createWithOrganization({ user, organization, passwordHash, now }) {
        if (state.users.some((u) => u.email.toLowerCase() === user.email.toLowerCase())) {
          throw new DomainError(ErrorCode.NameTaken, 'An account with this email already exists.');
        }
        const created: User = { ...user, defaultOrganizationId: organization.id, createdAt: now };
        state.users.push(created);
        addOrganization(organization, user.id, now);
        if (passwordHash !== undefined) state.passwordHashes.set(user.id, passwordHash);
        return created;
      },
      findById: async (id) => byKey(state.users, id),
      findByIds: async (ids) => state.users.filter((u) => ids.includes(u.id)),
      findByEmail: async (email) => state.users.find((u) => u.email.toLowerCase() === email.toLowerCase()) ?? null,
    },
    organizations: {
      create: async ({ organization, ownerId, now }) => addOrganization(organization, ownerId, now),
      findById: async (id) => byKey(state.organizations, id),
      async listForUser(userId) {
        const user = byKey(state.users, userId);
        return state.memberships
          .filter((m) => m.userId === userId)
          .map((m) => ({ ...byKey(state.organizations, m.organizationId)!, role: m.role, isDefault: user?.defaultOrganizationId === m.organizationId }))
          .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      },
      findMembership: async (userId, organizationId) =>
        state.memberships.find((m) => m.userId === userId && m.organizationId === organizationId) ?? null,
    },
    components: {
      findById: async (id) => byKey(state.components, id),
      async findForMember(id, userId) {
        const component = byKey(state.components, id);
        const member = component && state.memberships.some((m) => m.userId === userId && m.organizationId === component.organizationId);
        return member ? component : null;
      },
      findByName: async (organizationId, name) =>
        state.components.find((c) => c.organizationId === organizationId && c.name.toLowerCase() === name.toLowerCase()) ?? null,
      async list({ organizationId, nameContains, limit, after, memberId }) {
        if (memberId !== undefined && !state.memberships.some((m) => m.userId === memberId && m.organizationId === organizationId)) return [];
        const key = (c: Component) => [c.name.toLowerCase(), c.id] as const;
        const cmp = (a: readonly [string, string], b: readonly [string, string]) =>
          a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
        return state.components
          .filter((c) => c.organizationId === organizationId)
          .filter((c) => !nameContains || c.name.toLowerCase().includes(nameContains.toLowerCase()))
          .filter((c) => !after || cmp(key(c), [after.nameKey, after.id]) > 0)
          .sort((a, b) => cmp(key(a), key(b)))
          .slice(0, limit);
      },
      async editTags(id, edit, { now, maxTags }) {
        const index = state.components.findIndex((c) => c.id === id);
        const current = state.components[index];
        if (!current) return null;
        const tags =
          edit.kind === 'set'
            ? [...edit.tags]
            : [...current.tags, ...edit.add.filter((t) => !current.tags.includes(t))].filter((t) => !edit.remove.includes(t));
        if (tags.length > maxTags) throw new DomainError(ErrorCode.TooManyTags, `At most ${maxTags} tags.`);
        const updated = { ...current, tags, updatedAt: now };
        state.components[index] = updated;
        return updated;
      },
      listRecentlyUpdated: async ({ organizationId, nameContains, tag, limit, offset }) =>
        state.components
          .filter((c) => c.organizationId === organizationId)
          .filter((c) => !nameContains || c.name.toLowerCase().includes(nameContains.toLowerCase()))
          .filter((c) => tag === undefined || c.tags.includes(tag))
          .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(offset, offset + limit),
    },
    variants: {
      findById: async (id) => byKey(state.variants, id),
      findLatest: async (componentId) =>
        state.variants.filter((v) => v.componentId === componentId).sort((a, b) => b.sequence - a.sequence)[0] ?? null,
      listForComponent: async (componentId, { limit, beforeSequence }) =>
        state.variants
          .filter((v) => v.componentId === componentId && (beforeSequence === undefined || v.sequence < beforeSequence))
          .sort((a, b) => b.sequence - a.sequence)
          .slice(0, limit),
    },
    uploadSessions: {
      async create(session) {
        state.uploadSessions.push(session);
      },
      findById: async (id) => byKey(state.uploadSessions, id),
      async confirm({ sessionId, now, newComponent, componentId, variant }) {
        const index = state.uploadSessions.findIndex((s) => s.id === sessionId);
        const session = state.uploadSessions[index]!;
        if (session.state !== 'pending') return { recorded: false, session };
        if (newComponent) {
          const taken = state.components.some(
            (c) => c.organizationId === newComponent.organizationId && c.name.toLowerCase() === newComponent.name.toLowerCase(),
          );
          if (taken) throw new DomainError(ErrorCode.NameTaken, `A component named "${newComponent.name}" already exists.`);
          state.components.push({ ...newComponent, tags: [], variantsCount: 0, createdAt: now, updatedAt: now });
        }
        const componentIndex = state.components.findIndex((c) => c.id === componentId);
        const component = state.components[componentIndex]!;
        const sequence = component.variantsCount + 1;
        state.components[componentIndex] = { ...component, variantsCount: sequence, updatedAt: now };
        state.variants.push({ ...variant, componentId, sequence, createdAt: now });
        const confirmed: UploadSession = {
          ...session,
          state: 'confirmed',
          result: {
            componentId,
            componentName: component.name,
            variantId: variant.id,
            variantSequence: sequence,
            organizationId: component.organizationId,
            isNewComponent: newComponent !== null,
          },
        };
        state.uploadSessions[index] = confirmed;
        return { recorded: true, session: confirmed };
      },
      listExpired: async (now, limit) =>
        state.uploadSessions
          .filter((s) => s.state === 'pending' && s.expiresAt < now)
          .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
          .slice(0, limit),
      async markExpired(id) {
        const index = state.uploadSessions.findIndex((s) => s.id === id && s.state === 'pending');
        if (index < 0) return false;
        state.uploadSessions[index] = { ...state.uploadSessions[index]!, state: 'expired' };
        return true;
      },
    },
    environments: {
      listForOrganization: async (organizationId) =>
        state.environments.filter((e) => e.organizationId === organizationId).sort((a, b) => a.name.localeCompare(b.name)),
      findByName: async (organizationId, name) =>
        state.environments.find((e) => e.organizationId === organizationId && e.name === name) ?? null,
      async create({ id, organizationId, name, now }) {
        if (state.environments.some((e) => e.organizationId === organizationId && e.name === name)) {
          throw new DomainError(ErrorCode.NameTaken, `Environment "${name}" already exists.`);
        }
        const environment = { id, organizationId, name, createdAt: now };
        state.environments.push(environment);
        return environment;
      },
      async rename(id, name) {
        const index = state.environments.findIndex((e) => e.id === id);
        const current = state.environments[index];
        if (!current) return null;
        if (state.environments.some((e) => e.organizationId === current.organizationId && e.name === name && e.id !== id)) {
          throw new DomainError(ErrorCode.NameTaken, `Environment "${name}" already exists.`);
        }
        const renamed = { ...current, name };
        state.environments[index] = renamed;
        return renamed;
      },
      async remove(id) {
        const index = state.environments.findIndex((e) => e.id === id);
        if (index < 0) return 'missing';
        if (state.releases.some((r) => r.environmentId === id) || state.releaseEvents.some((e) => e.environmentId === id)) return 'in-use';
        state.environments.splice(index, 1);
        return 'removed';
      },
    },
    releases: {
      async publish({ eventId, componentId, environmentId, variantId, releasedBy, now }) {
        const index = state.releases.findIndex((r) => r.componentId === componentId && r.environmentId === environmentId);
        const previous = state.releases[index];
        const release: Release = { componentId, environmentId, environmentName: envName(environmentId), variantId, releasedBy, releasedAt: now };
        if (index >= 0) state.releases[index] = release;
        else state.releases.push(release);
        const event: ReleaseEvent = { ...release, id: eventId, previousVariantId: previous?.variantId ?? null };
        state.releaseEvents.push(event);
        return event;
      },
      listCurrent: async (componentId) =>
        state.releases.filter((r) => r.componentId === componentId).sort((a, b) => a.environmentName.localeCompare(b.environmentName)),
      findCurrent: async (componentId, environmentId) =>
        state.releases.find((r) => r.componentId === componentId && r.environmentId === environmentId) ?? null,
      async history(componentId, { limit, before, after }) {
        // Newest first: latest releasedAt, then the later insertion (as the database's seq).
        const events = state.releaseEvents
          .map((event, seq) => ({ event, seq }))
          .filter(({ event }) => event.componentId === componentId)
          .sort((a, b) => b.event.releasedAt.getTime() - a.event.releasedAt.getTime() || b.seq - a.seq)
          .map(({ event }) => event);
        const cursor = before ?? after;
        if (cursor === undefined) return events.slice(0, limit);
        const at = events.findIndex((e) => e.id === cursor);
        if (at < 0) throw new DomainError(ErrorCode.NotFound, `Release event "${cursor}" was not found, or you do not have access to it.`);
        return before !== undefined ? events.slice(at + 1, at + 1 + limit) : events.slice(Math.max(0, at - limit), at);
      },
    },
    flows: {
      async create({ id, organizationId, name, componentIds, now }) {
        const flow: Flow = { id, organizationId, name, status: 'draft', componentIds, createdAt: now, updatedAt: now };
        state.flows.push(flow);
        return flow;
      },
      findById: async (id) => byKey(state.flows, id),
      setComponents: async (id, componentIds, now) => updateFlow(state, id, { componentIds, updatedAt: now }),
      async editComponents(id, edit, now) {
        const flow = byKey(state.flows, id);
        return flow && updateFlow(state, id, { componentIds: [...edit(flow.componentIds)], updatedAt: now });
      },
      setStatus: async (id, status, now) => updateFlow(state, id, { status, updatedAt: now }),
      listForOrganization: async (organizationId) =>
        state.flows
          .filter((f) => f.organizationId === organizationId)
          .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id)),
    },
  };
}

function updateFlow(state: InMemoryState, id: string, change: Partial<Flow>): Flow | null {
  const index = state.flows.findIndex((f) => f.id === id);
  if (index < 0) return null;
  const updated = { ...state.flows[index]!, ...change };
  state.flows[index] = updated;
  return updated;
}

export class InMemoryState {
  users: User[] = [];
  organizations: Organization[] = [];
  memberships: Membership[] = [];
  components: Component[] = [];
  variants: Variant[] = [];
  uploadSessions: UploadSession[] = [];
  environments: Environment[] = [];
  releases: Release[] = [];
  releaseEvents: ReleaseEvent[] = [];
  flows: Flow[] = [];
  passwordHashes = new Map<string, string>();
}
