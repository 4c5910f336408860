import type { ApprovedPlan, ReleaseRequest, ReleaseRequests } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { writeExperiencePublish } from './experience-publish.js';
import { writeRelease } from './release-write.js';
import { writeRolloutStart } from './rollout-start.js';

type Approval = Parameters<ReleaseRequests['approve']>[0];

/**
 * Inside the approval's transaction: what the request's plan asks for, done by the approver and
 * recorded with the request (`requestId`, `requestedBy`): its variant released, the experience
 * published (keeping the live salt when its phase says so), or the rollout started against the
 * release of now. A refusal (a rollout or experience live meanwhile) rolls the approval back.
 */
export async function writeApprovedPlan(tx: Prisma.TransactionClient, jobs: JobSender, request: ReleaseRequest, approval: Approval): Promise<ApprovedPlan> {
  const { componentId, environmentId, variantId, plan } = request;
  const { approvedBy, now, salt } = approval;
  const audit = { ...approval.audit, eventId: approval.publishAuditId };
  const asked = { requestId: request.id, requestedBy: request.requestedBy };
  switch (plan.kind) {
    case 'experience': {
      const revision = await writeExperiencePublish(
        tx,
        jobs,
        { componentId, environmentId, definition: plan.definition, salt, keepLiveSalt: plan.phase === 'keep', republishedFrom: plan.republishedFrom, moved: approval.moved, publishedBy: approvedBy, now, audit },
        asked,
      );
      return { kind: 'experience', revision };
    }
    case 'rollout': {
      const rollout = await writeRolloutStart(
        tx,
        jobs,
        { id: approval.rolloutId, componentId, environmentId, candidateVariantId: variantId, baselineVariantId: null, salt, stages: plan.stages, guard: plan.guard, startedBy: approvedBy, now, audit },
        asked,
      );
      return { kind: 'rollout', rollout };
    }
    case 'release': {
      const event = await writeRelease(tx, jobs, { eventId: approval.eventId, componentId, environmentId, variantId, releasedBy: approvedBy, now, audit }, asked);
      return { kind: 'release', event };
    }
  }
}
