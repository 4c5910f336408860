import { AuditKind, type AuditValue } from '../entities/audit-event.js';
import type { ComponentApp, LiveApp } from '../entities/component-app.js';
import { WebhookEventType } from '../entities/webhook.js';
import type { ComponentApps } from '../ports/component-apps.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState, type StoredApp } from './in-memory-state.js';

/** Plain-array apps; each method runs without awaiting in between, so it is atomic. */
export function inMemoryApps(state: InMemoryState): ComponentApps {
  const joined = (app: StoredApp): ComponentApp => ({
    ...app,
    componentName: byKey(state.components, app.componentId)?.name ?? '?',
    environmentName: byKey(state.environments, app.environmentId)?.name ?? '?',
  });
  const record = (app: StoredApp | ComponentApp, kind: AuditKind, type: WebhookEventType, audit: Parameters<ComponentApps['remove']>[0]['audit'], now: Date, details: { [key: string]: AuditValue }) => {
    state.recordAudit(auditEventFor(audit, { organizationId: app.organizationId, kind, now, componentId: app.componentId, details }));
    state.webhookEvents.push({ organizationId: app.organizationId, componentId: app.componentId, type, data: details });
  };
  return {
    async save({ componentId, environmentId, settings, savedBy, now, audit }) {
      const organizationId = byKey(state.components, componentId)?.organizationId ?? '';
      const created = !state.apps.some((a) => a.componentId === componentId);
      const stored: StoredApp = { componentId, organizationId, environmentId, ...settings, updatedBy: savedBy, updatedAt: now };
      state.apps = [...state.apps.filter((a) => a.componentId !== componentId), stored];
      const app = joined(stored);
      record(app, AuditKind.AppSaved, WebhookEventType.AppSaved, audit, now, {
        created,
        environment: app.environmentName,
        title: app.title,
        inputSchema: app.inputSchema !== null,
        actionTools: Object.keys(app.actionTools).length,
      });
      return app;
    },
    async remove({ componentId, now, audit }) {
      const app = state.apps.find((a) => a.componentId === componentId);
      if (app === undefined) return false;
      state.apps = state.apps.filter((a) => a !== app);
      record(app, AuditKind.AppRemoved, WebhookEventType.AppRemoved, audit, now, { environment: joined(app).environmentName, title: app.title });
      return true;
    },
    find: async (componentId) => {
      const app = state.apps.find((a) => a.componentId === componentId);
      return app ? joined(app) : null;
    },
    async listForMember(userId) {
      const organizations = new Set(state.memberships.filter((m) => m.userId === userId).map((m) => m.organizationId));
      return state.apps
        .filter((app) => organizations.has(app.organizationId))
        .map((app): LiveApp => {
          const release = state.releases.find((r) => r.componentId === app.componentId && r.environmentId === app.environmentId);
          const variant = release ? byKey(state.variants, release.variantId) : undefined;
          return {
            app: joined(app),
            organizationName: byKey(state.organizations, app.organizationId)?.name ?? '?',
            release: release && variant ? { variantId: variant.id, version: variant.sequence } : null,
          };
        });
    },
  };
}
