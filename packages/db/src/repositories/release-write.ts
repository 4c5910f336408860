import { AuditKind, can, canPublishTo, Permission, protectedEnvironment, roleRefused, WebhookEventType, type ReleaseEvent, type Releases, type Role } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { lockComponent } from './component-lock.js';
import { endRolloutOnRelease } from './rollout-release-end.js';
import { enqueueWebhookEvents } from './webhook-events.js';
import { toReleaseEvent } from './mappers.js';
import { enqueueIfExporting, staticExportQueue } from './static-export-queue.js';

/** What Releases.publish writes, once its protection check is done. */
export type ReleaseWrite = Omit<Parameters<Releases['publish']>[0], 'enforceProtection'>;

/**
 * Inside `tx`: makes the variant current, appends the history event and the ReleasePublished
 * audit row (with the request it comes from, when approved), and, for an organization that
 * opted in, the static export's job. Publishes of one component take
 * turns (a row lock on the component that does not block variant inserts), so each event
 * records the variant it really replaced, even for the very first release of an environment.
 * The release.published webhook event is enqueued in the same transaction, and a live rollout
 * of the environment ends (promoted by its candidate's release, stopped by another's).
 */
export async function writeRelease(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  input: ReleaseWrite,
  request?: { requestId: string; requestedBy: string },
): Promise<ReleaseEvent> {
  const { eventId, componentId, environmentId, variantId, releasedBy, now, audit } = input;
  const { organizationId } = await lockComponent(tx, componentId);
  const key = { componentId_environmentId: { componentId, environmentId } };
  const previous = await tx.release.findUnique({ where: key, select: { variantId: true, releasedAt: true, variant: { select: { sequence: true } } } });
  // Publishes take the lock in their own order, not in the order their clocks were read:
  // an event is never dated before the one it follows, so history's (releasedAt, seq) order is the chain's.
  const releasedAt = previous && previous.releasedAt > now ? previous.releasedAt : now;
  const current = { variantId, releasedById: releasedBy, releasedAt };
  await tx.release.upsert({ where: key, create: { componentId, environmentId, ...current }, update: current });
  const row = await tx.releaseEvent.create({
    data: { id: eventId, componentId, environmentId, previousVariantId: previous?.variantId ?? null, ...current },
    include: { environment: { select: { name: true } }, variant: { select: { sequence: true } } },
  });
  const event = toReleaseEvent(row);
  // A rollback: the environment goes back to an earlier upload than the one it served.
  const rollback = previous !== null && row.variant.sequence < previous.variant.sequence;
  await recordAudit(tx, {
    note: audit,
    organizationId,
    kind: AuditKind.ReleasePublished,
    componentId,
    details: {
      environment: event.environmentName,
      variantId,
      variantSequence: row.variant.sequence,
      previousVariantId: event.previousVariantId,
      previousVariantSequence: previous?.variant.sequence ?? null,
      rollback,
      ...request,
    },
    createdAt: now,
  });
  await enqueueWebhookEvents(tx, jobs, {
    type: WebhookEventType.ReleasePublished,
    organizationId,
    componentId,
    note: audit,
    occurredAt: releasedAt,
    data: {
      environment: { id: environmentId, name: event.environmentName },
      variant: { id: variantId, sequence: row.variant.sequence },
      previousVariant: previous ? { id: previous.variantId, sequence: previous.variant.sequence } : null,
      rollback,
      releaseRequestId: request?.requestId ?? null,
      releaseId: eventId,
    },
  });
  await endRolloutOnRelease(tx, jobs, { componentId, environmentId, variantId, variantSequence: row.variant.sequence, eventId, now: releasedAt, audit });
  await enqueueIfExporting(tx, organizationId, staticExportQueue(jobs));
  return event;
}

/**
 * The user's role and the environment's flag as the release is written (rules/roles.ts
 * canPublishTo), the flag under a share lock: a concurrent protect (an UPDATE of the row) waits
 * for this release to commit, or this release sees it and is refused. Without `protection`
 * (pausing or stopping a rollout: making things safer), only the role that publishes is needed.
 */
export async function refuseUnlessAllowed(
  tx: Prisma.TransactionClient,
  environmentId: string,
  userId: string,
  { protection }: { protection: boolean } = { protection: true },
): Promise<void> {
  const [row] = await tx.$queryRaw<{ name: string; protected: boolean; role: Role | null }[]>`
    SELECT e.name, e.protected, m.role::text AS role
    FROM environments e
    LEFT JOIN memberships m ON m.organization_id = e.organization_id AND m.user_id = ${userId}::uuid
    WHERE e.id = ${environmentId}::uuid
    FOR SHARE OF e`;
  if (!row || row.role === null || !can(row.role, Permission.Publish)) throw roleRefused('publish');
  if (protection && !canPublishTo(row.role, row)) throw protectedEnvironment(row.name);
}
