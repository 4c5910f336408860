import type { AuditNote } from '../../entities/audit-event.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';

/** The note a use case hands to a write port that records its change: a new row id, who acts, and through which credential. */
export const auditNote = (actor: Actor, deps: Pick<DomainDeps, 'ids'>): AuditNote => ({
  eventId: deps.ids.newId(),
  actorId: actor.userId,
  ...(actor.credential === undefined ? {} : { via: actor.credential.via }),
});
