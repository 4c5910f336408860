import { AuditKind, type AuditValue } from '../entities/audit-event.js';
import { LIVE_ROLLOUT_STATES, RolloutState, type Rollout } from '../entities/rollout.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { roleRefused } from '../errors/factories.js';
import { GUARD_ACTOR_ID, type RolloutChange, type Rollouts } from '../ports/rollouts.js';
import { can, Permission } from '../rules/roles.js';
import { auditEventFor } from './in-memory-audit.js';
import { liveRevision } from './in-memory-experiences.js';
import { refuseUnlessAllowed, writeRelease } from './in-memory-releases.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

type StartInput = Parameters<Rollouts['start']>[0];

const isLive = (rollout: Rollout) => LIVE_ROLLOUT_STATES.includes(rollout.state);
const sequenceOf = (state: InMemoryState, variantId: string) => byKey(state.variants, variantId)?.sequence ?? null;

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
  state.recordAudit(
    auditEventFor(input.audit, {
      organizationId: rollout.organizationId,
      kind: AuditKind.RolloutStarted,
      now: input.now,
      componentId,
      details: { ...rolloutDetails(state, rollout), stages: input.stages.map((s) => s.weight), ...request },
    }),
  );
  return rollout;
}

function rolloutDetails(state: InMemoryState, rollout: Rollout): { [key: string]: AuditValue } {
  return {
    environment: rollout.environmentName,
    rolloutId: rollout.id,
    candidateVariantId: rollout.candidateVariantId,
    candidateSequence: sequenceOf(state, rollout.candidateVariantId),
    weight: rollout.weight,
  };
}

/** As packages/db: a person's change is checked against their role as it is written; the guard's is not. */
function refuseUnlessMayChange(state: InMemoryState, rollout: Rollout, change: RolloutChange, actorId: string): void {
  if (actorId === GUARD_ACTOR_ID) return;
  if (change.kind === 'promote' || change.kind === 'advance') return refuseUnlessAllowed(state, rollout.environmentId, actorId);
  const role = state.memberships.find((m) => m.userId === actorId && m.organizationId === rollout.organizationId)?.role;
  if (role === undefined || !can(role, Permission.Publish)) throw roleRefused('change rollouts');
}

const ended = (rollout: Rollout, state: RolloutState, now: Date, reason: string | null): Rollout => ({
  ...rollout,
  state,
  weight: state === RolloutState.Promoted ? rollout.weight : 0,
  endedAt: now,
  reason,
});

/** The rollout after `change`, and the audit row it writes (none for a window that changes nothing). */
function applied(rollout: Rollout, change: RolloutChange, now: Date): { next: Rollout; kind: AuditKind | null } {
  switch (change.kind) {
    case 'advance': {
      const stage = rollout.stages[change.stageIndex];
      if (!stage) throw new DomainError(ErrorCode.Conflict, 'The rollout has no such stage.');
      return {
        next: { ...rollout, stageIndex: change.stageIndex, weight: stage.weight, stageStartedAt: now, windowStartedAt: now },
        kind: AuditKind.RolloutAdvanced,
      };
    }
    case 'pause':
      return { next: { ...rollout, state: RolloutState.Paused, reason: change.reason }, kind: AuditKind.RolloutPaused };
    case 'resume':
      return { next: { ...rollout, state: RolloutState.Running, reason: null }, kind: AuditKind.RolloutResumed };
    case 'stop':
      return { next: ended(rollout, RolloutState.Stopped, now, change.reason), kind: AuditKind.RolloutStopped };
    case 'promote':
      return { next: ended(rollout, RolloutState.Promoted, now, null), kind: AuditKind.RolloutPromoted };
    case 'window': {
      const next = { ...rollout, windowStartedAt: change.window.to };
      if (change.outcome === 'roll_back') return { next: ended(next, RolloutState.RolledBack, now, change.reason), kind: AuditKind.RolloutRolledBack };
      if (change.outcome === 'pause') return { next: { ...next, state: RolloutState.Paused, reason: change.reason }, kind: AuditKind.RolloutPaused };
      return { next, kind: null };
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
      const current = state.rollouts[index];
      if (!current) throw new DomainError(ErrorCode.NotFound, `Rollout "${rolloutId}" was not found.`, { resource: 'Rollout' });
      if (!isLive(current) || current.revision !== expectedRevision) {
        throw new DomainError(ErrorCode.Conflict, `The rollout changed meanwhile (it is at revision ${current.revision}, ${current.state}): read it and try again.`);
      }
      refuseUnlessMayChange(state, current, change, audit.actorId);
      const { next, kind } = applied(current, change, now);
      const rollout = { ...next, revision: current.revision + 1 };
      state.rollouts[index] = rollout;
      if (change.kind === 'window') state.rolloutWindows.push({ ...change.window, rolloutId });
      if (change.kind === 'promote') {
        writeRelease(state, {
          eventId: change.releaseEventId,
          componentId: rollout.componentId,
          environmentId: rollout.environmentId,
          variantId: rollout.candidateVariantId,
          releasedBy: audit.actorId,
          now,
          audit: { eventId: change.releaseEventId, actorId: audit.actorId },
        });
      }
      state.bumpAssignment(rollout.componentId, rollout.environmentId);
      if (kind) {
        const details = rolloutDetails(state, rollout);
        if (change.kind === 'advance') details['by'] = change.by;
        if (change.kind === 'window') details['window'] = { index: change.window.index, rise: change.window.rise, z: change.window.z };
        if (rollout.reason !== null) details['reason'] = rollout.reason;
        state.recordAudit(auditEventFor(audit, { organizationId: rollout.organizationId, kind, now, componentId: rollout.componentId, details }));
      }
      return rollout;
    },
    windows: async (rolloutId) =>
      state.rolloutWindows.filter((w) => w.rolloutId === rolloutId).map(({ rolloutId: _, ...window }) => window),
  };
}
