import { AuditKind, DomainError, ErrorCode, isUuid, type Users } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { isUniqueViolation } from './errors.js';
import { toUser } from './mappers.js';
import { environmentTaken, organizationData } from './organization-data.js';

/** Case-insensitive email identity: the unique `email_key` column holds this. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export function createUsers(prisma: PrismaClient): Users {
  return {
    async createWithOrganization({ user, organization, passwordHash, now, audit }) {
      try {
        // One transaction: the organization (with its environments) first, then the
        // user who points at it as default, with an owner membership and the password
        // hash, then the organization's audit row.
        const created = await prisma.$transaction(async (tx) => {
          await tx.organization.create({ data: organizationData(organization, now) });
          const row = await tx.user.create({
            data: {
              id: user.id,
              email: user.email,
              emailKey: emailKey(user.email),
              displayName: user.displayName,
              defaultOrganizationId: organization.id,
              createdAt: now,
              memberships: { create: { organizationId: organization.id, role: 'owner', joinedAt: now } },
              ...(passwordHash === undefined ? {} : { credential: { create: { passwordHash, updatedAt: now } } }),
            },
          });
          if (audit !== undefined) {
            const details = { name: organization.name };
            await recordAudit(tx, { note: audit, organizationId: organization.id, kind: AuditKind.OrganizationCreated, details, createdAt: now });
          }
          return row;
        });
        return toUser(created);
      } catch (error) {
        throw emailTaken(error, user.email) ?? environmentTaken(error, organization) ?? error;
      }
    },

    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.user.findUnique({ where: { id } });
      return row && toUser(row);
    },

    async findByIds(ids) {
      const wanted = [...new Set(ids)].filter(isUuid);
      if (wanted.length === 0) return [];
      const rows = await prisma.user.findMany({ where: { id: { in: wanted } } });
      return rows.map(toUser);
    },

    async findByEmail(email) {
      const row = await prisma.user.findUnique({ where: { emailKey: emailKey(email) } });
      return row && toUser(row);
    },
  };
}

function emailTaken(error: unknown, email: string): DomainError | null {
  if (!isUniqueViolation(error, ['email_key'])) return null;
  return new DomainError(
    ErrorCode.NameTaken,
    `An account with the email ${email} already exists. Sign in with it, or sign up with another email address.`,
    { field: 'email' },
  );
}
