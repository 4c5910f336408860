/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditEvent } from '../../entities/audit-event.js';
import type { AuditTrail, AuditTrailQuery } from '../../ports/audit-trail.js';

export interface AuditTrailSubject {
  readonly trail: AuditTrail;
  /** The id of a new organization. */
  readonly anOrganization: () => Promise<string>;
  /** Appends the events in this order, as one write port's transaction does. */
  readonly record: (...events: AuditEvent[]) => Promise<void>;
  /** Database implementations: an UPDATE of the recorded row, which must be refused (the test runs only with it). */
  readonly rewrite?: (eventId: string) => Promise<unknown>;
}

const AT = new Date('2026-11-24T10:00:00.000Z');

const anEvent = (organizationId: string, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: randomUUID(),
  organizationId,
  actorId: randomUUID(),
  via: null,
  kind: AuditKind.TagsChanged,
  componentId: null,
  subjectUserId: null,
  details: {},
  createdAt: AT,
  ...overrides,
});

const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) =>
      (error as { code?: string }).code ?? `not a coded error: ${String(error as Error)}`,
  );

/** Follows `before` cursors from the newest page to the end, then `after` cursors back: each page's ids. */
async function walk(
  trail: AuditTrail,
  organizationId: string,
  query: Omit<AuditTrailQuery, 'before' | 'after'>,
) {
  const older: string[][] = [];
  let page = await trail.list(organizationId, query);
  while (page.length > 0) {
    older.push(page.map((e) => e.id));
    page = await trail.list(organizationId, { ...query, before: page.at(-1)!.id });
  }
  const newer: string[][] = [];
  const oldest = older.at(-1)?.at(-1);
  if (oldest !== undefined) {
    page = await trail.list(organizationId, { ...query, after: oldest });
    while (page.length > 0) {
      newer.push(page.map((e) => e.id));
      page = await trail.list(organizationId, { ...query, after: page[0]!.id });
    }
  }
  return { older, newer };
}

