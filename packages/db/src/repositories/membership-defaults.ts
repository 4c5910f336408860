import type { PersonalOrganizationFor } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import { organizationData } from './organization-data.js';

/**
 * Inside `tx`: when `organizationId` is `userId`'s default and they are leaving it (left,
 * removed, or it is being deleted), their first other organization by name becomes the
 * default, or, when they belong to none, a new personal organization (as at sign-up) they own.
 * The user's row is locked first, so two changes about one person take turns.
 */
export async function moveDefault(
  tx: Prisma.TransactionClient,
  {
    userId,
    organizationId,
    personalOrganizationFor,
    now,
  }: {
    userId: string;
    organizationId: string;
    personalOrganizationFor: PersonalOrganizationFor;
    now: Date;
  },
): Promise<void> {
  const [user] = await tx.$queryRaw<{ id: string; email: string; display_name: string | null }[]>`
    SELECT id::text AS id, email, display_name FROM users
    WHERE id = ${userId}::uuid AND default_organization_id = ${organizationId}::uuid
    FOR UPDATE`;
  if (!user) return;
  const [other] = await tx.$queryRaw<{ id: string }[]>`
    SELECT o.id::text AS id FROM memberships m JOIN organizations o ON o.id = m.organization_id
    WHERE m.user_id = ${userId}::uuid AND m.organization_id <> ${organizationId}::uuid
    ORDER BY o.name, o.id LIMIT 1`;
  let next = other?.id;
  if (next === undefined) {
    const personal = personalOrganizationFor({
      id: user.id,
      email: user.email,
      displayName: user.display_name,
    });
    await tx.organization.create({
      data: {
        ...organizationData(personal, now),
        memberships: { create: { userId, role: 'owner', joinedAt: now } },
      },
    });
    next = personal.id;
  }
  await tx.user.update({ where: { id: userId }, data: { defaultOrganizationId: next } });
}
