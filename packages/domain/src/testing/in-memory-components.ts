import { AuditKind } from '../entities/audit-event.js';
import type { Component } from '../entities/component.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { Components } from '../ports/components.js';
import type { Variants } from '../ports/variants.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function inMemoryComponents(state: InMemoryState): Components {
  return {
    findById: async (id) => byKey(state.components, id),
    async findForMember(id, userId) {
      const component = byKey(state.components, id);
      const member = component && state.memberships.some((m) => m.userId === userId && m.organizationId === component.organizationId);
      return member ? component : null;
    },
    findByName: async (organizationId, name) =>
      state.components.find((c) => c.organizationId === organizationId && c.name.toLowerCase() === name.toLowerCase()) ?? null,
    async list({ organizationId, nameContains, limit, after, memberId }) {
      if (memberId !== undefined && !state.memberships.some((m) => m.userId === memberId && m.organizationId === organizationId)) return [];
      const key = (c: Component) => [c.name.toLowerCase(), c.id] as const;
      const cmp = (a: readonly [string, string], b: readonly [string, string]) =>
        a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
      return state.components
        .filter((c) => c.organizationId === organizationId)
        .filter((c) => !nameContains || c.name.toLowerCase().includes(nameContains.toLowerCase()))
        .filter((c) => !after || cmp(key(c), [after.nameKey, after.id]) > 0)
        .sort((a, b) => cmp(key(a), key(b)))
        .slice(0, limit);
    },
    async editTags(id, edit, { now, maxTags, audit }) {
      const index = state.components.findIndex((c) => c.id === id);
      const current = state.components[index];
      if (!current) return null;
      const tags =
        edit.kind === 'set'
          ? [...edit.tags]
          : [...current.tags, ...edit.add.filter((t) => !current.tags.includes(t))].filter((t) => !edit.remove.includes(t));
      if (tags.length > maxTags) throw new DomainError(ErrorCode.TooManyTags, `At most ${maxTags} tags.`);
      const updated = { ...current, tags, updatedAt: now };
      state.components[index] = updated;
      if (tags.length !== current.tags.length || tags.some((tag, i) => tag !== current.tags[i])) {
        state.recordAudit(
          auditEventFor(audit, {
            organizationId: current.organizationId,
            kind: AuditKind.TagsChanged,
            now,
            componentId: id,
            details: { before: [...current.tags], after: tags },
          }),
        );
      }
      return updated;
    },
    listRecentlyUpdated: async ({ organizationId, nameContains, tag, limit, offset }) =>
      state.components
        .filter((c) => c.organizationId === organizationId)
        .filter((c) => !nameContains || c.name.toLowerCase().includes(nameContains.toLowerCase()))
        .filter((c) => tag === undefined || c.tags.includes(tag))
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(offset, offset + limit),
  };
}

export function inMemoryVariants(state: InMemoryState): Variants {
  return {
    findById: async (id) => byKey(state.variants, id),
    findLatest: async (componentId) =>
      state.variants.filter((v) => v.componentId === componentId).sort((a, b) => b.sequence - a.sequence)[0] ?? null,
    findMany: async (componentId, ids) => state.variants.filter((v) => v.componentId === componentId && ids.includes(v.id)),
    listForComponent: async (componentId, { limit, beforeSequence }) =>
      state.variants
        .filter((v) => v.componentId === componentId && (beforeSequence === undefined || v.sequence < beforeSequence))
        .sort((a, b) => b.sequence - a.sequence)
        .slice(0, limit),
  };
}
