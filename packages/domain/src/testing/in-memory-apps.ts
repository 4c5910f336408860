import { AuditKind, type AuditNote, type AuditValue } from '../entities/audit-event.js';
import type { ComponentApp, LiveApp } from '../entities/component-app.js';
import { WebhookEventType } from '../entities/webhook.js';
import type { ComponentApps } from '../ports/component-apps.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState, type StoredApp } from './in-memory-state.js';

/** The order of packages/db's query, for the plain names tests use (collations aside). */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Plain-array apps; each method runs without awaiting in between, so it is atomic. */
export function inMemoryApps(state: InMemoryState): ComponentApps {
  const joined = (app: StoredApp): ComponentApp => ({
    ...app,
    componentName: byKey(state.components, app.componentId)?.name ?? '?',
    environmentName: byKey(state.environments, app.environmentId)?.name ?? '?',
  });
  /** The audit row names the environment; the webhook event, as packages/db writes it, gives its id too. */
  const record = (
    app: ComponentApp,
    kind: AuditKind,
    type: WebhookEventType,
    audit: AuditNote,
    now: Date,
    details: { [key: string]: AuditValue },
    data: { [key: string]: AuditValue },
  ) => {
    state.recordAudit(auditEventFor(audit, { organizationId: app.organizationId, kind, now, componentId: app.componentId, details: { environment: app.environmentName, ...details } }));
    state.webhookEvents.push({
      organizationId: app.organizationId,
      componentId: app.componentId,
      type,
      data: { environment: { id: app.environmentId, name: app.environmentName }, ...data },
    });
  };
  return {
    async save({ componentId, environmentId, settings, savedBy, now, audit }) {
      const organizationId = byKey(state.components, componentId)?.organizationId ?? '';
      const created = !state.apps.some((a) => a.componentId === componentId);
      const stored: StoredApp = { componentId, organizationId, environmentId, ...settings, updatedBy: savedBy, updatedAt: now };
      state.apps = [...state.apps.filter((a) => a.componentId !== componentId), stored];
      const app = joined(stored);
      const inputSchema = app.inputSchema !== null;
      record(
        app,
        AuditKind.AppSaved,
        WebhookEventType.AppSaved,
        audit,
        now,
        { created, title: app.title, inputSchema, actionTools: Object.keys(app.actionTools).length },
        { created, title: app.title, description: app.description, inputSchema, actionTools: { ...app.actionTools } },
      );
      return app;
    },
    async remove({ componentId, now, audit }) {
      const app = state.apps.find((a) => a.componentId === componentId);
      if (app === undefined) return false;
      state.apps = state.apps.filter((a) => a !== app);
      record(joined(app), AuditKind.AppRemoved, WebhookEventType.AppRemoved, audit, now, { title: app.title }, { title: app.title });
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
        })
        .sort((a, b) => compare(a.organizationName, b.organizationName) || compare(a.app.componentName.toLowerCase(), b.app.componentName.toLowerCase()));
    },
  };
}
