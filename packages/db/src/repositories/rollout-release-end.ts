import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditNote } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { nextAssignmentRevision } from './component-lock.js';
import { recordRolloutChange } from './rollout-events.js';
import { LIVE, rolloutJoins, toRollout } from './rollout-rows.js';

/**
 * Inside a release's transaction, under the component's lock: a live rollout of the environment
 * ends, promoted when its candidate is released, stopped when another variant is (its comparison
 * arm changed), with its audit row and webhook event. Nothing when no rollout is live.
 */
export async function endRolloutOnRelease(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  release: { componentId: string; environmentId: string; variantId: string; variantSequence: number; eventId: string; now: Date; audit: AuditNote },
): Promise<void> {
  const { componentId, environmentId, now } = release;
  const live = await tx.rollout.findFirst({
    where: { componentId, environmentId, state: { in: [...LIVE] } },
    include: { candidate: { select: { sequence: true } } },
  });
  if (!live) return;
  const promoted = live.candidateVariantId === release.variantId;
  const row = await tx.rollout.update({
    where: { id: live.id },
    data: {
      ...(promoted
        ? { state: 'promoted', reason: null }
        : { state: 'stopped', weight: 0, reason: `Stopped: v${release.variantSequence} was released meanwhile, so the release arm changed.` }),
      endedAt: now,
      revision: { increment: 1 },
      assignmentRevision: await nextAssignmentRevision(tx),
    },
    include: rolloutJoins,
  });
  const rollout = toRollout(row);
  await recordRolloutChange(tx, jobs, {
    kind: promoted ? AuditKind.RolloutPromoted : AuditKind.RolloutStopped,
    audit: { ...release.audit, eventId: randomUUID() },
    now,
    rollout,
    candidateSequence: live.candidate.sequence,
    facts: promoted ? { releaseId: release.eventId } : { reason: rollout.reason, releaseId: release.eventId, fromWeight: live.weight },
  });
}
