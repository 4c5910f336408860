import {
  AuditKind,
  can,
  isUuid,
  Permission,
  roleRefused,
  type AuditNote,
  type ReleaseRequest,
  type ReleaseRequestPlan,
  type ReleaseRequests,
  type Role,
} from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import type { JobSender } from '../jobs/job-sender.js';
import { writeApprovedPlan } from './approved-plan-write.js';

const joined = {
  component: { select: { name: true, organizationId: true } },
  environment: { select: { name: true } },
  variant: { select: { sequence: true } },
} as const;
type Row = Prisma.ReleaseRequestGetPayload<{ include: typeof joined }>;

const toReleaseRequest = (row: Row): ReleaseRequest => ({
  id: row.id,
  organizationId: row.component.organizationId,
  componentId: row.componentId,
  componentName: row.component.name,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  variantId: row.variantId,
  variantSequence: row.variant.sequence,
  requestedBy: row.requestedBy,
  requestedAt: row.requestedAt,
  state: row.state,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt,
  declineReason: row.declineReason,
  releaseEventId: row.releaseEventId,
  plan: row.plan as unknown as ReleaseRequestPlan,
});

const RELEASE_PLAN: ReleaseRequestPlan = { kind: 'release' };

export function createReleaseRequests(prisma: PrismaClient, jobs: JobSender): ReleaseRequests {
  /** The request's audit row: who asked, where, which variant and plan, plus what the decision adds. */
  const audit = (tx: Prisma.TransactionClient, request: ReleaseRequest, kind: AuditKind, note: AuditNote, at: Date, extra: Record<string, string> = {}) =>
    recordAudit(tx, {
      note: note,
      organizationId: request.organizationId,
      kind,
      componentId: request.componentId,
      details: {
        requestId: request.id,
        requestedBy: request.requestedBy,
        environment: request.environmentName,
        variantId: request.variantId,
        variantSequence: request.variantSequence,
        // An experience or rollout request says so (its variant is then the release or the candidate).
        ...(request.plan.kind === 'release' ? {} : { plan: request.plan.kind }),
        ...extra,
      },
      createdAt: at,
    });

  /**
   * Inside `tx`: the decider's role read under a share lock on the membership (a concurrent role
   * change waits), then the conditional UPDATE that claims the pending request. Null when the
   * request is not pending (any more).
   */
  async function claim(tx: Prisma.TransactionClient, requestId: string, decidedBy: string, now: Date, data: Prisma.ReleaseRequestUpdateManyMutationInput) {
    const [role] = await tx.$queryRaw<{ role: Role }[]>`
      SELECT m.role::text AS role FROM release_requests r
      JOIN components c ON c.id = r.component_id
      JOIN memberships m ON m.organization_id = c.organization_id AND m.user_id = ${decidedBy}::uuid
      WHERE r.id = ${requestId}::uuid
      FOR SHARE OF m`;
    if (!role && (await tx.releaseRequest.count({ where: { id: requestId } })) === 0) return false;
    if (!role || !can(role.role, Permission.PublishProtected)) throw roleRefused('approve or decline release requests');
    const claimed = await tx.releaseRequest.updateMany({
      where: { id: requestId, state: 'pending' },
      data: { ...data, decidedBy, decidedAt: now },
    });
    return claimed.count === 1;
  }

  const find = async (id: string) => {
    const row = await prisma.releaseRequest.findUnique({ where: { id }, include: joined });
    return row && toReleaseRequest(row);
  };

  /** Why a decision changed nothing: the request was decided first, or does not exist. */
  const unclaimed = async (requestId: string) => {
    const request = await find(requestId);
    return request ? ({ outcome: 'already-decided', request } as const) : ({ outcome: 'missing' } as const);
  };

  return {
    async create({ audit: note, plan = RELEASE_PLAN, ...input }) {
      for (;;) {
        const created = await prisma.$transaction(async (tx) => {
          // The requester's role as the request is written (a share lock: a concurrent demotion waits, or is seen).
          const [requester] = await tx.$queryRaw<{ role: Role }[]>`
            SELECT m.role::text AS role FROM components c
            JOIN memberships m ON m.organization_id = c.organization_id AND m.user_id = ${input.requestedBy}::uuid
            WHERE c.id = ${input.componentId}::uuid
            FOR SHARE OF m`;
          if (!requester || !can(requester.role, Permission.Publish)) throw roleRefused('ask for releases');
          // The partial unique index keeps one pending request per (component, environment).
          const inserted = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO release_requests (id, component_id, environment_id, variant_id, requested_by, requested_at, plan)
            VALUES (${input.id}::uuid, ${input.componentId}::uuid, ${input.environmentId}::uuid, ${input.variantId}::uuid, ${input.requestedBy}::uuid, ${input.now},
              ${JSON.stringify(plan)}::jsonb)
            ON CONFLICT (component_id, environment_id) WHERE state = 'pending' DO NOTHING
            RETURNING id`;
          if (inserted.length === 0) return null;
          const request = toReleaseRequest(await tx.releaseRequest.findUniqueOrThrow({ where: { id: input.id }, include: joined }));
          await audit(tx, request, AuditKind.ReleaseRequested, note, input.now);
          return request;
        });
        if (created) return { request: created, created: true };
        const pending = await prisma.releaseRequest.findFirst({
          where: { componentId: input.componentId, environmentId: input.environmentId, state: 'pending' },
          include: joined,
        });
        // Decided between the insert and this read: try again (the insert now succeeds).
        if (pending) return { request: toReleaseRequest(pending), created: false };
      }
    },

    findById: async (id) => (isUuid(id) ? find(id) : null),

    async listPending(componentId) {
      if (!isUuid(componentId)) return [];
      const rows = await prisma.releaseRequest.findMany({ where: { componentId, state: 'pending' }, include: joined, orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }] });
      return rows.map(toReleaseRequest);
    },

    async listForOrganization(organizationId, { limit }) {
      if (!isUuid(organizationId)) return [];
      const where = { component: { organizationId } };
      const pending = await prisma.releaseRequest.findMany({ where: { ...where, state: 'pending' }, include: joined, orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }], take: limit });
      const decided = pending.length >= limit ? [] : await prisma.releaseRequest.findMany({
        where: { ...where, state: { not: 'pending' } },
        include: joined,
        orderBy: [{ decidedAt: 'desc' }, { id: 'asc' }],
        take: limit - pending.length,
      });
      return [...pending, ...decided].map(toReleaseRequest);
    },

    async approve(input) {
      const { requestId, approvedBy, eventId, now, audit: note } = input;
      if (!isUuid(requestId)) return { outcome: 'missing' };
      const approved = await prisma.$transaction(async (tx) => {
        // Only a release plan makes a release event (the plan never changes: read before the claim).
        const [asked] = await tx.$queryRaw<{ plan: ReleaseRequestPlan }[]>`SELECT plan FROM release_requests WHERE id = ${requestId}::uuid`;
        const releaseEventId = asked?.plan.kind === 'release' ? eventId : null;
        if (!(await claim(tx, requestId, approvedBy, now, { state: 'approved', releaseEventId }))) return null;
        const request = toReleaseRequest(await tx.releaseRequest.findUniqueOrThrow({ where: { id: requestId }, include: joined }));
        const applied = await writeApprovedPlan(tx, jobs, request, input);
        await audit(tx, request, AuditKind.ReleaseApproved, note, now);
        return { outcome: 'approved', request, applied } as const;
      });
      return approved ?? unclaimed(requestId);
    },

    async decline({ requestId, declinedBy, reason, now, audit: note }) {
      if (!isUuid(requestId)) return { outcome: 'missing' };
      const declined = await prisma.$transaction(async (tx) => {
        if (!(await claim(tx, requestId, declinedBy, now, { state: 'declined', declineReason: reason }))) return null;
        const request = toReleaseRequest(await tx.releaseRequest.findUniqueOrThrow({ where: { id: requestId }, include: joined }));
        await audit(tx, request, AuditKind.ReleaseDeclined, note, now, { reason });
        return { outcome: 'declined', request } as const;
      });
      return declined ?? unclaimed(requestId);
    },
  };
}
