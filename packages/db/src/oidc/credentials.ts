import { isUuid, type Credentials } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';

/** The domain's `Credentials` port: password hashes, one row per user. */
export function createCredentials(prisma: PrismaClient): Credentials {
  return {
    async findPasswordHash(userId) {
      if (!isUuid(userId)) return null;
      const row = await prisma.credential.findUnique({ where: { userId }, select: { passwordHash: true } });
      return row?.passwordHash ?? null;
    },
    async setPasswordHash(userId, passwordHash, now) {
      await prisma.credential.upsert({
        where: { userId },
        create: { userId, passwordHash, updatedAt: now },
        update: { passwordHash, updatedAt: now },
      });
    },
    async replacePasswordHash(userId, expected, passwordHash, now) {
      if (!isUuid(userId)) return false;
      const { count } = await prisma.credential.updateMany({
        where: { userId, passwordHash: expected },
        data: { passwordHash, updatedAt: now },
      });
      return count === 1;
    },
  };
}
