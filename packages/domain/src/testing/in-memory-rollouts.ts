import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditValue } from '../entities/audit-event.js';
import { RolloutState, type GuardWindow, type Rollout } from '../entities/rollout.js';
import { WebhookEventType } from '../entities/webhook.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { invalidInput, notFound, roleRefused } from '../errors/factories.js';
import { GUARD_ACTOR_ID, type RolloutChange, type Rollouts } from '../ports/rollouts.js';
import { can, Permission } from '../rules/roles.js';
import { auditEventFor } from './in-memory-audit.js';
import { liveRevision } from './in-memory-experiences.js';
import { isLive, recordChange, sequenceOf } from './in-memory-rollout-events.js';
import { refuseUnlessAllowed, writeRelease } from './in-memory-releases.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

type StartInput = Parameters<Rollouts['start']>[0];

/** The live rollout of a component environment, or null. */
export const liveRollout = (state: InMemoryState, componentId: string, environmentId: string): Rollout | null =>
  state.rollouts.find((r) => r.componentId === componentId && r.environmentId === environmentId && isLive(r)) ?? null;

/**
 * The in-memory twin of packages/db's rollout start (also what an approved request's plan does):
 * every refusal before any write, then the rollout, the assignment revision and the audit row.
 */
export function writeRolloutStart(state: InMemoryState, input: StartInput, request?: { requestId: string; requestedBy: string }): Rollout {
  const { componentId, environmentId } = input;
  const environment = byKey(state.environments, environmentId);
  const name = environment?.name ?? '?';
  if (liveRollout(state, componentId, environmentId)) throw new DomainError(ErrorCode.Conflict, `A rollout is live in ${name} already: stop or promote it first.`);
  if ((liveRevision(state, componentId, environmentId)?.definition.segments.length ?? 0) > 0) {
    throw new DomainError(ErrorCode.Conflict, `An experience is live in ${name}: publish one with no segments to turn it off before a rollout.`);
  }
  const release = state.releases.find((r) => r.componentId === componentId && r.environmentId === environmentId);
  if (!release || release.variantId !== input.baselineVariantId || release.variantId === input.candidateVariantId) {
    throw new DomainError(ErrorCode.Conflict, `The release of ${name} changed meanwhile: read it and start the rollout again.`);
  }
  const first = input.stages[0]!;
  const rollout: Rollout = {
    id: input.id,
    organizationId: environment?.organizationId ?? '',
    componentId,
    environmentId,
    environmentName: name,
    candidateVariantId: input.candidateVariantId,
    baselineVariantId: input.baselineVariantId,
    salt: input.salt,
    stages: input.stages,
    stageIndex: 0,
    weight: first.weight,
    state: RolloutState.Running,
    revision: 1,
    guard: input.guard,
    startedBy: input.startedBy,
    startedAt: input.now,
    stageStartedAt: input.now,
    windowStartedAt: input.now,
    endedAt: null,
    reason: null,
  };
  state.rollouts.push(rollout);
  state.bumpAssignment(componentId, environmentId);
  const facts = {
    rolloutId: rollout.id,
    candidate: { id: rollout.candidateVariantId, sequence: sequenceOf(state, rollout.candidateVariantId) },
    baseline: { id: rollout.baselineVariantId, sequence: sequenceOf(state, rollout.baselineVariantId) },
    stages: input.stages.map((stage) => ({ weight: stage.weight, holdMinutes: stage.holdMinutes })),
    weight: rollout.weight,
  };
  state.recordAudit(
    auditEventFor(input.audit, { organizationId: rollout.organizationId, kind: AuditKind.RolloutStarted, now: input.now, componentId, details: { environment: name, ...facts, ...request } }),
  );
  state.webhookEvents.push({
    organizationId: rollout.organizationId,
    componentId,
    type: WebhookEventType.RolloutStarted,
    data: { environment: { id: environmentId, name }, ...facts, releaseRequestId: request?.requestId ?? null },
  });
  return rollout;
}

const windowFigures = (window: GuardWindow): { [key: string]: AuditValue } => ({
  ...window,
  from: window.from.toISOString(),
  to: window.to.toISOString(),
  candidate: { ...window.candidate },
  release: { ...window.release },
});

/** As packages/db: a person's change is checked against their role as it is written; the guard's is not. */
function refuseUnlessMayChange(state: InMemoryState, rollout: Rollout, change: RolloutChange, actorId: string): void {
  if (actorId === GUARD_ACTOR_ID) return;
  // Raising exposure respects protection; pausing, resuming and stopping need only a role that publishes.
  if (change.kind === 'promote' || change.kind === 'advance') return refuseUnlessAllowed(state, rollout.environmentId, actorId);
  const role = state.memberships.find((m) => m.userId === actorId && m.organizationId === rollout.organizationId)?.role;
  if (role === undefined || !can(role, Permission.Publish)) throw roleRefused('change rollouts');
}

