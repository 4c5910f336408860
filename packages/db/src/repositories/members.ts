import {
  checkMembershipChange,
  DomainError,
  ErrorCode,
  isUuid,
  membershipAudit,
  Role,
  type Members,
  type Membership,
} from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { auditRowOf, recordAudit } from './audit-record.js';
import { moveDefault } from './membership-defaults.js';

/** The organization's memberships, locked (in user id order, so concurrent changes never deadlock). */
export async function lockMemberships(
  tx: Prisma.TransactionClient,
  organizationId: string,
): Promise<Membership[]> {
  if (!isUuid(organizationId)) return [];
  const rows = await tx.$queryRaw<{ user_id: string; role: Role }[]>`
    SELECT user_id::text AS user_id, role::text AS role FROM memberships
    WHERE organization_id = ${organizationId}::uuid ORDER BY user_id FOR UPDATE`;
  return rows.map((row) => ({ userId: row.user_id, organizationId, role: row.role }));
}

export function createMembers(prisma: PrismaClient): Members {
  return {
    async list(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.membership.findMany({
        where: { organizationId },
        include: { user: { select: { email: true, displayName: true } } },
        // The enum's order is owner, admin, member, viewer: ordering by role puts owners first.
        orderBy: [{ role: 'asc' }, { user: { emailKey: 'asc' } }, { userId: 'asc' }],
      });
      return rows.map((row) => ({
        userId: row.userId,
        organizationId: row.organizationId,
        role: row.role,
        email: row.user.email,
        displayName: row.user.displayName,
        joinedAt: row.joinedAt,
      }));
    },

    async change({ organizationId, actorId, change, personalOrganizationFor, audit, now }) {
      return prisma.$transaction(async (tx) => {
        // Every change to one organization's memberships takes turns on these row locks, and is
        // checked against the roles as they are now: two owners demoting each other, or two
        // admins changing one member, run one after the other and the second sees the first.
        const memberships = await lockMemberships(tx, organizationId);
        const find = (userId: string) => memberships.find((m) => m.userId === userId) ?? null;
        const actor = find(actorId);
        const subject = change.kind === 'leave' ? actor : find(change.userId);
        const owners = memberships.filter((m) => m.role === Role.Owner).length;
        const result = checkMembershipChange(change, { organizationId, actor, subject, owners });

        const key = { organizationId, userId: result.userId, role: result.before };
        // Conditional writes: under the locks they always match; if not, nothing is committed.
        const written =
          result.after === null
            ? await tx.membership.deleteMany({ where: key })
            : await tx.membership.updateMany({ where: key, data: { role: result.after } });
        if (written.count !== 1) throw changedMeanwhile();
        if (change.kind === 'transfer') {
          const demoted = await tx.membership.updateMany({
            where: { organizationId, userId: actorId, role: Role.Owner },
            data: { role: Role.Admin },
          });
          if (demoted.count !== 1) throw changedMeanwhile();
        }
        if (result.after === null) {
          await moveDefault(tx, {
            userId: result.userId,
            organizationId,
            personalOrganizationFor,
            now,
          });
        }
        await recordAudit(tx, auditRowOf(membershipAudit(change, result, { organizationId, audit, now }), audit));
        return result;
      });
    },
  };
}

const changedMeanwhile = (): DomainError =>
  new DomainError(
    ErrorCode.Conflict,
    'The members of this organization changed meanwhile. Reload the page and try again.',
  );
