import { isUuid, notFound } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Locks the organization's row for the rest of `tx`, so writers that count what the organization
 * holds (against a limit) queue behind each other. NO KEY UPDATE leaves inserts of rows that
 * reference the organization free; a deletion (FOR UPDATE) waits, and a lock taken after it finds
 * no row: NOT_FOUND, never a foreign-key failure.
 */
export async function lockOrganization(
  tx: Prisma.TransactionClient,
  organizationId: string,
): Promise<void> {
  const found = isUuid(organizationId)
    ? await tx.$queryRaw<
        unknown[]
      >`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR NO KEY UPDATE`
    : [];
  if (found.length === 0) throw notFound('Organization', organizationId);
}