/** The rollout after `change`, and how it is recorded (no kind: a window that changes nothing else). */
function applied(
  state: InMemoryState,
  before: Rollout,
  change: RolloutChange,
  now: Date,
): { next: Rollout; kind: AuditKind | null; facts: { [key: string]: AuditValue } } {
  const ended = { endedAt: now, weight: 0 };
  switch (change.kind) {
    case 'advance': {
      const stage = before.stages[change.stageIndex];
      if (!stage || change.stageIndex <= before.stageIndex) {
        throw invalidInput('stageIndex', `must be a later stage than ${before.stageIndex}, of the rollout's ${before.stages.length}.`);
      }
      return {
        next: { ...before, stageIndex: change.stageIndex, weight: stage.weight, stageStartedAt: now, windowStartedAt: now },
        kind: AuditKind.RolloutAdvanced,
        facts: { fromStageIndex: before.stageIndex, fromWeight: before.weight },
      };
    }
    case 'pause':
      return { next: { ...before, state: RolloutState.Paused, reason: change.reason }, kind: AuditKind.RolloutPaused, facts: { reason: change.reason } };
    case 'resume':
      return { next: { ...before, state: RolloutState.Running, reason: null }, kind: AuditKind.RolloutResumed, facts: {} };
    case 'stop':
      return {
        next: { ...before, state: RolloutState.Stopped, reason: change.reason, ...ended },
        kind: AuditKind.RolloutStopped,
        facts: { reason: change.reason, fromWeight: before.weight },
      };
    case 'promote':
      return { next: { ...before, state: RolloutState.Promoted, endedAt: now, reason: null }, kind: AuditKind.RolloutPromoted, facts: { releaseId: change.releaseEventId } };
    case 'window': {
      const { window, outcome, reason } = change;
      const earlier = state.rolloutWindows.filter((w) => w.rolloutId === before.id);
      if (window.index !== earlier.length) throw invalidInput('window.index', `the rollout's next window is ${earlier.length}, not ${window.index}.`);
      state.rolloutWindows.push({ ...window, rolloutId: before.id });
      const next = { ...before, windowStartedAt: window.to };
      if (outcome === 'roll_back') {
        // The windows that decided: the regressed ones in a row, ending with this one.
        const all = [...earlier, window];
        let first = all.length;
        while (first > 0 && all[first - 1]!.verdict === 'regressed') first--;
        const deciding = all.slice(first).map(({ index, from, to, weight, candidate, release, rise, z, sampleRatioP, verdict }) =>
          windowFigures({ index, from, to, weight, candidate, release, rise, z, sampleRatioP, verdict }),
        );
        return {
          next: { ...next, state: RolloutState.RolledBack, reason, ...ended },
          kind: AuditKind.RolloutRolledBack,
          facts: { reason, fromWeight: before.weight, windows: deciding },
        };
      }
      if (outcome === 'pause') {
        return { next: { ...next, state: RolloutState.Paused, reason }, kind: AuditKind.RolloutPaused, facts: { reason, window: windowFigures(window) } };
      }
      return { next, kind: null, facts: {} };
    }
  }
}

/** Plain-array rollouts; each method runs without awaiting in between, so it is atomic. */
export function inMemoryRollouts(state: InMemoryState): Rollouts {
  return {
    start: async (input) => writeRolloutStart(state, input),
    findById: async (id) => byKey(state.rollouts, id),
    findLive: async (componentId, environmentId) => liveRollout(state, componentId, environmentId),
    listForComponent: async (componentId, limit) =>
      state.rollouts
        .filter((r) => r.componentId === componentId)
        .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
        .slice(0, limit),
    listLive: async () => state.rollouts.filter(isLive),
    async change({ rolloutId, expectedRevision, change, now, audit }) {
      const index = state.rollouts.findIndex((r) => r.id === rolloutId);
      const before = state.rollouts[index];
      if (!before) throw notFound('Rollout', rolloutId);
      if (!isLive(before) || before.revision !== expectedRevision) {
        throw new DomainError(
          ErrorCode.Conflict,
          isLive(before)
            ? `The rollout changed meanwhile (it is at revision ${before.revision} now): read the rollout again (get_rollout), then decide.`
            : `The rollout has ended (${before.state}): read the rollout again (get_rollout).`,
        );
      }
      refuseUnlessMayChange(state, before, change, audit.actorId);
      const { next, kind, facts } = applied(state, before, change, now);
      const rollout = { ...next, revision: before.revision + 1 };
      state.rollouts[index] = rollout;
      // As the database: a new assignment revision only when the split served changes (weight, or the end).
      if (rollout.weight !== before.weight || !isLive(rollout)) state.bumpAssignment(rollout.componentId, rollout.environmentId);
      if (change.kind === 'promote') {
        // The rollout has ended above, so this release finds no live rollout to end.
        writeRelease(state, {
          eventId: change.releaseEventId,
          componentId: rollout.componentId,
          environmentId: rollout.environmentId,
          variantId: rollout.candidateVariantId,
          releasedBy: audit.actorId,
          now,
          audit: { ...audit, eventId: randomUUID() },
        });
      }
      if (kind) recordChange(state, kind, audit, now, rollout, facts);
      return rollout;
    },
    windows: async (rolloutId) =>
      state.rolloutWindows.filter((w) => w.rolloutId === rolloutId).map(({ rolloutId: _, ...window }) => window),
  };
}
