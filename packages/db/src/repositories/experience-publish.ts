import { AuditKind, DomainError, ErrorCode, WebhookEventType, type ExperienceRevision, type Experiences } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { lockComponent, nextAssignmentRevision } from './component-lock.js';
import { toExperienceRevision, withEnvironmentName } from './experience-rows.js';
import { LIVE } from './rollout-rows.js';
import { enqueueIfExporting, staticExportQueue } from './static-export-queue.js';
import { enqueueWebhookEvents } from './webhook-events.js';

export type ExperiencePublish = Parameters<Experiences['publish']>[0] & {
  /** An approved plan that keeps the salt: the live revision's, read under the lock (`salt` when none is live). */
  keepLiveSalt?: boolean;
};

/**
 * Inside `tx`, under the component's lock: refuses while a rollout is live there, or when
 * `expectedLive` is not the live number; then the next revision, a new assignment revision,
 * the ExperiencePublished audit row and the experience.published webhook event.
 */
export async function writeExperiencePublish(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  input: ExperiencePublish,
  request?: { requestId: string; requestedBy: string },
): Promise<ExperienceRevision> {
  const { componentId, environmentId, definition, now, audit } = input;
  const { organizationId } = await lockComponent(tx, componentId);
  const where = { componentId, environmentId };
  const rollout = await tx.rollout.findFirst({ where: { ...where, state: { in: [...LIVE] } }, select: { id: true } });
  const live = await tx.experienceRevision.findFirst({ where, orderBy: { number: 'desc' }, select: { number: true, salt: true } });
  const environment = await tx.environment.findUniqueOrThrow({ where: { id: environmentId }, select: { name: true } });
  if (rollout) {
    throw new DomainError(
      ErrorCode.Conflict,
      `A rollout is live in ${environment.name}: an environment has an experience or a rollout, not both. Promote or stop the rollout first.`,
    );
  }
  if (input.expectedLive !== undefined && input.expectedLive !== (live?.number ?? null)) {
    throw new DomainError(
      ErrorCode.Conflict,
      `The live experience of ${environment.name} changed meanwhile (now ${live ? `revision ${live.number}` : 'none'}): read it again, then publish.`,
    );
  }
  const salt = input.keepLiveSalt && live ? live.salt : input.salt;
  const row = await tx.experienceRevision.create({
    data: {
      ...where,
      number: (live?.number ?? 0) + 1,
      definition: definition as unknown as Prisma.InputJsonValue,
      salt,
      republishedFrom: input.republishedFrom,
      publishedBy: input.publishedBy,
      publishedAt: now,
      assignmentRevision: await nextAssignmentRevision(tx),
    },
    include: withEnvironmentName,
  });
  const revision = toExperienceRevision(row);
  const facts = {
    environment: environment.name,
    revision: revision.number,
    segments: definition.segments.length,
    saltKept: live !== null && live.salt === salt,
    moved: input.moved.map((m) => ({ segment: m.segment, moved: m.moved })),
    republishedFrom: revision.republishedFrom,
  };
  await recordAudit(tx, {
    note: audit,
    organizationId,
    kind: AuditKind.ExperiencePublished,
    componentId,
    details: { ...facts, ...request },
    createdAt: now,
  });
  await enqueueWebhookEvents(tx, jobs, {
    type: WebhookEventType.ExperiencePublished,
    organizationId,
    componentId,
    note: audit,
    occurredAt: now,
    data: { ...facts, environment: { id: environmentId, name: environment.name }, releaseRequestId: request?.requestId ?? null },
  });
  await enqueueIfExporting(tx, organizationId, staticExportQueue(jobs));
  return revision;
}
