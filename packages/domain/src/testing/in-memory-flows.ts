import type { Flow } from '../entities/flow.js';
import type { Flows } from '../ports/flows.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function inMemoryFlows(state: InMemoryState): Flows {
  return {
    async create({ id, organizationId, name, componentIds, now }) {
      const flow: Flow = { id, organizationId, name, status: 'draft', componentIds, createdAt: now, updatedAt: now };
      state.flows.push(flow);
      return flow;
    },
    findById: async (id) => byKey(state.flows, id),
    setComponents: async (id, componentIds, now) => updateFlow(state, id, { componentIds, updatedAt: now }),
    async editComponents(id, edit, now) {
      const flow = byKey(state.flows, id);
      return flow && updateFlow(state, id, { componentIds: [...edit(flow.componentIds)], updatedAt: now });
    },
    setStatus: async (id, status, now) => updateFlow(state, id, { status, updatedAt: now }),
    listForOrganization: async (organizationId) =>
      state.flows
        .filter((f) => f.organizationId === organizationId)
        .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id)),
  };
}

function updateFlow(state: InMemoryState, id: string, change: Partial<Flow>): Flow | null {
  const index = state.flows.findIndex((f) => f.id === id);
  if (index < 0) return null;
  const updated = { ...state.flows[index]!, ...change };
  state.flows[index] = updated;
  return updated;
}
