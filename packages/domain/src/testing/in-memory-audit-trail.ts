import { notFound } from '../errors/factories.js';
import type { AuditTrail } from '../ports/audit-trail.js';
import type { InMemoryState } from './in-memory-state.js';

/** Reads `state.auditEvents`, whose array order is the insertion order (the database's `seq`). */
export function inMemoryAuditTrail(state: InMemoryState): AuditTrail {
  return {
    async list(organizationId, { limit, before, after, componentId, actorId, kinds }) {
      const ofOrganization = state.auditEvents.filter((e) => e.organizationId === organizationId);
      const cursor = before ?? after;
      const at = cursor === undefined ? -1 : ofOrganization.findIndex((e) => e.id === cursor);
      if (cursor !== undefined && at < 0) throw notFound('Audit event', cursor);
      const matching = ofOrganization
        .map((event, seq) => ({ event, seq }))
        .filter(
          ({ event, seq }) =>
            (before === undefined || seq < at) &&
            (after === undefined || seq > at) &&
            (componentId === undefined || event.componentId === componentId) &&
            (actorId === undefined || event.actorId === actorId) &&
            (kinds === undefined || kinds.includes(event.kind)),
        )
        .map(({ event }) => event);
      // Newer than a cursor: the closest ones (the oldest of the newer), then newest first.
      const page =
        after !== undefined
          ? matching.slice(0, limit)
          : matching.slice(Math.max(0, matching.length - limit));
      return page.reverse();
    },
  };
}
