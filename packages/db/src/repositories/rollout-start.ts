import { AuditKind, DomainError, ErrorCode, type Rollout, type Rollouts } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { lockComponent, nextAssignmentRevision } from './component-lock.js';
import { LIVE, rolloutJoins, toRollout } from './rollout-rows.js';
import { recordRolloutChange } from './rollout-events.js';

export type RolloutStart = Omit<Parameters<Rollouts['start']>[0], 'baselineVariantId'> & {
  /** The release the caller saw; null: whatever is released now (an approval). */
  baselineVariantId: string | null;
};

const conflict = (message: string) => new DomainError(ErrorCode.Conflict, message);

/**
 * Inside `tx`, under the component's lock: refuses while a rollout or an experience with
 * segments is live there, or when the release is not (any more) the baseline or is the
 * candidate; then the running rollout at stage 0 with a new assignment revision, the
 * RolloutStarted audit row and the rollout.started webhook event.
 */
export async function writeRolloutStart(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  input: RolloutStart,
  request?: { requestId: string; requestedBy: string },
): Promise<Rollout> {
  const { componentId, environmentId, candidateVariantId, stages, now, audit } = input;
  await lockComponent(tx, componentId);
  const where = { componentId, environmentId };
  const environment = await tx.environment.findUniqueOrThrow({ where: { id: environmentId }, select: { name: true } });
  if (await tx.rollout.findFirst({ where: { ...where, state: { in: [...LIVE] } }, select: { id: true } })) {
    throw conflict(`A rollout is live in ${environment.name} already: promote or stop it before starting another.`);
  }
  const experience = await tx.experienceRevision.findFirst({ where, orderBy: { number: 'desc' }, select: { definition: true } });
  if (experience && (experience.definition as { segments?: unknown[] }).segments?.length) {
    throw conflict(
      `An experience is live in ${environment.name}: an environment has an experience or a rollout, not both. Publish an experience without segments to turn it off first.`,
    );
  }
  const release = await tx.release.findUnique({ where: { componentId_environmentId: where }, select: { variantId: true } });
  const baselineVariantId = input.baselineVariantId ?? release?.variantId;
  if (!release || release.variantId !== baselineVariantId) {
    throw conflict(`The release of ${environment.name} changed meanwhile: read it again, then start the rollout.`);
  }
  if (release.variantId === candidateVariantId) {
    throw conflict(`The candidate is already the release of ${environment.name}: roll out a newer variant.`);
  }
  const first = stages[0];
  if (!first) throw new DomainError(ErrorCode.InvalidInput, 'A rollout needs at least one stage.', { field: 'stages' });
  const row = await tx.rollout.create({
    data: {
      id: input.id,
      ...where,
      candidateVariantId,
      baselineVariantId,
      salt: input.salt,
      stages: stages as unknown as Prisma.InputJsonValue,
      stageIndex: 0,
      weight: first.weight,
      state: 'running',
      revision: 1,
      guard: input.guard as unknown as Prisma.InputJsonValue,
      startedBy: input.startedBy,
      startedAt: now,
      stageStartedAt: now,
      windowStartedAt: now,
      assignmentRevision: await nextAssignmentRevision(tx),
    },
    include: { ...rolloutJoins, candidate: { select: { sequence: true } }, baseline: { select: { sequence: true } } },
  });
  const rollout = toRollout(row);
  await recordRolloutChange(tx, jobs, {
    kind: AuditKind.RolloutStarted,
    audit,
    now,
    rollout,
    candidateSequence: row.candidate.sequence,
    facts: {
      baseline: { id: rollout.baselineVariantId, sequence: row.baseline.sequence },
      stages: stages.map((stage) => ({ weight: stage.weight, holdMinutes: stage.holdMinutes })),
    },
    request,
  });
  return rollout;
}