/** The `AuditTrail` port's contract, for every implementation. */
export function auditTrailContract(
  subject: () => AuditTrailSubject,
  options: { database?: boolean } = {},
): void {
  it('lists newest first by insertion order, whatever the events are stamped with, details intact', async () => {
    const { trail, anOrganization, record } = subject();
    const org = await anOrganization();
    const first = anEvent(org, {
      createdAt: new Date(AT.getTime() + 60_000),
      details: { before: ['a'], after: ['a', 'b'] },
    });
    const tied = [anEvent(org), anEvent(org), anEvent(org)];
    await record(first);
    await record(...tied);
    const listed = await trail.list(org, { limit: 10 });
    expect(listed.map((e) => e.id)).toEqual([...tied.map((e) => e.id)].reverse().concat(first.id));
    expect(listed.at(-1)).toEqual(first);
  });

  it('pages both ways with every event exactly once, events stamped alike included', async () => {
    const { trail, anOrganization, record } = subject();
    const org = await anOrganization();
    const events = Array.from({ length: 8 }, (_, i) =>
      anEvent(org, { createdAt: new Date(AT.getTime() + (i < 5 ? 0 : i)) }),
    );
    for (const event of events) await record(event);
    const newestFirst = events.map((e) => e.id).reverse();
    const { older, newer } = await walk(trail, org, { limit: 3 });
    expect(older).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6)]);
    // Back up from the oldest: the closest newer ones first, each page newest first.
    expect(newer).toEqual([
      newestFirst.slice(4, 7),
      newestFirst.slice(1, 4),
      newestFirst.slice(0, 1),
    ]);
    // A page stays put while events are added: they go to the newest page.
    await record(anEvent(org));
    expect((await trail.list(org, { limit: 3, before: newestFirst[2]! })).map((e) => e.id)).toEqual(
      newestFirst.slice(3, 6),
    );
  });

  it('filters by component, by actor, by kinds, and by all of them together, paging within the filter', async () => {
    const { trail, anOrganization, record } = subject();
    const org = await anOrganization();
    const [component, otherComponent, ann, bo] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const events = [
      anEvent(org, { actorId: ann, componentId: component, kind: AuditKind.UploadConfirmed }),
      anEvent(org, { actorId: bo, componentId: component, kind: AuditKind.ReleasePublished }),
      anEvent(org, { actorId: ann, componentId: otherComponent, kind: AuditKind.ReleasePublished }),
      anEvent(org, { actorId: ann, kind: AuditKind.MemberRoleChanged, subjectUserId: bo }),
      anEvent(org, { actorId: ann, componentId: component, kind: AuditKind.ReleasePublished }),
      anEvent(org, { actorId: bo, componentId: component, kind: AuditKind.TagsChanged }),
    ];
    await record(...events);
    const ids = async (query: Omit<AuditTrailQuery, 'limit'>) =>
      (await trail.list(org, { limit: 50, ...query })).map((e) => e.id);
    const expected = (...indexes: number[]) => indexes.map((i) => events[i]!.id);
    expect(await ids({ componentId: component })).toEqual(expected(5, 4, 1, 0));
    expect(await ids({ actorId: ann })).toEqual(expected(4, 3, 2, 0));
    expect(await ids({ kinds: [AuditKind.ReleasePublished] })).toEqual(expected(4, 2, 1));
    expect(await ids({ kinds: [AuditKind.MemberRoleChanged, AuditKind.TagsChanged] })).toEqual(
      expected(5, 3),
    );
    expect(await ids({ kinds: [] })).toEqual([]);
    expect(
      await ids({ componentId: component, actorId: ann, kinds: [AuditKind.ReleasePublished] }),
    ).toEqual(expected(4));
    expect(
      await ids({
        componentId: component,
        kinds: [AuditKind.ReleasePublished, AuditKind.UploadConfirmed],
      }),
    ).toEqual(expected(4, 1, 0));
    expect(await ids({ componentId: randomUUID() })).toEqual([]);
    const { older, newer } = await walk(trail, org, { limit: 2, componentId: component });
    expect(older).toEqual([expected(5, 4), expected(1, 0)]);
    expect(newer).toEqual([expected(4, 1), expected(5)]);
    expect(await ids({ actorId: ann, before: events[4]!.id })).toEqual(expected(3, 2, 0));
    expect(await ids({ actorId: bo, after: events[1]!.id })).toEqual(expected(5));
  });

  it("keeps organizations apart: another organization's events, ids and cursors are unknown", async () => {
    const { trail, anOrganization, record } = subject();
    const [a, b] = [await anOrganization(), await anOrganization()];
    const mine = anEvent(a, { componentId: randomUUID() });
    await record(mine);
    await record(anEvent(b));
    expect((await trail.list(a, { limit: 10 })).map((e) => e.id)).toEqual([mine.id]);
    expect(await trail.list(b, { limit: 10, componentId: mine.componentId! })).toEqual([]);
    expect(await trail.list(b, { limit: 10, actorId: mine.actorId })).toEqual([]);
    expect(await codeOf(trail.list(b, { limit: 10, before: mine.id }))).toBe('NOT_FOUND');
    expect(await codeOf(trail.list(b, { limit: 10, after: mine.id }))).toBe('NOT_FOUND');
    expect(await trail.list(randomUUID(), { limit: 10 })).toEqual([]);
  });

  it('answers malformed and unknown ids: cursors NOT_FOUND, filters and organizations match nothing', async () => {
    const { trail, anOrganization, record } = subject();
    const org = await anOrganization();
    await record(anEvent(org));
    for (const cursor of ['nope', '', "1' OR '1'='1", randomUUID()]) {
      expect(await codeOf(trail.list(org, { limit: 10, before: cursor }))).toBe('NOT_FOUND');
      expect(await codeOf(trail.list(org, { limit: 10, after: cursor }))).toBe('NOT_FOUND');
    }
    expect(await trail.list(org, { limit: 10, componentId: 'nope' })).toEqual([]);
    expect(await trail.list(org, { limit: 10, actorId: 'nope' })).toEqual([]);
    expect(await trail.list('nope', { limit: 10 })).toEqual([]);
  });

  if (options.database !== true) return;
  it('refuses to rewrite a recorded event: the trigger refuses UPDATE', async () => {
    const { trail, anOrganization, record, rewrite } = subject();
    if (rewrite === undefined) throw new Error('a database subject gives rewrite()');
    const org = await anOrganization();
    const event = anEvent(org, { details: { before: 'member', after: 'admin' } });
    await record(event);
    await expect(rewrite(event.id)).rejects.toThrow(/audit_events rows are never updated/);
    expect(await trail.list(org, { limit: 10 })).toEqual([event]);
  });
}
