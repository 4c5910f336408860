import { notFound } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Inside `tx`: the component's row, locked until the transaction ends. Releases, experience
 * publishes and rollout starts and changes of one component take turns on it (a lock that does
 * not block variant inserts), so "one of an experience or a rollout at a time" and every
 * check-then-write of theirs hold under concurrency. Returns its organization.
 */
export async function lockComponent(tx: Prisma.TransactionClient, componentId: string): Promise<{ organizationId: string }> {
  const [component] = await tx.$queryRaw<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM components WHERE id = ${componentId}::uuid FOR NO KEY UPDATE`;
  if (!component) throw notFound('Component', componentId);
  return component;
}

/** The next delivery descriptor revision (unique and increasing across every component environment). */
export async function nextAssignmentRevision(tx: Prisma.TransactionClient): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ revision: string }[]>`SELECT nextval('assignment_revisions')::text AS revision`;
  return BigInt(row!.revision);
}
