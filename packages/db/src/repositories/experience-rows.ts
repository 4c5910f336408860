import type { ExperienceDefinition, ExperienceDraft, ExperienceRevision } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

export const withEnvironmentName = { environment: { select: { name: true } } } as const;
type RevisionRow = Prisma.ExperienceRevisionGetPayload<{ include: typeof withEnvironmentName }>;

export const toExperienceDraft = (row: Prisma.ExperienceDraftGetPayload<object>): ExperienceDraft => ({
  componentId: row.componentId,
  environmentId: row.environmentId,
  definition: row.definition as unknown as ExperienceDefinition,
  updatedBy: row.updatedBy,
  updatedAt: row.updatedAt,
});

export const toExperienceRevision = (row: RevisionRow): ExperienceRevision => ({
  componentId: row.componentId,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  number: row.number,
  definition: row.definition as unknown as ExperienceDefinition,
  salt: row.salt,
  republishedFrom: row.republishedFrom,
  publishedBy: row.publishedBy,
  publishedAt: row.publishedAt,
});
