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

    async create({ id, organizationId, name, now }) {
      try {
        const row = await prisma.environment.create({
          data: { id, organizationId, name, createdAt: now },
        });
        return toEnvironment(row);
      } catch (error) {
        if (!isUniqueViolation(error, ['organization_id', 'name'])) throw error;
        throw new DomainError(
          ErrorCode.NameTaken,
          `This organization already has an environment named "${name}". Use it, or choose another name.`,
          { field: 'environment' },
        );
      }
    },
  };
}
