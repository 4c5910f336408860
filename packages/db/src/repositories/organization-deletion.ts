import { checkOrganizationDeletion, isUuid, type Organizations } from '@cp/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { moveDefault } from './membership-defaults.js';
import { enqueueIfExporting, type EnqueueStaticExport } from './static-export-queue.js';

/** Organizations.delete: see the port. */
export async function deleteOrganization(
  prisma: PrismaClient,
  {
    organizationId,
    actorId,
    confirmName,
    personalOrganizationFor,
    now,
  }: Parameters<Organizations['delete']>[0],
  exportJobs: EnqueueStaticExport,
): Promise<{ objectKeys: string[] }> {
  if (!isUuid(organizationId) || !isUuid(actorId)) {
    checkOrganizationDeletion({ organizationId, name: '', actor: null }, confirmName);
  }
  return prisma.$transaction(
    async (tx) => {
      // FOR UPDATE on the organization: rows that reference it (a new membership, component,
      // upload) wait for this transaction and then fail their foreign key, instead of being
      // added to an organization that is going away. A rename waits too, so the typed name is
      // checked against the name that is deleted.
      const [organization] = await tx.$queryRaw<{ name: string }[]>`
        SELECT name FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
      const [actor] = await tx.$queryRaw<{ role: 'owner' | 'admin' | 'member' | 'viewer' }[]>`
        SELECT role::text AS role FROM memberships
        WHERE organization_id = ${organizationId}::uuid AND user_id = ${actorId}::uuid FOR UPDATE`;
      checkOrganizationDeletion(
        {
          organizationId,
          name: organization?.name ?? '',
          actor:
            organization && actor ? { userId: actorId, organizationId, role: actor.role } : null,
        },
        confirmName,
      );
      const defaults = await tx.$queryRaw<{ id: string }[]>`
        SELECT id::text AS id FROM users WHERE default_organization_id = ${organizationId}::uuid ORDER BY id`;
      for (const user of defaults) {
        await moveDefault(tx, { userId: user.id, organizationId, personalOrganizationFor, now });
      }
      const objects = await tx.$queryRaw<{ key: string }[]>`
        SELECT v.object_key AS key FROM variants v JOIN components c ON c.id = v.component_id
        WHERE c.organization_id = ${organizationId}::uuid
        UNION ALL
        SELECT staging_key AS key FROM upload_sessions
        WHERE organization_id = ${organizationId}::uuid AND staging_removed_at IS NULL`;
      // Its static export: the job finds it gone and empties its folder.
      await enqueueIfExporting(tx, organizationId, exportJobs);
      // Its credentials' OAuth grants live outside it (oidc_payloads): they go first, so their access tokens stop.
      await tx.$executeRaw`
        DELETE FROM oidc_payloads
        WHERE grant_id IN (${credentialGrants(organizationId)}) OR (type = 'Grant' AND id IN (${credentialGrants(organizationId)}))`;
      // Everything else goes with it through ON DELETE CASCADE, its audit trail included.
      await tx.organization.delete({ where: { id: organizationId } });
      return { objectKeys: objects.map((row) => row.key) };
    },
    // An organization with many components deletes many rows: more than the default 5 s.
    { timeout: 60_000 },
  );
}

const credentialGrants = (organizationId: string) => Prisma.sql`
  SELECT grant_id FROM api_tokens WHERE organization_id = ${organizationId}::uuid AND grant_id IS NOT NULL
  UNION ALL
  SELECT grant_id FROM ci_trust_policies WHERE organization_id = ${organizationId}::uuid AND grant_id IS NOT NULL`;
