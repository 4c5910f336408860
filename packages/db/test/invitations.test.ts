import { invitationsContract } from '@cp/domain/testing';
import { aMembership } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('invitations', (db) => {
  invitationsContract(() => ({
    repos: db().repos,
    auditOf: async (organizationId) =>
      (
        await db().prisma.auditEvent.findMany({
          where: { organizationId },
          orderBy: { seq: 'asc' },
        })
      ).map((row) => ({
        kind: row.kind as never,
        actorId: row.actorId,
        subjectUserId: row.subjectUserId,
        details: row.details as never,
      })),
    addMember: async (userId, organizationId, role) => {
      await aMembership(db(), { userId, organizationId, role });
    },
  }));

  it('refuses an owner invitation in the database itself', async () => {
    const [organization] = await db().prisma.organization.findMany({ take: 1 });
    await expect(
      db().prisma
        .$executeRaw`INSERT INTO "invitations" ("id", "organization_id", "email", "email_key", "role", "token_hash", "invited_by", "created_at", "expires_at")
        VALUES (gen_random_uuid(), ${organization!.id}::uuid, 'o@example.test', 'o@example.test', 'owner', 'hash-owner', gen_random_uuid(), now(), now())`,
    ).rejects.toThrow(/invitations_role_not_owner/);
  });
});
