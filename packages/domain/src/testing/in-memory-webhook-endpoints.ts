import { AuditKind } from '../entities/audit-event.js';
import type { WebhookEndpoint } from '../entities/webhook.js';
import type { WebhookEndpoints } from '../ports/webhook-endpoints.js';
import { auditEventFor } from './in-memory-audit.js';
import type { InMemoryState, StoredWebhookEndpoint } from './in-memory-state.js';

const withoutSecret = ({ secret: _secret, ...endpoint }: StoredWebhookEndpoint): WebhookEndpoint =>
  endpoint;

/** Endpoints only: no events are enqueued in memory (that is packages/db's transaction), so no attempts either. */
export function inMemoryWebhookEndpoints(state: InMemoryState): WebhookEndpoints {
  const find = (organizationId: string, endpointId: string) =>
    state.webhookEndpoints.findIndex(
      (e) => e.id === endpointId && e.organizationId === organizationId,
    );
  return {
    async create(endpoint, limit, audit) {
      // No await between the count and the push: as atomic as the port demands.
      if (
        state.webhookEndpoints.filter((e) => e.organizationId === endpoint.organizationId).length >=
        limit
      )
        return 'limit-reached';
      const stored: StoredWebhookEndpoint = {
        ...endpoint,
        eventTypes: [...endpoint.eventTypes],
        disabled: null,
        updatedAt: endpoint.createdAt,
      };
      state.webhookEndpoints.push(stored);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId: endpoint.organizationId,
          kind: AuditKind.WebhookEndpointCreated,
          now: endpoint.createdAt,
          details: {
            endpointId: endpoint.id,
            url: endpoint.url,
            eventTypes: [...endpoint.eventTypes],
            enabled: endpoint.enabled,
          },
        }),
      );
      return withoutSecret(stored);
    },
    listForOrganization: async (organizationId) =>
      state.webhookEndpoints.filter((e) => e.organizationId === organizationId).map(withoutSecret),
    async find(organizationId, endpointId) {
      const index = find(organizationId, endpointId);
      return index === -1 ? null : withoutSecret(state.webhookEndpoints[index]!);
    },
    async update({ organizationId, endpointId, eventTypes, enabled, secret, now, audit }) {
      const index = find(organizationId, endpointId);
      if (index === -1) return null;
      const before = state.webhookEndpoints[index]!;
      const after: StoredWebhookEndpoint = {
        ...before,
        ...(eventTypes ? { eventTypes: [...eventTypes] } : {}),
        ...(enabled === undefined ? {} : { enabled, disabled: enabled ? null : before.disabled }),
        ...(secret ? { secret } : {}),
        updatedAt: now,
      };
      state.webhookEndpoints[index] = after;
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.WebhookEndpointChanged,
          now,
          details: {
            endpointId,
            url: before.url,
            ...(eventTypes
              ? { eventTypesBefore: [...before.eventTypes], eventTypesAfter: [...eventTypes] }
              : {}),
            ...(enabled === undefined ? {} : { enabled }),
            ...(secret ? { secretRotated: true } : {}),
          },
        }),
      );
      return withoutSecret(after);
    },
    async remove({ organizationId, endpointId, now, audit }) {
      const index = find(organizationId, endpointId);
      if (index === -1) return false;
      const [removed] = state.webhookEndpoints.splice(index, 1);
      state.recordAudit(
        auditEventFor(audit, {
          organizationId,
          kind: AuditKind.WebhookEndpointDeleted,
          now,
          details: { endpointId, url: removed!.url },
        }),
      );
      return true;
    },
    recentAttempts: async () => [],
    redeliver: async () => false,
  };
}
