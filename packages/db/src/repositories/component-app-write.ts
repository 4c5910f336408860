import { AuditKind, WebhookEventType, type ComponentApp, type ComponentApps } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { toComponentApp, withNames } from './component-app-rows.js';
import { lockComponent } from './component-lock.js';
import { enqueueWebhookEvents } from './webhook-events.js';

type Tx = Prisma.TransactionClient;

/**
 * Inside `tx`, under the component's lock (so two saves agree on which one created the app):
 * the upsert, the AppSaved audit row and the app.saved webhook event.
 */
export async function writeAppSave(tx: Tx, jobs: JobSender, input: Parameters<ComponentApps['save']>[0]): Promise<ComponentApp> {
  const { componentId, environmentId, settings, savedBy, now, audit } = input;
  const { organizationId } = await lockComponent(tx, componentId);
  const created = (await tx.componentApp.count({ where: { componentId } })) === 0;
  const data = {
    environmentId,
    title: settings.title,
    description: settings.description,
    // No schema is a SQL NULL, not a JSON null.
    inputSchema: settings.inputSchema === null ? Prisma.DbNull : (settings.inputSchema as Prisma.InputJsonValue),
    actionTools: settings.actionTools as Prisma.InputJsonValue,
    updatedBy: savedBy,
    updatedAt: now,
  };
  const row = await tx.componentApp.upsert({
    where: { componentId },
    create: { componentId, organizationId, ...data },
    update: data,
    include: withNames,
  });
  const app = toComponentApp(row);
  await recordAudit(tx, {
    note: audit,
    organizationId,
    kind: AuditKind.AppSaved,
    componentId,
    details: {
      created,
      environment: app.environmentName,
      title: app.title,
      inputSchema: app.inputSchema !== null,
      actionTools: Object.keys(app.actionTools).length,
    },
    createdAt: now,
  });
  await enqueueWebhookEvents(tx, jobs, {
    type: WebhookEventType.AppSaved,
    organizationId,
    componentId,
    note: audit,
    occurredAt: now,
    data: {
      environment: { id: environmentId, name: app.environmentName },
      created,
      title: app.title,
      description: app.description,
      inputSchema: app.inputSchema !== null,
      actionTools: app.actionTools,
    },
  });
  return app;
}

/** Inside `tx`: the delete, the AppRemoved audit row and the app.removed webhook event; false when there was no app. */
export async function writeAppRemove(tx: Tx, jobs: JobSender, input: Parameters<ComponentApps['remove']>[0]): Promise<boolean> {
  const { componentId, now, audit } = input;
  const [removed] = await tx.$queryRaw<{ organizationId: string; title: string; environmentId: string; environmentName: string }[]>`
    DELETE FROM component_apps a USING environments e
    WHERE a.component_id = ${componentId}::uuid AND e.id = a.environment_id
    RETURNING a.organization_id AS "organizationId", a.title, e.id AS "environmentId", e.name AS "environmentName"`;
  if (!removed) return false;
  const { organizationId, title, environmentId, environmentName } = removed;
  await recordAudit(tx, {
    note: audit,
    organizationId,
    kind: AuditKind.AppRemoved,
    componentId,
    details: { environment: environmentName, title },
    createdAt: now,
  });
  await enqueueWebhookEvents(tx, jobs, {
    type: WebhookEventType.AppRemoved,
    organizationId,
    componentId,
    note: audit,
    occurredAt: now,
    data: { environment: { id: environmentId, name: environmentName }, title },
  });
  return true;
}
