import { DomainError, ErrorCode, type NewOrganization } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import { isUniqueViolation } from './errors.js';

/** An organization with its environments, as one nested create (one statement batch, atomic). */
export const organizationData = (organization: NewOrganization, now: Date) =>
  ({
    id: organization.id,
    name: organization.name,
    createdAt: now,
    environments: {
      create: organization.environments.map((env) => ({
        id: env.id,
        name: env.name,
        protected: env.protected,
        createdAt: now,
      })),
    },
  }) satisfies Prisma.OrganizationCreateInput;

/** Two environments of one new organization with the same name: the caller's bug, reported plainly. */
export function environmentTaken(
  error: unknown,
  organization: NewOrganization,
): DomainError | null {
  if (!isUniqueViolation(error, ['organization_id', 'name'])) return null;
  const names = organization.environments.map((env) => env.name).join(', ');
  return new DomainError(
    ErrorCode.NameTaken,
    `An organization cannot have two environments with the same name (${names}).`,
    {
      field: 'environment',
    },
  );
}
