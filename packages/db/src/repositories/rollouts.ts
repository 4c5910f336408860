import { isUuid, type Rollouts } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { writeRolloutChange } from './rollout-change.js';
import { LIVE, rolloutJoins, toGuardWindow, toRollout } from './rollout-rows.js';
import { writeRolloutStart } from './rollout-start.js';

export function createRollouts(prisma: PrismaClient, jobs: JobSender): Rollouts {
  return {
    start: (input) => prisma.$transaction((tx) => writeRolloutStart(tx, jobs, input)),

    change: (input) => prisma.$transaction((tx) => writeRolloutChange(tx, jobs, input)),

    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.rollout.findUnique({ where: { id }, include: rolloutJoins });
      return row && toRollout(row);
    },

    async findLive(componentId, environmentId) {
      if (!isUuid(componentId) || !isUuid(environmentId)) return null;
      // The partial unique index: at most one.
      const row = await prisma.rollout.findFirst({ where: { componentId, environmentId, state: { in: [...LIVE] } }, include: rolloutJoins });
      return row && toRollout(row);
    },

    async listForComponent(componentId, limit) {
      if (!isUuid(componentId)) return [];
      const rows = await prisma.rollout.findMany({
        where: { componentId },
        include: rolloutJoins,
        orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toRollout);
    },

    async listLive() {
      const rows = await prisma.rollout.findMany({ where: { state: { in: [...LIVE] } }, include: rolloutJoins, orderBy: { startedAt: 'asc' } });
      return rows.map(toRollout);
    },

    async windows(rolloutId) {
      if (!isUuid(rolloutId)) return [];
      const rows = await prisma.rolloutWindow.findMany({ where: { rolloutId }, orderBy: { index: 'asc' } });
      return rows.map(toGuardWindow);
    },
  };
}
