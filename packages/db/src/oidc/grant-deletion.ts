import type { Prisma } from '../generated/prisma/client.js';

/**
 * Deletes an OAuth grant and everything oidc-provider stored under it (access and refresh
 * tokens, codes) in one statement, inside the caller's transaction, so the grant check refuses
 * its access tokens from then on. True when this call deleted the grant itself (a concurrent
 * deletion that came first answers false here).
 */
export async function deleteGrant(tx: Prisma.TransactionClient, grantId: string): Promise<boolean> {
  const deleted = await tx.$queryRaw<{ type: string }[]>`
    DELETE FROM oidc_payloads WHERE grant_id = ${grantId} OR (id = ${grantId} AND type = 'Grant')
    RETURNING type`;
  return deleted.some((row) => row.type === 'Grant');
}
