import { randomUUID } from 'node:crypto';
import type { MembershipChange } from '@cp/domain';
import { aMemberOf, aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

/*
 * The races of Members.change many times over, all at once: each organization has two owners who
 * demote each other in parallel. Without the row locks both see two owners and both win, and
 * the organization is left with none.
 */
describeEachBackend('members under concurrent changes', (db) => {
  const change = (organizationId: string, actorId: string, what: MembershipChange) =>
    db()
      .repos.members.change({
        organizationId,
        actorId,
        change: what,
        personalOrganizationFor: () => {
          throw new Error('not needed');
        },
        audit: { eventId: randomUUID(), actorId },
        now: new Date(),
      })
      .then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'not a coded error',
      );

  it('two owners demoting each other at once, in 12 organizations: each keeps exactly one owner', async () => {
    const teams = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const { user, organization } = await aUserWithOrganization(db().repos);
        const second = await aMemberOf(db(), organization.id, 'owner');
        return { orgId: organization.id, a: user.id, b: second.id };
      }),
    );
    const outcomes = await Promise.all(
      teams.flatMap(({ orgId, a, b }) => [
        change(orgId, a, { kind: 'role', userId: b, from: 'owner', to: 'admin' }),
        change(orgId, b, { kind: 'role', userId: a, from: 'owner', to: 'admin' }),
      ]),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(12);
    for (const { orgId } of teams) {
      expect((await db().repos.members.list(orgId)).map((m) => m.role)).toEqual(['owner', 'admin']);
    }
  });
});
