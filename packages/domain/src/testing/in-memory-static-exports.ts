import { AuditKind } from '../entities/audit-event.js';
import { staticExportOff, type StaticExport } from '../entities/static-export.js';
import type { StaticExports } from '../ports/static-exports.js';
import { auditEventFor } from './in-memory-audit.js';
import type { InMemoryState } from './in-memory-state.js';

export function inMemoryStaticExports(state: InMemoryState): StaticExports {
  const find = (organizationId: string): StaticExport =>
    state.staticExports.find((e) => e.organizationId === organizationId) ??
    staticExportOff(organizationId);
  const save = (next: StaticExport): StaticExport => {
    state.staticExports = [
      ...state.staticExports.filter((e) => e.organizationId !== next.organizationId),
      next,
    ];
    return next;
  };
  return {
    find: async (organizationId) => find(organizationId),
    async setEnabled({ organizationId, enabled, now, audit }) {
      if (!state.organizations.some((o) => o.id === organizationId)) return null;
      const before = find(organizationId);
      const after = save({
        ...before,
        enabled,
        changedAt: before.enabled === enabled ? before.changedAt : now,
      });
      if (before.enabled !== enabled) {
        state.recordAudit(
          auditEventFor(audit, {
            organizationId,
            kind: AuditKind.StaticExportChanged,
            now,
            details: { before: before.enabled, after: enabled },
          }),
        );
      }
      if (enabled || before.enabled) state.exportJobs.push({ organizationId, full: true });
      return after;
    },
    async recordRun(organizationId, { at, error }) {
      if (!state.organizations.some((o) => o.id === organizationId)) return;
      const current = find(organizationId);
      save(
        error === null
          ? { ...current, exportedAt: at, lastError: null, lastErrorAt: null }
          : { ...current, lastError: error, lastErrorAt: at },
      );
    },
    async listReleased(organizationId) {
      const rows = state.releases.flatMap((release) => {
        const component = state.components.find(
          (c) => c.id === release.componentId && c.organizationId === organizationId,
        );
        const variant = state.variants.find((v) => v.id === release.variantId);
        if (!component || !variant) return [];
        return [
          {
            component: { id: component.id, name: component.name, organizationId },
            environmentName: release.environmentName,
            variant,
            releasedAt: release.releasedAt,
          },
        ];
      });
      return rows.sort(
        (a, b) =>
          compare(a.component.name.toLowerCase(), b.component.name.toLowerCase()) ||
          compare(a.component.id, b.component.id) ||
          compare(a.environmentName, b.environmentName),
      );
    },
  };
}

// Code-point order, as the database repository sorts.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
