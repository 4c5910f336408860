import { AuditKind, type AuditNote, type AuditValue } from '../entities/audit-event.js';
import { LIVE_ROLLOUT_STATES, type Rollout } from '../entities/rollout.js';
import { WebhookEventType } from '../entities/webhook.js';
import { GUARD_ACTOR_ID } from '../ports/rollouts.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export const isLive = (rollout: Rollout): boolean => LIVE_ROLLOUT_STATES.includes(rollout.state);
export const sequenceOf = (state: InMemoryState, variantId: string): number | null => byKey(state.variants, variantId)?.sequence ?? null;

/** The rollout changes that are also webhook events (docs/experiences.md "Audit and webhooks"); pauses and resumes are not. */
const WEBHOOK_OF: Partial<Record<AuditKind, WebhookEventType>> = {
  [AuditKind.RolloutAdvanced]: WebhookEventType.RolloutAdvanced,
  [AuditKind.RolloutPromoted]: WebhookEventType.RolloutPromoted,
  [AuditKind.RolloutStopped]: WebhookEventType.RolloutStopped,
  [AuditKind.RolloutRolledBack]: WebhookEventType.RolloutRolledBack,
};

/** As packages/db: a change's audit row and, for the kinds webhooks carry, its event, naming the rollout as it is after the change. */
export function recordChange(state: InMemoryState, kind: AuditKind, audit: AuditNote, now: Date, rollout: Rollout, facts: { [key: string]: AuditValue }): void {
  const all = {
    rolloutId: rollout.id,
    candidate: { id: rollout.candidateVariantId, sequence: sequenceOf(state, rollout.candidateVariantId) },
    weight: rollout.weight,
    stageIndex: rollout.stageIndex,
    state: rollout.state,
    by: audit.actorId === GUARD_ACTOR_ID ? 'guard' : 'person',
    ...facts,
  };
  state.recordAudit(auditEventFor(audit, { organizationId: rollout.organizationId, kind, now, componentId: rollout.componentId, details: { environment: rollout.environmentName, ...all } }));
  const type = WEBHOOK_OF[kind];
  if (type) {
    state.webhookEvents.push({
      organizationId: rollout.organizationId,
      componentId: rollout.componentId,
      type,
      data: { environment: { id: rollout.environmentId, name: rollout.environmentName }, ...all },
    });
  }
}

