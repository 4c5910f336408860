import { AuditKind, GUARD_ACTOR_ID, WebhookEventType, type AuditNote, type AuditValue, type Rollout } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { enqueueIfExporting, staticExportQueue } from './static-export-queue.js';
import { enqueueWebhookEvents } from './webhook-events.js';

/** The rollout changes that are also webhook events (docs/experiences.md "Audit and webhooks"); pauses and resumes are not. */
const WEBHOOK_OF: Partial<Record<AuditKind, WebhookEventType>> = {
  [AuditKind.RolloutStarted]: WebhookEventType.RolloutStarted,
  [AuditKind.RolloutAdvanced]: WebhookEventType.RolloutAdvanced,
  [AuditKind.RolloutPromoted]: WebhookEventType.RolloutPromoted,
  [AuditKind.RolloutStopped]: WebhookEventType.RolloutStopped,
  [AuditKind.RolloutRolledBack]: WebhookEventType.RolloutRolledBack,
};

/**
 * Inside the change's transaction: its audit row and, for the kinds webhooks carry, its event.
 * Both name the rollout, its candidate, the stage and weight it serves after the change and who
 * decided, plus `facts`; a start approved from a request names it (as release.published does).
 */
export async function recordRolloutChange(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  change: {
    kind: AuditKind;
    audit: AuditNote;
    now: Date;
    rollout: Rollout;
    candidateSequence: number;
    facts: Record<string, AuditValue>;
    request?: { requestId: string; requestedBy: string } | undefined;
  },
): Promise<void> {
  const { rollout, now, audit } = change;
  const { actorId } = audit;
  const facts = {
    rolloutId: rollout.id,
    candidate: { id: rollout.candidateVariantId, sequence: change.candidateSequence },
    weight: rollout.weight,
    stageIndex: rollout.stageIndex,
    state: rollout.state,
    by: actorId === GUARD_ACTOR_ID ? 'guard' : 'person',
    ...change.facts,
  };
  await recordAudit(tx, {
    note: audit,
    organizationId: rollout.organizationId,
    kind: change.kind,
    componentId: rollout.componentId,
    details: { environment: rollout.environmentName, ...facts, ...change.request },
    createdAt: now,
  });
  const type = WEBHOOK_OF[change.kind];
  if (!type) return;
  await enqueueWebhookEvents(tx, jobs, {
    type,
    organizationId: rollout.organizationId,
    componentId: rollout.componentId,
    note: audit,
    occurredAt: now,
    data: {
      environment: { id: rollout.environmentId, name: rollout.environmentName },
      ...facts,
      ...(change.kind === AuditKind.RolloutStarted ? { releaseRequestId: change.request?.requestId ?? null } : {}),
    },
  });
  // The changes webhooks carry are the ones that change the split served: the static export writes it again.
  await enqueueIfExporting(tx, rollout.organizationId, staticExportQueue(jobs));
}
