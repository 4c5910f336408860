/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../entities/audit-event.js';
import type { Role } from '../../entities/organization.js';
import type { Repositories } from '../../ports/repositories.js';

export interface ReleaseRequestsSubject {
  readonly repos: Repositories;
  /** `userId` joins the organization with `role`. */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
  /** A component of the organization with two variants (sequence 1, 2), uploaded by `createdBy`. */
  readonly aComponent: (
    organizationId: string,
    createdBy: string,
  ) => Promise<{ id: string; variants: [string, string] }>;
  /** The audit rows of the component's releases and requests (kinds `release.*`), oldest first. */
  readonly auditOf: (
    componentId: string,
  ) => Promise<Pick<AuditEvent, 'kind' | 'actorId' | 'details'>[]>;
}

/** ReleaseRequests, for every implementation: one pending per place, decisions claimed once, the release in the same write. */
export function releaseRequestsContract(subject: () => ReleaseRequestsSubject): void {
  const aUser = async (
    repos: Repositories,
    environments: { id: string; name: string; protected: boolean }[] = [],
  ) => {
    const id = randomUUID();
    const organization = { id: randomUUID(), name: 'Requests Co', environments };
    await repos.users.createWithOrganization({
      user: { id, email: `${id}@example.test`, displayName: null },
      organization,
      now: new Date(),
    });
    return { id, organizationId: organization.id };
  };
  const aTeam = async () => {
    const { repos, addMember, aComponent } = subject();
    const prodId = randomUUID();
    const owner = await aUser(repos, [{ id: prodId, name: 'prod', protected: true }]);
    const admin = (await aUser(repos)).id;
    const member = (await aUser(repos)).id;
    await addMember(admin, owner.organizationId, 'admin');
    await addMember(member, owner.organizationId, 'member');
    const component = await aComponent(owner.organizationId, owner.id);
    let clock = Date.parse('2026-05-01T10:00:00.000Z');
    const now = () => new Date((clock += 1000));
    const ask = (variantId = component.variants[0], requestedBy = member) =>
      repos.releaseRequests.create({
        id: randomUUID(),
        componentId: component.id,
        environmentId: prodId,
        variantId,
        requestedBy,
        now: now(),
        audit: { eventId: randomUUID(), actorId: requestedBy },
      });
    const approve = (requestId: string, approvedBy: string) =>
      repos.releaseRequests.approve({
        requestId,
        approvedBy,
        eventId: randomUUID(),
        now: now(),
        audit: { eventId: randomUUID(), actorId: approvedBy },
        publishAuditId: randomUUID(),
        salt: randomUUID().slice(0, 8),
        rolloutId: randomUUID(),
        moved: [],
      });
    const decline = (requestId: string, declinedBy: string, reason = 'not this week') =>
      repos.releaseRequests.decline({
        requestId,
        declinedBy,
        reason,
        now: now(),
        audit: { eventId: randomUUID(), actorId: declinedBy },
      });
    return {
      repos,
      owner: owner.id,
      organizationId: owner.organizationId,
      admin,
      member,
      component,
      prodId,
      ask,
      approve,
      decline,
    };
  };

  it('keeps one pending request per component and environment: asking again answers it unchanged', async () => {
    const { repos, component, member, owner, ask, organizationId } = await aTeam();
    const first = await ask();
    expect(first).toMatchObject({
      created: true,
      request: {
        organizationId,
        componentId: component.id,
        environmentName: 'prod',
        variantId: component.variants[0],
        variantSequence: 1,
        requestedBy: member,
        state: 'pending',
        decidedBy: null,
        declineReason: null,
        releaseEventId: null,
        plan: { kind: 'release' },
      },
    });
    const [second, third] = await Promise.all([
      ask(component.variants[1]),
      ask(component.variants[1], owner),
    ]);
    for (const again of [second, third])
      expect(again).toEqual({ created: false, request: first.request });
    expect(await repos.releaseRequests.findById(first.request.id)).toEqual(first.request);
    expect(await repos.releaseRequests.listPending(component.id)).toEqual([first.request]);
    expect(await subject().auditOf(component.id)).toEqual([
      {
        kind: 'release.requested',
        actorId: member,
        details: {
          requestId: first.request.id,
          requestedBy: member,
          environment: 'prod',
          variantId: component.variants[0],
          variantSequence: 1,
        },
      },
    ]);
  });

  it('40 parallel first asks make one request; every other answers it', async () => {
    const { repos, ask, component } = await aTeam();
    const answers = await Promise.all(Array.from({ length: 40 }, () => ask()));
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.request.id)).size).toBe(1);
    expect(await repos.releaseRequests.listPending(component.id)).toHaveLength(1);
    expect(await subject().auditOf(component.id)).toHaveLength(1);
  });

  it('approval releases the requested variant (even when a newer one exists), by the approver, with both people recorded', async () => {
    const { repos, component, member, admin, prodId, ask, approve } = await aTeam();
    const { request } = await ask(component.variants[0]);
    const approved = await approve(request.id, admin);
    if (approved.outcome !== 'approved' || approved.applied.kind !== 'release') throw new Error(approved.outcome);
    expect(approved.applied.event).toMatchObject({
      componentId: component.id,
      environmentId: prodId,
      variantId: component.variants[0],
      releasedBy: admin,
      previousVariantId: null,
    });
    expect(approved.request).toMatchObject({
      id: request.id,
      state: 'approved',
      decidedBy: admin,
      releaseEventId: approved.applied.event.id,
      requestedBy: member,
    });
    expect(await repos.releases.findCurrent(component.id, prodId)).toMatchObject({
      variantId: component.variants[0],
      releasedBy: admin,
    });
    const audit = await subject().auditOf(component.id);
    expect(audit.map((row) => [row.kind, row.actorId])).toEqual([
      ['release.requested', member],
      ['release.published', admin],
      ['release.approved', admin],
    ]);
    expect(audit[1]!.details).toEqual({
      environment: 'prod',
      variantId: component.variants[0],
      variantSequence: 1,
      previousVariantId: null,
      previousVariantSequence: null,
      rollback: false,
      requestId: request.id,
      requestedBy: member,
    });
    // Decided: a new request may be made.
    expect((await ask(component.variants[1])).created).toBe(true);
  });

  it('a decline keeps the reason and releases nothing; deciding again answers who decided first', async () => {
    const { repos, component, owner, admin, prodId, ask, approve, decline } = await aTeam();
    const { request } = await ask();
    const declined = await decline(request.id, owner, 'wait for the copy review');
    expect(declined).toMatchObject({
      outcome: 'declined',
      request: { state: 'declined', decidedBy: owner, declineReason: 'wait for the copy review' },
    });
    const late = await approve(request.id, admin);
    expect(late).toMatchObject({
      outcome: 'already-decided',
      request: { state: 'declined', decidedBy: owner },
    });
    expect(await decline(request.id, admin)).toMatchObject({ outcome: 'already-decided' });
    expect(await repos.releases.findCurrent(component.id, prodId)).toBeNull();
    const audit = await subject().auditOf(component.id);
    expect(audit.map((row) => row.kind)).toEqual(['release.requested', 'release.declined']);
    expect(audit[1]!.details).toMatchObject({
      reason: 'wait for the copy review',
      requestId: request.id,
    });
  });

  it('an approval racing a decline, and two approvals racing: one wins, nothing half-done', async () => {
    const { repos, component, owner, admin, prodId, ask, approve, decline } = await aTeam();
    const first = (await ask()).request;
    const [a, d] = await Promise.all([approve(first.id, admin), decline(first.id, owner)]);
    expect([a.outcome, d.outcome].filter((o) => o === 'already-decided')).toHaveLength(1);
    const releases = await repos.releases.history(component.id, { limit: 10 });
    expect(releases).toHaveLength(a.outcome === 'approved' ? 1 : 0);
    const second = (await ask()).request;
    const both = await Promise.all([approve(second.id, admin), approve(second.id, owner)]);
    expect(both.map((r) => r.outcome).sort()).toEqual(['already-decided', 'approved']);
    expect(await repos.releases.history(component.id, { limit: 10 })).toHaveLength(
      releases.length + 1,
    );
    const current = await repos.releases.findCurrent(component.id, prodId);
    const winner = both.find((r) => r.outcome === 'approved');
    expect(current?.releasedBy).toBe(
      winner?.outcome === 'approved' ? winner.request.decidedBy : 'none',
    );
  });

  it('refuses deciders without the role; unknown ids are missing', async () => {
    const { repos, member, ask, approve, decline, component } = await aTeam();
    const stranger = (await aUser(repos)).id;
    const { request } = await ask();
    for (const who of [member, stranger]) {
      await expect(approve(request.id, who)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(decline(request.id, who)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await repos.releaseRequests.findById(request.id))?.state).toBe('pending');
    expect(await approve(randomUUID(), member)).toEqual({ outcome: 'missing' });
    expect(await decline('not-a-uuid', member)).toEqual({ outcome: 'missing' });
    expect(await repos.releaseRequests.findById('not-a-uuid')).toBeNull();
    expect(await repos.releases.history(component.id, { limit: 10 })).toEqual([]);
  });

  it('refuses, as it writes, a request from a viewer or from outside the organization; nothing is recorded', async () => {
    const { repos, ask, organizationId, component } = await aTeam();
    const { addMember } = subject();
    const viewer = (await aUser(repos)).id;
    await addMember(viewer, organizationId, 'viewer');
    const stranger = (await aUser(repos)).id;
    for (const who of [viewer, stranger])
      await expect(ask(component.variants[0], who)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await repos.releaseRequests.listPending(component.id)).toEqual([]);
    expect(await subject().auditOf(component.id)).toEqual([]);
  });

  it("lists an organization's requests: pending oldest first, then decisions newest first; no one else's", async () => {
    const team = await aTeam();
    const other = await aTeam();
    await other.ask();
    const { repos, organizationId, component, admin, ask, approve, decline } = team;
    const declined = (await ask()).request;
    await decline(declined.id, admin);
    const approved = (await ask()).request;
    await approve(approved.id, admin);
    const pending = (await ask()).request;
    const listed = await repos.releaseRequests.listForOrganization(organizationId, { limit: 10 });
    expect(listed.map((r) => [r.id, r.state])).toEqual([
      [pending.id, 'pending'],
      [approved.id, 'approved'],
      [declined.id, 'declined'],
    ]);
    expect(
      (await repos.releaseRequests.listForOrganization(organizationId, { limit: 2 })).map(
        (r) => r.id,
      ),
    ).toEqual([pending.id, approved.id]);
    expect((await repos.releaseRequests.listPending(component.id)).map((r) => r.id)).toEqual([
      pending.id,
    ]);
  });
}
