import { randomUUID } from 'node:crypto';
import {
  AuditKind,
  DomainError,
  ErrorCode,
  GUARD_ACTOR_ID,
  invalidInput,
  notFound,
  isUuid,
  type AuditValue,
  type Rollout,
  type Rollouts,
} from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { nextAssignmentRevision } from './component-lock.js';
import { refuseUnlessAllowed, writeRelease } from './release-write.js';
import { recordRolloutChange } from './rollout-events.js';
import { LIVE, rolloutJoins, toGuardWindow, toRollout, windowFigures, type RolloutRow } from './rollout-rows.js';

type Change = Parameters<Rollouts['change']>[0];

/** What a change writes to the row, and how it is recorded (no kind: a window that changes nothing else). */
interface Applied {
  readonly data: Prisma.RolloutUpdateManyMutationInput;
  readonly kind: AuditKind | null;
  readonly facts: Record<string, AuditValue>;
  /** The split served changes (weight, or the end): a new assignment revision, so hosts and caches pick again. */
  readonly reassigns: boolean;
}

const stale = (row: RolloutRow) =>
  new DomainError(
    ErrorCode.Conflict,
    LIVE.includes(row.state as (typeof LIVE)[number])
      ? `The rollout changed meanwhile (it is at revision ${row.revision} now): read the rollout again (get_rollout), then decide.`
      : `The rollout has ended (${row.state}): read the rollout again (get_rollout).`,
  );

/**
 * Inside `tx`, under the component's lock (the lock releases and experience publishes take):
 * a change of a live rollout at `expectedRevision`, by one conditional UPDATE that bumps the
 * revision (and the assignment revision when the split served changes); then the change's audit
 * row and webhook event.
 */
export async function writeRolloutChange(tx: Prisma.TransactionClient, jobs: JobSender, input: Change): Promise<Rollout> {
  const { rolloutId, expectedRevision, change, now, audit } = input;
  if (!isUuid(rolloutId)) throw notFound('Rollout', rolloutId);
  const [locked] = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM rollouts r JOIN components c ON c.id = r.component_id WHERE r.id = ${rolloutId}::uuid FOR NO KEY UPDATE OF c`;
  if (!locked) throw notFound('Rollout', rolloutId);
  const before = await tx.rollout.findUniqueOrThrow({ where: { id: rolloutId }, include: { ...rolloutJoins, candidate: { select: { sequence: true } } } });
  if (before.revision !== expectedRevision || !LIVE.includes(before.state as (typeof LIVE)[number])) throw stale(before);
  if (audit.actorId !== GUARD_ACTOR_ID) {
    // Raising exposure respects protection; pausing, resuming and stopping need only a role that publishes.
    const raises = change.kind === 'advance' || change.kind === 'promote';
    await refuseUnlessAllowed(tx, before.environmentId, audit.actorId, { protection: raises });
  }
  const applied = await apply(tx, before, input);
  const updated = await tx.rollout.updateMany({
    where: { id: rolloutId, revision: expectedRevision, state: { in: [...LIVE] } },
    data: { ...applied.data, revision: { increment: 1 }, ...(applied.reassigns ? { assignmentRevision: await nextAssignmentRevision(tx) } : {}) },
  });
  if (updated.count !== 1) throw stale(before);
  if (change.kind === 'promote') {
    // The rollout has ended above, so this release finds no live rollout to end.
    await writeRelease(tx, jobs, {
      eventId: change.releaseEventId,
      componentId: before.componentId,
      environmentId: before.environmentId,
      variantId: before.candidateVariantId,
      releasedBy: audit.actorId,
      now,
      audit: { ...audit, eventId: randomUUID() },
    });
  }
  const rollout = toRollout(await tx.rollout.findUniqueOrThrow({ where: { id: rolloutId }, include: rolloutJoins }));
  if (applied.kind) {
    await recordRolloutChange(tx, jobs, {
      kind: applied.kind,
      audit,
      now,
      rollout,
      candidateSequence: before.candidate.sequence,
      facts: applied.facts,
    });
  }
  return rollout;
}

async function apply(tx: Prisma.TransactionClient, before: RolloutRow, { change, now }: Change): Promise<Applied> {
  const ended = { endedAt: now, weight: 0 };
  switch (change.kind) {
    case 'advance': {
      const stage = (before.stages as unknown as Rollout['stages'])[change.stageIndex];
      if (!stage || change.stageIndex <= before.stageIndex) {
        throw invalidInput('stageIndex', `must be a later stage than ${before.stageIndex}, of the rollout's ${(before.stages as unknown[]).length}.`);
      }
      return {
        data: { stageIndex: change.stageIndex, weight: stage.weight, stageStartedAt: now, windowStartedAt: now },
        kind: AuditKind.RolloutAdvanced,
        facts: { fromStageIndex: before.stageIndex, fromWeight: before.weight },
        reassigns: true,
      };
    }
    case 'pause':
      return { data: { state: 'paused', reason: change.reason }, kind: AuditKind.RolloutPaused, facts: { reason: change.reason }, reassigns: false };
    case 'resume':
      return { data: { state: 'running', reason: null }, kind: AuditKind.RolloutResumed, facts: {}, reassigns: false };
    case 'stop':
      return { data: { state: 'stopped', reason: change.reason, ...ended }, kind: AuditKind.RolloutStopped, facts: { reason: change.reason, fromWeight: before.weight }, reassigns: true };
    case 'promote':
      return { data: { state: 'promoted', endedAt: now, reason: null }, kind: AuditKind.RolloutPromoted, facts: { releaseId: change.releaseEventId }, reassigns: true };
    case 'window':
      return applyWindow(tx, before, change, now);
  }
}

