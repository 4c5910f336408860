import type { UploadSession } from '../entities/upload-session.js';
import { AuditKind } from '../entities/audit-event.js';
import { DomainError, ErrorCode } from '../errors/domain-error.js';
import type { UploadSessions } from '../ports/upload-sessions.js';
import { auditEventFor } from './in-memory-audit.js';
import { byKey, type InMemoryState } from './in-memory-state.js';

export function inMemoryUploadSessions(state: InMemoryState): UploadSessions {
  return {
    async create(session) {
      state.uploadSessions.push(session);
    },
    findById: async (id) => byKey(state.uploadSessions, id),
    async confirm({ sessionId, now, newComponent, componentId, variant, audit }) {
      const index = state.uploadSessions.findIndex((s) => s.id === sessionId);
      const session = state.uploadSessions[index]!;
      if (session.state !== 'pending') return { recorded: false, session };
      if (newComponent) {
        const taken = state.components.some(
          (c) =>
            c.organizationId === newComponent.organizationId &&
            c.name.toLowerCase() === newComponent.name.toLowerCase(),
        );
        if (taken)
          throw new DomainError(
            ErrorCode.NameTaken,
            `A component named "${newComponent.name}" already exists.`,
          );
        state.components.push({
          ...newComponent,
          tags: [],
          variantsCount: 0,
          createdAt: now,
          updatedAt: now,
        });
      }
      const componentIndex = state.components.findIndex((c) => c.id === componentId);
      const component = state.components[componentIndex]!;
      const sequence = component.variantsCount + 1;
      state.components[componentIndex] = { ...component, variantsCount: sequence, updatedAt: now };
      state.variants.push({ ...variant, componentId, sequence, createdAt: now });
      const confirmed: UploadSession = {
        ...session,
        state: 'confirmed',
        result: {
          componentId,
          componentName: component.name,
          variantId: variant.id,
          variantSequence: sequence,
          organizationId: component.organizationId,
          isNewComponent: newComponent !== null,
        },
      };
      state.uploadSessions[index] = confirmed;
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: component.organizationId,
          kind: AuditKind.UploadConfirmed,
          now,
          componentId,
          details: {
            componentName: component.name,
            variantId: variant.id,
            sequence,
            size: variant.size,
            sha256: variant.sha256,
            created: newComponent !== null,
          },
        }),
      );
      return { recorded: true, session: confirmed };
    },
    listToSweep: async (now, limit) =>
      state.uploadSessions
        .filter((s) => s.stagingRemovedAt === null && s.expiresAt < now)
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, limit),
    async markExpired(id) {
      const index = state.uploadSessions.findIndex((s) => s.id === id && s.state === 'pending');
      if (index < 0) return false;
      state.uploadSessions[index] = { ...state.uploadSessions[index]!, state: 'expired' };
      return true;
    },
    async markStagingRemoved(id, at) {
      const index = state.uploadSessions.findIndex(
        (s) => s.id === id && s.stagingRemovedAt === null,
      );
      if (index < 0) return false;
      state.uploadSessions[index] = { ...state.uploadSessions[index]!, stagingRemovedAt: at };
      return true;
    },
  };
}
