import type { AuditNote } from '../../entities/audit-event.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { auditNote } from './audit-note.js';

/** When a change is made and the note its audit row is written with: `{ now, audit }`, as write ports take them. */
export interface ChangeStamp {
  readonly now: Date;
  readonly audit: AuditNote;
}

/** The stamp of a change the actor makes now. */
export const changeStamp = (
  actor: Actor,
  deps: Pick<DomainDeps, 'clock' | 'ids'>,
): ChangeStamp => ({
  now: deps.clock.now(),
  audit: auditNote(actor, deps),
});
