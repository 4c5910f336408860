import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

/**
 * ApiTokens.attachGrant and CiTrustPolicies.attachGrant: a compare-and-set of the credential's
 * grant in one UPDATE (of parallel exchanges, one sets it), then the grant that holds. The
 * read is a statement of its own, so it sees the winner's commit. null: no such credential, or
 * one that `live` (a condition on its row) no longer admits.
 */
export async function attachGrant(
  prisma: PrismaClient,
  input: {
    table: 'api_tokens' | 'ci_trust_policies';
    id: string;
    grantId: string;
    expected: string | null;
    live?: 'revoked_at IS NULL';
  },
): Promise<string | null> {
  const table = Prisma.raw(input.table);
  const live = Prisma.raw(input.live ?? 'TRUE');
  const [set] = await prisma.$queryRaw<{ grant_id: string }[]>`
    UPDATE ${table} SET grant_id = ${input.grantId}
    WHERE id = ${input.id}::uuid AND grant_id IS NOT DISTINCT FROM ${input.expected}::text AND ${live}
    RETURNING grant_id`;
  if (set) return set.grant_id;
  const [current] = await prisma.$queryRaw<{ grant_id: string | null }[]>`
    SELECT grant_id FROM ${table} WHERE id = ${input.id}::uuid AND ${live}`;
  return current?.grant_id ?? null;
}
