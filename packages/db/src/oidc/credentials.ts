import { isUuid } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';

/** Password hashes for apps/auth-server (structural copy of its `Credentials` port). */
export interface Credentials {
  findPasswordHash(userId: string): Promise<string | null>;
  setPasswordHash(userId: string, passwordHash: string, now: Date): Promise<void>;
}

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
  };
}
