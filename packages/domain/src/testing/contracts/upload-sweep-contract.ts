/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { UploadSession } from '../../entities/upload-session.js';
import type { UploadSessions } from '../../ports/upload-sessions.js';

export interface UploadSweepSubject {
  readonly sessions: UploadSessions;
  /** Stores a pending session (of a real user and organization) expiring at `expiresAt`. */
  readonly aSession: (expiresAt: Date) => Promise<UploadSession>;
}

const at = (minutes: number) => new Date(Date.UTC(2001, 0, 1, 0, minutes));

/** What the expiry sweep needs of `UploadSessions`, for every implementation. */
export function uploadSweepContract(subject: () => UploadSweepSubject): void {
  const confirm = (sessions: UploadSessions, session: UploadSession) => {
    const componentId = randomUUID();
    return sessions.confirm({
      sessionId: session.id,
      now: at(1),
      componentId,
      newComponent: {
        id: componentId,
        organizationId: session.organizationId,
        name: session.componentName,
        description: '',
      },
      variant: {
        id: randomUUID(),
        objectKey: `components/${componentId}/v1/index.html`,
        size: 1,
        sha256: 'a'.repeat(64),
        integrity: `sha256-${'A'.repeat(43)}=`,
        createdBy: session.userId,
      },
      audit: { eventId: randomUUID(), actorId: session.userId },
    });
  };

  it('lists unswept sessions past their expiry in every state, oldest first', async () => {
    const { sessions, aSession } = subject();
    const pending = await aSession(at(30));
    const confirmed = await aSession(at(10));
    const expired = await aSession(at(20));
    const notYet = await aSession(at(90));
    await confirm(sessions, confirmed);
    expect(await sessions.markExpired(expired.id)).toBe(true);

    const ids = new Set([pending.id, confirmed.id, expired.id, notYet.id]);
    const mine = (rows: UploadSession[]) =>
      rows.filter((row) => ids.has(row.id)).map((row) => [row.id, row.state]);
    expect(mine(await sessions.listToSweep(at(60), 10_000))).toEqual([
      [confirmed.id, 'confirmed'],
      [expired.id, 'expired'],
      [pending.id, 'pending'],
    ]);
    expect(await sessions.listToSweep(at(60), 1)).toHaveLength(1);
  });

  it('records a removal once; a recorded session is not listed again', async () => {
    const { sessions, aSession } = subject();
    const session = await aSession(at(5));
    expect((await sessions.findById(session.id))!.stagingRemovedAt).toBeNull();

    expect(await sessions.markStagingRemoved(session.id, at(61))).toBe(true);
    expect(await sessions.markStagingRemoved(session.id, at(62))).toBe(false);
    expect((await sessions.findById(session.id))!.stagingRemovedAt).toEqual(at(61));
    expect((await sessions.listToSweep(at(60), 10_000)).map((row) => row.id)).not.toContain(
      session.id,
    );
    expect(await sessions.markStagingRemoved(randomUUID(), at(61))).toBe(false);
  });

  it('lets one of two concurrent sweepers record the removal', async () => {
    const { sessions, aSession } = subject();
    const session = await aSession(at(7));
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sessions.markStagingRemoved(session.id, at(61))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
}
