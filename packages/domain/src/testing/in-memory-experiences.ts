import { AuditKind } from '../entities/audit-event.js';
import { WebhookEventType } from '../entities/webhook.js';
import type { ExperienceDraft, ExperienceRevision } from '../entities/experience.js';
import { LIVE_ROLLOUT_STATES } from '../entities/rollout.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { Experiences } from '../ports/experiences.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

type PublishInput = Parameters<Experiences['publish']>[0];

const newestFirst = (a: ExperienceRevision, b: ExperienceRevision) => b.number - a.number;

/** The newest revision of a component environment, or null. */
export const liveRevision = (state: InMemoryState, componentId: string, environmentId: string): ExperienceRevision | null =>
  state.experienceRevisions.filter((r) => r.componentId === componentId && r.environmentId === environmentId).sort(newestFirst)[0] ?? null;

/**
 * The in-memory twin of packages/db's experience publish (also what an approved request's plan
 * does): checks first, then the revision, the assignment revision and the audit row.
 */
export function writeExperienceRevision(
  state: InMemoryState,
  input: PublishInput,
  request?: { requestId: string; requestedBy: string },
): ExperienceRevision {
  const { componentId, environmentId } = input;
  const environment = byKey(state.environments, environmentId);
  if (state.rollouts.some((r) => r.componentId === componentId && r.environmentId === environmentId && LIVE_ROLLOUT_STATES.includes(r.state))) {
    throw new DomainError(ErrorCode.Conflict, `A rollout is live in ${environment?.name ?? '?'}: stop or promote it before publishing an experience there.`);
  }
  const live = liveRevision(state, componentId, environmentId);
  if (input.expectedLive !== undefined && (live?.number ?? null) !== input.expectedLive) {
    throw new DomainError(ErrorCode.Conflict, `The experience changed meanwhile: revision ${live?.number ?? 'none'} is live now. Read it and publish again.`);
  }
  const revision: ExperienceRevision = {
    componentId,
    environmentId,
    environmentName: environment?.name ?? '?',
    number: (live?.number ?? 0) + 1,
    definition: input.definition,
    salt: input.salt,
    republishedFrom: input.republishedFrom,
    publishedBy: input.publishedBy,
    publishedAt: input.now,
  };
  state.experienceRevisions.push(revision);
  state.bumpAssignment(componentId, environmentId);
  const organizationId = environment?.organizationId ?? '';
  const facts = {
    environment: revision.environmentName,
    revision: revision.number,
    segments: input.definition.segments.length,
    saltKept: live !== null && live.salt === input.salt,
    moved: input.moved.map((m) => ({ segment: m.segment, moved: m.moved })),
    republishedFrom: input.republishedFrom,
  };
  state.recordAudit(auditEventFor(input.audit, { organizationId, kind: AuditKind.ExperiencePublished, now: input.now, componentId, details: { ...facts, ...request } }));
  state.webhookEvents.push({
    organizationId,
    componentId,
    type: WebhookEventType.ExperiencePublished,
    data: { ...facts, environment: { id: environmentId, name: revision.environmentName }, releaseRequestId: request?.requestId ?? null },
  });
  return revision;
}

/** Plain-array experiences; each method runs without awaiting in between, so it is atomic. */
export function inMemoryExperiences(state: InMemoryState): Experiences {
  const of = (componentId: string, environmentId: string) => (r: { componentId: string; environmentId: string }) =>
    r.componentId === componentId && r.environmentId === environmentId;
  return {
    findDraft: async (componentId, environmentId) => state.experienceDrafts.find(of(componentId, environmentId)) ?? null,
    async saveDraft({ componentId, environmentId, definition, updatedBy, now }) {
      const draft: ExperienceDraft = { componentId, environmentId, definition, updatedBy, updatedAt: now };
      state.experienceDrafts = [...state.experienceDrafts.filter((d) => !of(componentId, environmentId)(d)), draft];
      return draft;
    },
    publish: async (input) => writeExperienceRevision(state, input),
    findLive: async (componentId, environmentId) => liveRevision(state, componentId, environmentId),
    findRevision: async (componentId, environmentId, number) =>
      state.experienceRevisions.find((r) => of(componentId, environmentId)(r) && r.number === number) ?? null,
    listRevisions: async (componentId, environmentId, limit) =>
      state.experienceRevisions.filter(of(componentId, environmentId)).sort(newestFirst).slice(0, limit),
  };
}
