import { isUuid, type Experiences } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { writeExperiencePublish } from './experience-publish.js';
import { toExperienceDraft, toExperienceRevision, withEnvironmentName } from './experience-rows.js';

export function createExperiences(prisma: PrismaClient, jobs: JobSender): Experiences {
  const revisions = (componentId: string, environmentId: string, take: number, number?: number) =>
    isUuid(componentId) && isUuid(environmentId)
      ? prisma.experienceRevision.findMany({
          where: { componentId, environmentId, ...(number === undefined ? {} : { number }) },
          include: withEnvironmentName,
          orderBy: { number: 'desc' },
          take,
        })
      : Promise.resolve([]);

  return {
    async findDraft(componentId, environmentId) {
      if (!isUuid(componentId) || !isUuid(environmentId)) return null;
      const row = await prisma.experienceDraft.findUnique({ where: { componentId_environmentId: { componentId, environmentId } } });
      return row && toExperienceDraft(row);
    },

    async saveDraft({ componentId, environmentId, definition, updatedBy, now }) {
      const data = { definition: definition as unknown as Prisma.InputJsonValue, updatedBy, updatedAt: now };
      const row = await prisma.experienceDraft.upsert({
        where: { componentId_environmentId: { componentId, environmentId } },
        create: { componentId, environmentId, ...data },
        update: data,
      });
      return toExperienceDraft(row);
    },

    publish: (input) => prisma.$transaction((tx) => writeExperiencePublish(tx, jobs, input)),

    async findLive(componentId, environmentId) {
      const [row] = await revisions(componentId, environmentId, 1);
      return row ? toExperienceRevision(row) : null;
    },

    async findRevision(componentId, environmentId, number) {
      if (!Number.isInteger(number) || number < 1 || number > 2 ** 31 - 1) return null;
      const [row] = await revisions(componentId, environmentId, 1, number);
      return row ? toExperienceRevision(row) : null;
    },

    async listRevisions(componentId, environmentId, limit) {
      return (await revisions(componentId, environmentId, limit)).map(toExperienceRevision);
    },
  };
}
