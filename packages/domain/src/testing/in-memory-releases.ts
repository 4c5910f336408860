import { AuditKind } from '../entities/audit-event.js';
import type { Release, ReleaseEvent } from '../entities/release.js';
import { WebhookEventType } from '../entities/webhook.js';
import { inMemoryCountPerWeek } from './in-memory-release-counts.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { protectedEnvironment, roleRefused } from '../errors/factories.js';
import type { Environments } from '../ports/environments.js';
import type { Releases } from '../ports/releases.js';
import { auditEventFor } from './in-memory-audit.js';
import { can, canPublishTo, Permission } from '../rules/roles.js';
import { endRolloutOnRelease } from './in-memory-rollout-release-end.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function inMemoryEnvironments(state: InMemoryState): Environments {
  return {
    listForOrganization: async (organizationId) =>
      state.environments
        .filter((e) => e.organizationId === organizationId)
        .sort((a, b) => a.name.localeCompare(b.name)),
    findByName: async (organizationId, name) =>
      state.environments.find((e) => e.organizationId === organizationId && e.name === name) ??
      null,
    async create({ id, organizationId, name, protected: isProtected, now, audit }) {
      if (state.environments.some((e) => e.organizationId === organizationId && e.name === name)) {
        throw new DomainError(ErrorCode.NameTaken, `Environment "${name}" already exists.`);
      }
      const environment = { id, organizationId, name, protected: isProtected, createdAt: now };
      state.environments.push(environment);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.EnvironmentCreated,
          now,
          details: { name, protected: isProtected },
        }),
      );
      return environment;
    },
    async rename(id, name, { now, audit }) {
      const index = state.environments.findIndex((e) => e.id === id);
      const current = state.environments[index];
      if (!current) return null;
      if (
        state.environments.some(
          (e) => e.organizationId === current.organizationId && e.name === name && e.id !== id,
        )
      ) {
        throw new DomainError(ErrorCode.NameTaken, `Environment "${name}" already exists.`);
      }
      const renamed = { ...current, name };
      state.environments[index] = renamed;
      if (current.name !== name) {
        state.enqueueExport(current.organizationId);
        state.recordAudit(
          auditEventFor(audit, {
            organizationId: current.organizationId,
            kind: AuditKind.EnvironmentRenamed,
            now,
            details: { before: current.name, after: name },
          }),
        );
      }
      return renamed;
    },
    async setProtected(id, isProtected, { now, audit }) {
      const index = state.environments.findIndex((e) => e.id === id);
      const current = state.environments[index];
      if (!current) return null;
      const changed = { ...current, protected: isProtected };
      state.environments[index] = changed;
      if (current.protected !== isProtected) {
        state.recordAudit(
          auditEventFor(audit, {
            organizationId: current.organizationId,
            kind: AuditKind.EnvironmentProtectionChanged,
            now,
            details: { environment: current.name, before: current.protected, after: isProtected },
          }),
        );
      }
      return changed;
    },
    async remove(id, { now, audit }) {
      const index = state.environments.findIndex((e) => e.id === id);
      const current = state.environments[index];
      if (!current) return 'missing';
      if (
        state.releases.some((r) => r.environmentId === id) ||
        state.releaseEvents.some((e) => e.environmentId === id)
      )
        return 'in-use';
      state.environments.splice(index, 1);
      // As ON DELETE CASCADE does: an app shows its environment's release.
      state.apps = state.apps.filter((app) => app.environmentId !== id);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: current.organizationId,
          kind: AuditKind.EnvironmentRemoved,
          now,
          details: { name: current.name },
        }),
      );
      return 'removed';
    },
  };
}

/** Who may write a release as it is written (rules/roles.ts), as packages/db checks it. */
export function refuseUnlessAllowed(state: InMemoryState, environmentId: string, userId: string): void {
  const environment = state.environments.find((env) => env.id === environmentId);
  const role = state.memberships.find(
    (m) => m.userId === userId && m.organizationId === environment?.organizationId,
  )?.role;
  if (!environment || role === undefined || !can(role, Permission.Publish))
    throw roleRefused('publish');
  if (!canPublishTo(role, environment)) throw protectedEnvironment(environment.name);
}

