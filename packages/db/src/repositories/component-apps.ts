import { isUuid, type ComponentApps } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { toComponentApp, toLiveApp, withNames, type LiveAppRow } from './component-app-rows.js';
import { writeAppRemove, writeAppSave } from './component-app-write.js';

export function createComponentApps(prisma: PrismaClient, jobs: JobSender): ComponentApps {
  return {
    save: (input) => prisma.$transaction((tx) => writeAppSave(tx, jobs, input)),

    remove: async (input) => isUuid(input.componentId) && prisma.$transaction((tx) => writeAppRemove(tx, jobs, input)),

    async find(componentId) {
      if (!isUuid(componentId)) return null;
      const row = await prisma.componentApp.findUnique({ where: { componentId }, include: withNames });
      return row && toComponentApp(row);
    },

    async listForMember(userId) {
      if (!isUuid(userId)) return [];
      // Every tools/list of every member runs this: one statement, from the memberships index.
      const rows = await prisma.$queryRaw<LiveAppRow[]>`
        SELECT a.component_id AS "componentId", c.name AS "componentName",
          a.organization_id AS "organizationId", o.name AS "organizationName",
          a.environment_id AS "environmentId", e.name AS "environmentName",
          a.title, a.description, a.input_schema AS "inputSchema", a.action_tools AS "actionTools",
          a.updated_by AS "updatedBy", a.updated_at AS "updatedAt",
          r.variant_id AS "variantId", v.sequence AS "version"
        FROM memberships m
        JOIN component_apps a ON a.organization_id = m.organization_id
        JOIN organizations o ON o.id = a.organization_id
        JOIN components c ON c.id = a.component_id
        JOIN environments e ON e.id = a.environment_id
        LEFT JOIN releases r ON r.component_id = a.component_id AND r.environment_id = a.environment_id
        LEFT JOIN variants v ON v.id = r.variant_id
        WHERE m.user_id = ${userId}::uuid
        ORDER BY o.name, a.organization_id, c.name_key, a.component_id`;
      return rows.map(toLiveApp);
    },
  };
}
