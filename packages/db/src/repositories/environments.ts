import { DomainError, ErrorCode, isUuid, type Environments } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { isUniqueViolation } from './errors.js';
import { toEnvironment } from './mappers.js';

export function createEnvironments(prisma: PrismaClient): Environments {
  return {
    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.environment.findMany({
        where: { organizationId },
        orderBy: [{ name: 'asc' }],
      });
      return rows.map(toEnvironment);
    },

    async findByName(organizationId, name) {
      if (!isUuid(organizationId)) return null;
      const row = await prisma.environment.findUnique({
        where: { organizationId_name: { organizationId, name } },
      });
      return row && toEnvironment(row);
    },

    async create({ id, organizationId, name, protected: isProtected, now }) {
      try {
        const row = await prisma.environment.create({
          data: { id, organizationId, name, protected: isProtected, createdAt: now },
        });
        return toEnvironment(row);
      } catch (error) {
        if (!isUniqueViolation(error, ['organization_id', 'name'])) throw error;
        throw nameTaken(name);
      }
    },

    async rename(id, name) {
      if (!isUuid(id)) return null;
      try {
        const { count } = await prisma.environment.updateMany({ where: { id }, data: { name } });
        if (count === 0) return null;
      } catch (error) {
        if (!isUniqueViolation(error, ['organization_id', 'name'])) throw error;
        throw nameTaken(name);
      }
      const row = await prisma.environment.findUnique({ where: { id } });
      return row && toEnvironment(row);
    },

    async setProtected(id, isProtected) {
      if (!isUuid(id)) return null;
      const { count } = await prisma.environment.updateMany({
        where: { id },
        data: { protected: isProtected },
      });
      if (count === 0) return null;
      const row = await prisma.environment.findUnique({ where: { id } });
      return row && toEnvironment(row);
    },

    async remove(id) {
      if (!isUuid(id)) return 'missing';
      // One statement: the check and the delete see the same snapshot, and a release
      // inserted concurrently fails on its foreign key instead of being cascaded away.
      const deleted = await prisma.$executeRaw`
        DELETE FROM environments e WHERE e.id = ${id}::uuid
          AND NOT EXISTS (SELECT 1 FROM releases r WHERE r.environment_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM release_events x WHERE x.environment_id = e.id)`;
      if (deleted > 0) return 'removed';
      return (await prisma.environment.count({ where: { id } })) > 0 ? 'in-use' : 'missing';
    },
  };
}

const nameTaken = (name: string): DomainError =>
  new DomainError(
    ErrorCode.NameTaken,
    `This organization already has an environment named "${name}". Use it, or choose another name.`,
    { field: 'environment' },
  );