/** The in-memory twin of packages/db's writeRelease: the release, its event and its audit row. */
export function writeRelease(
  state: InMemoryState,
  input: Omit<Parameters<Releases['publish']>[0], 'enforceProtection'>,
  request?: { requestId: string; requestedBy: string },
): ReleaseEvent {
  const { eventId, componentId, environmentId, variantId, releasedBy, now, audit } = input;
  const index = state.releases.findIndex(
    (r) => r.componentId === componentId && r.environmentId === environmentId,
  );
  const previous = state.releases[index];
  // As the database: never dated before the release it follows.
  const releasedAt = previous && previous.releasedAt > now ? previous.releasedAt : now;
  const environment = byKey(state.environments, environmentId);
  const release: Release = {
    componentId,
    environmentId,
    environmentName: environment?.name ?? '?',
    variantId,
    releasedBy,
    releasedAt,
  };
  if (index >= 0) state.releases[index] = release;
  else state.releases.push(release);
  const event: ReleaseEvent = {
    ...release,
    id: eventId,
    previousVariantId: previous?.variantId ?? null,
  };
  state.releaseEvents.push(event);
  state.enqueueExport(environment?.organizationId ?? '');
  const sequence = (id: string | undefined) => state.variants.find((v) => v.id === id)?.sequence;
  const [next, before] = [sequence(variantId), sequence(previous?.variantId)];
  state.recordAudit({
    id: audit.eventId,
    organizationId: environment?.organizationId ?? '',
    actorId: audit.actorId,
    via: audit.via ?? null,
    kind: AuditKind.ReleasePublished,
    componentId,
    subjectUserId: null,
    details: {
      environment: release.environmentName,
      variantId,
      variantSequence: next ?? null,
      previousVariantId: event.previousVariantId,
      previousVariantSequence: before ?? null,
      rollback: next !== undefined && before !== undefined && next < before,
      ...request,
    },
    createdAt: now,
  });
  state.webhookEvents.push({
    organizationId: environment?.organizationId ?? '',
    componentId,
    type: WebhookEventType.ReleasePublished,
    data: {
      environment: { id: environmentId, name: release.environmentName },
      variant: { id: variantId, sequence: next ?? null },
      previousVariant: previous ? { id: previous.variantId, sequence: before ?? null } : null,
      rollback: next !== undefined && before !== undefined && next < before,
      releaseRequestId: request?.requestId ?? null,
      releaseId: eventId,
    },
  });
  endRolloutOnRelease(state, release, eventId, audit);
  return event;
}

export function inMemoryReleases(state: InMemoryState): Releases {
  return {
    async publish({ enforceProtection, ...input }) {
      if (enforceProtection) refuseUnlessAllowed(state, input.environmentId, input.releasedBy);
      return writeRelease(state, input);
    },
    listCurrent: async (componentId) =>
      state.releases
        .filter((r) => r.componentId === componentId)
        .sort((a, b) => a.environmentName.localeCompare(b.environmentName)),
    findCurrent: async (componentId, environmentId) =>
      state.releases.find(
        (r) => r.componentId === componentId && r.environmentId === environmentId,
      ) ?? null,
    async history(componentId, { limit, before, after }) {
      // Newest first: latest releasedAt, then the later insertion (as the database's seq).
      const events = state.releaseEvents
        .map((event, seq) => ({ event, seq }))
        .filter(({ event }) => event.componentId === componentId)
        .sort(
          (a, b) => b.event.releasedAt.getTime() - a.event.releasedAt.getTime() || b.seq - a.seq,
        )
        .map(({ event }) => event);
      const cursor = before ?? after;
      if (cursor === undefined) return events.slice(0, limit);
      const at = events.findIndex((e) => e.id === cursor);
      if (at < 0)
        throw new DomainError(
          ErrorCode.NotFound,
          `Release event "${cursor}" was not found, or you do not have access to it.`,
        );
      return before !== undefined
        ? events.slice(at + 1, at + 1 + limit)
        : events.slice(Math.max(0, at - limit), at);
    },
    countPerWeek: inMemoryCountPerWeek(state),
  };
}
