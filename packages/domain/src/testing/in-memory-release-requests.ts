import { AuditKind, type AuditNote } from '../entities/audit-event.js';
import { ReleaseRequestState, type ReleaseRequest } from '../entities/release-request.js';
import { roleRefused } from '../errors/factories.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { ApprovedPlan, ReleaseRequests } from '../ports/release-requests.js';
import { can, Permission } from '../rules/roles.js';
import { liveRevision, writeExperienceRevision } from './in-memory-experiences.js';
import { writeRolloutStart } from './in-memory-rollouts.js';
import { writeRelease } from './in-memory-releases.js';
import { byKey, type InMemoryState, type StoredReleaseRequest } from './in-memory-state.js';

/** Plain-array release requests; each method runs without awaiting in between, so it is atomic. */
export function inMemoryReleaseRequests(state: InMemoryState): ReleaseRequests {
  const view = (row: StoredReleaseRequest): ReleaseRequest => {
    const component = byKey(state.components, row.componentId);
    return {
      ...row,
      organizationId: component?.organizationId ?? '',
      componentName: component?.name ?? '?',
      environmentName: byKey(state.environments, row.environmentId)?.name ?? '?',
      variantSequence: byKey(state.variants, row.variantId)?.sequence ?? 0,
    };
  };
  const organizationOf = (row: StoredReleaseRequest) => view(row).organizationId;
  /** As the database: the person's role, read as the request or the decision is written. */
  const refuseUnless = (
    row: StoredReleaseRequest,
    userId: string,
    permission: Permission,
    what: string,
  ) => {
    const role = state.memberships.find(
      (m) => m.userId === userId && m.organizationId === organizationOf(row),
    )?.role;
    if (role === undefined || !can(role, permission)) throw roleRefused(what);
  };
  const refuseUnlessDecider = (row: StoredReleaseRequest, userId: string) =>
    refuseUnless(row, userId, Permission.PublishProtected, 'approve or decline release requests');
  const audit = (
    row: StoredReleaseRequest,
    kind: AuditKind,
    note: AuditNote,
    extra: Record<string, string> = {},
  ) => {
    const request = view(row);
    state.recordAudit({
      id: note.eventId,
      organizationId: request.organizationId,
      actorId: note.actorId,
      via: note.via ?? null,
      kind,
      componentId: row.componentId,
      subjectUserId: null,
      details: {
        requestId: row.id,
        requestedBy: row.requestedBy,
        environment: request.environmentName,
        variantId: row.variantId,
        variantSequence: request.variantSequence,
        ...extra,
      },
      createdAt: row.decidedAt ?? row.requestedAt,
    });
  };
  /** Claims the pending row (the conditional UPDATE), or says why not. */
  const claim = (requestId: string) => {
    const index = state.releaseRequests.findIndex((r) => r.id === requestId);
    const row = state.releaseRequests[index];
    if (!row) return { outcome: 'missing' } as const;
    if (row.state !== ReleaseRequestState.Pending)
      return { outcome: 'already-decided', request: view(row) } as const;
    return { outcome: 'pending', row, index } as const;
  };

  return {
    async create({ audit: note, ...input }) {
      const pending = state.releaseRequests.find(
        (r) =>
          r.componentId === input.componentId &&
          r.environmentId === input.environmentId &&
          r.state === ReleaseRequestState.Pending,
      );
      if (pending) return { request: view(pending), created: false };
      const row: StoredReleaseRequest = {
        id: input.id,
        componentId: input.componentId,
        environmentId: input.environmentId,
        variantId: input.variantId,
        plan: input.plan ?? { kind: 'release' },
        requestedBy: input.requestedBy,
        requestedAt: input.now,
        state: ReleaseRequestState.Pending,
        decidedBy: null,
        decidedAt: null,
        declineReason: null,
        releaseEventId: null,
      };
      refuseUnless(row, input.requestedBy, Permission.Publish, 'ask for releases');
      state.releaseRequests.push(row);
      audit(row, AuditKind.ReleaseRequested, note);
      return { request: view(row), created: true };
    },
    findById: async (id) => {
      const row = byKey(state.releaseRequests, id);
      return row && view(row);
    },
    listPending: async (componentId) =>
      state.releaseRequests
        .filter((r) => r.componentId === componentId && r.state === ReleaseRequestState.Pending)
        .sort((a, b) => a.requestedAt.getTime() - b.requestedAt.getTime())
        .map(view),
    async listForOrganization(organizationId, { limit }) {
      const mine = state.releaseRequests.filter((r) => organizationOf(r) === organizationId);
      const pending = mine
        .filter((r) => r.state === ReleaseRequestState.Pending)
        .sort((a, b) => a.requestedAt.getTime() - b.requestedAt.getTime());
      const decided = mine
        .filter((r) => r.state !== ReleaseRequestState.Pending)
        .sort((a, b) => b.decidedAt!.getTime() - a.decidedAt!.getTime());
      return [...pending, ...decided].slice(0, limit).map(view);
    },
    async approve({ requestId, approvedBy, eventId, now, audit: note, publishAuditId, salt, rolloutId, moved }) {
      const found = claim(requestId);
      if (found.outcome !== 'pending') return found;
      refuseUnlessDecider(found.row, approvedBy);
      const { row } = found;
      const request = { requestId: row.id, requestedBy: row.requestedBy };
      const publishAudit = { ...note, eventId: publishAuditId };
      const base = { componentId: row.componentId, environmentId: row.environmentId, now, audit: publishAudit };
      // Each writer refuses before it writes, so a refused plan leaves the request pending.
      let applied: ApprovedPlan;
      if (row.plan.kind === 'experience') {
        const live = liveRevision(state, row.componentId, row.environmentId);
        const keep = row.plan.phase === 'keep' && live !== null;
        applied = {
          kind: 'experience',
          revision: writeExperienceRevision(
            state,
            { ...base, definition: row.plan.definition, salt: keep ? live.salt : salt, republishedFrom: row.plan.republishedFrom, moved: keep ? moved : [], publishedBy: approvedBy },
            request,
          ),
        };
      } else if (row.plan.kind === 'rollout') {
        const release = state.releases.find((r) => r.componentId === row.componentId && r.environmentId === row.environmentId);
        if (!release) throw new DomainError(ErrorCode.Conflict, 'Nothing is released there any more: a canary is judged against the release.');
        applied = {
          kind: 'rollout',
          rollout: writeRolloutStart(
            state,
            { ...base, id: rolloutId, candidateVariantId: row.variantId, baselineVariantId: release.variantId, salt, stages: row.plan.stages, guard: row.plan.guard, startedBy: approvedBy },
            request,
          ),
        };
      } else {
        applied = { kind: 'release', event: writeRelease(state, { ...base, eventId, variantId: row.variantId, releasedBy: approvedBy }, request) };
      }
      const approved: StoredReleaseRequest = {
        ...row,
        state: ReleaseRequestState.Approved,
        decidedBy: approvedBy,
        decidedAt: now,
        releaseEventId: applied.kind === 'release' ? applied.event.id : null,
      };
      state.releaseRequests[found.index] = approved;
      audit(approved, AuditKind.ReleaseApproved, note);
      return { outcome: 'approved', request: view(approved), applied };
    },
    async decline({ requestId, declinedBy, reason, now, audit: note }) {
      const found = claim(requestId);
      if (found.outcome !== 'pending') return found;
      refuseUnlessDecider(found.row, declinedBy);
      const declined: StoredReleaseRequest = {
        ...found.row,
        state: ReleaseRequestState.Declined,
        decidedBy: declinedBy,
        decidedAt: now,
        declineReason: reason,
      };
      state.releaseRequests[found.index] = declined;
      audit(declined, AuditKind.ReleaseDeclined, note, { reason });
      return { outcome: 'declined', request: view(declined) };
    },
  };
}
