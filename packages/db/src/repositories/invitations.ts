import {
  acceptRefusal,
  AuditKind,
  emailKey,
  invitationAuditEvent,
  isUuid,
  type Invitation,
  type Invitations,
  type Role,
} from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { auditRowOf, recordAudit } from './audit-record.js';
import { toInvitation } from './mappers.js';


/** Thrown inside the acceptance's transaction to roll the claim back: the person was a member already. */
class AlreadyMember extends Error {
  constructor(
    readonly invitation: Invitation,
    readonly role: Role,
  ) {
    super('already a member');
  }
}

export function createInvitations(prisma: PrismaClient): Invitations {
  return {
    async create(invitation, audit) {
      const key = emailKey(invitation.email);
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues invitations to it, so parallel ones for one email leave one open.
        await tx.$queryRaw`SELECT 1 FROM "organizations" WHERE "id" = ${invitation.organizationId}::uuid FOR NO KEY UPDATE`;
        const member = await tx.membership.findFirst({
          where: { organizationId: invitation.organizationId, user: { emailKey: key } },
          select: { userId: true },
        });
        if (member) return 'already-member' as const;
        const replaced = (
          await tx.invitation.updateManyAndReturn({
            where: {
              organizationId: invitation.organizationId,
              emailKey: key,
              acceptedAt: null,
              revokedAt: null,
            },
            data: { revokedAt: invitation.createdAt, revokedBy: invitation.invitedBy },
            select: { id: true },
          })
        ).map((row) => row.id);
        const created = toInvitation(
          await tx.invitation.create({ data: { ...invitation, emailKey: key } }),
        );
        await recordAudit(
          tx,
          auditRowOf(
            invitationAuditEvent(created, audit, AuditKind.InvitationCreated, invitation.createdAt, {
              details: { replaced },
            }),
            audit,
          ),
        );
        return { invitation: created, replaced };
      });
    },

    async listForOrganization(organizationId, { limit }) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.invitation.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toInvitation);
    },

    async revoke({ organizationId, invitationId, now }, audit) {
      if (!isUuid(organizationId) || !isUuid(invitationId)) return null;
      return prisma.$transaction(async (tx) => {
        const [revoked] = await tx.invitation.updateManyAndReturn({
          where: { id: invitationId, organizationId, acceptedAt: null, revokedAt: null },
          data: { revokedAt: now, revokedBy: audit.actorId },
        });
        if (revoked) {
          const invitation = toInvitation(revoked);
          await recordAudit(tx, auditRowOf(invitationAuditEvent(invitation, audit, AuditKind.InvitationRevoked, now), audit));
          return invitation;
        }
        const row = await tx.invitation.findFirst({ where: { id: invitationId, organizationId } });
        return row && toInvitation(row);
      });
    },

    async findByTokenHash(tokenHash) {
      const row = await prisma.invitation.findUnique({ where: { tokenHash } });
      return row && toInvitation(row);
    },

    async accept({ tokenHash, userId, emailKey: accountKey, now }, audit) {
      try {
        const accepted = await prisma.$transaction(async (tx) => {
          // The claim: of parallel acceptances, the others wait on this row and then match nothing.
          const [claimed] = await tx.invitation.updateManyAndReturn({
            where: {
              tokenHash,
              emailKey: accountKey,
              acceptedAt: null,
              revokedAt: null,
              expiresAt: { gt: now },
            },
            data: { acceptedAt: now, acceptedBy: userId },
          });
          if (!claimed) return null;
          const invitation = toInvitation(claimed);
          const { count } = await tx.membership.createMany({
            data: [{ userId, organizationId: invitation.organizationId, role: invitation.role }],
            skipDuplicates: true,
          });
          if (count === 0) {
            const existing = await tx.membership.findUniqueOrThrow({
              where: {
                userId_organizationId: { userId, organizationId: invitation.organizationId },
              },
            });
            throw new AlreadyMember(invitation, existing.role);
          }
          await recordAudit(
            tx,
            auditRowOf(
              invitationAuditEvent(invitation, audit, AuditKind.InvitationAccepted, now, {
                subjectUserId: userId,
              }),
              audit,
            ),
          );
          return invitation;
        });
        if (accepted) return { status: 'accepted', invitation: accepted };
      } catch (error) {
        if (!(error instanceof AlreadyMember)) throw error;
        // The claim was rolled back: report the invitation as it is stored, still pending.
        return {
          status: 'already-member',
          invitation: { ...error.invitation, acceptedAt: null, acceptedBy: null },
          role: error.role,
        };
      }
      const row = await prisma.invitation.findUnique({ where: { tokenHash } });
      if (!row) return { status: 'not-found' };
      const invitation = toInvitation(row);
      // Nothing matched the claim, so one of these holds; 'used' covers a claim that raced this read.
      return { status: acceptRefusal(invitation, accountKey, now) ?? 'used', invitation };
    },
  };
}