/** Records the guard's window, then its outcome: the open window restarts at its end, or the rollout rolls back or pauses. */
async function applyWindow(
  tx: Prisma.TransactionClient,
  before: RolloutRow,
  change: Extract<Change['change'], { kind: 'window' }>,
  now: Date,
): Promise<Applied> {
  const { window, outcome, reason } = change;
  const index = await tx.rolloutWindow.count({ where: { rolloutId: before.id } });
  if (window.index !== index) throw invalidInput('window.index', `the rollout's next window is ${index}, not ${window.index}.`);
  await tx.rolloutWindow.create({
    data: {
      rolloutId: before.id,
      index,
      from: window.from,
      to: window.to,
      weight: window.weight,
      candidateSessions: window.candidate.sessions,
      candidateErrorSessions: window.candidate.errorSessions,
      releaseSessions: window.release.sessions,
      releaseErrorSessions: window.release.errorSessions,
      rise: window.rise,
      z: window.z,
      sampleRatioP: window.sampleRatioP,
      verdict: window.verdict,
    },
  });
  if (outcome === 'roll_back') {
    // The windows that decided: the regressed ones in a row, ending with this one.
    const recent = (await tx.rolloutWindow.findMany({ where: { rolloutId: before.id }, orderBy: { index: 'desc' } })).map(toGuardWindow);
    const streak = recent.findIndex((w) => w.verdict !== 'regressed');
    const deciding = recent.slice(0, streak === -1 ? recent.length : streak).reverse();
    return {
      data: { state: 'rolled_back', weight: 0, endedAt: now, reason, windowStartedAt: window.to },
      kind: AuditKind.RolloutRolledBack,
      facts: { reason, fromWeight: before.weight, windows: deciding.map(windowFigures) },
      reassigns: true,
    };
  }
  if (outcome === 'pause') {
    return { data: { state: 'paused', reason, windowStartedAt: window.to }, kind: AuditKind.RolloutPaused, facts: { reason, window: windowFigures(window) }, reassigns: false };
  }
  return { data: { windowStartedAt: window.to }, kind: null, facts: {}, reassigns: false };
}
