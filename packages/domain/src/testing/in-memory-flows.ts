import { AuditKind, type AuditNote, type AuditValue } from '../entities/audit-event.js';
import type { Flow } from '../entities/flow.js';
import type { Flows } from '../ports/flows.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function inMemoryFlows(state: InMemoryState): Flows {
  return {
    async create({ id, organizationId, name, componentIds, now, audit }) {
      const flow: Flow = { id, organizationId, name, status: 'draft', componentIds, createdAt: now, updatedAt: now };
      state.flows.push(flow);
      state.recordAudit(
        auditEventFor(audit, { organizationId, kind: AuditKind.FlowCreated, now, details: { flowId: id, name } }),
      );
      return flow;
    },
    findById: async (id) => byKey(state.flows, id),
    setComponents: async (id, componentIds, now, audit) =>
      updateFlow(state, id, { componentIds, updatedAt: now }, audit),
    async editComponents(id, edit, now, audit) {
      const flow = byKey(state.flows, id);
      return flow && updateFlow(state, id, { componentIds: [...edit(flow.componentIds)], updatedAt: now }, audit);
    },
    setStatus: async (id, status, now, audit) => updateFlow(state, id, { status, updatedAt: now }, audit),
    listForOrganization: async (organizationId) =>
      state.flows
        .filter((f) => f.organizationId === organizationId)
        .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id)),
  };
}

function updateFlow(
  state: InMemoryState,
  id: string,
  change: Partial<Flow> & { updatedAt: Date },
  audit: AuditNote,
): Flow | null {
  const index = state.flows.findIndex((f) => f.id === id);
  const current = state.flows[index];
  if (!current) return null;
  const updated = { ...current, ...change };
  state.flows[index] = updated;
  const before: Record<string, AuditValue> = {};
  const after: Record<string, AuditValue> = {};
  if (current.componentIds.join() !== updated.componentIds.join()) {
    before.componentIds = [...current.componentIds];
    after.componentIds = [...updated.componentIds];
  }
  if (current.status !== updated.status) {
    before.status = current.status;
    after.status = updated.status;
  }
  if (Object.keys(after).length > 0) {
    state.recordAudit(
      auditEventFor(audit, {
        organizationId: current.organizationId,
        kind: AuditKind.FlowChanged,
        now: change.updatedAt,
        details: { flowId: id, name: current.name, before, after },
      }),
    );
  }
  return updated;
}
