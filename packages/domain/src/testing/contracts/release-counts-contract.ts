/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { Repositories } from '../../ports/repositories.js';

export interface ReleaseCountsSubject {
  readonly repos: Repositories;
  /** A component of the organization with two variants (sequence 1, 2), uploaded by `createdBy`. */
  readonly aComponent: (
    organizationId: string,
    createdBy: string,
  ) => Promise<{ id: string; variants: [string, string] }>;
}

/** `Releases.countPerWeek`, for every implementation: UTC weeks from Monday, empty weeks 0, one component only. */
export function releaseCountsContract(subject: () => ReleaseCountsSubject): void {
  /** A Monday. */
  const from = new Date('2026-03-02T00:00:00.000Z');
  const week = (n: number) => new Date(from.getTime() + n * 7 * 24 * 3600 * 1000);

  const aReleasedComponent = async () => {
    const { repos, aComponent } = subject();
    const userId = randomUUID();
    const environments = ['staging', 'prod'].map((name) => ({ id: randomUUID(), name, protected: false }));
    const organization = { id: randomUUID(), name: 'Counts Co', environments };
    await repos.users.createWithOrganization({
      user: { id: userId, email: `${userId}@example.test`, displayName: null },
      organization,
      now: new Date('2026-01-01T00:00:00.000Z'),
    });
    const component = await aComponent(organization.id, userId);
    const other = await aComponent(organization.id, userId);
    const environmentId = (name: string) => environments.find((e) => e.name === name)!.id;
    /** Releases in time order, as the database stamps them (never before the release they follow). */
    const release = (at: string, environment = 'staging', componentId = component.id, variant = 0) =>
      repos.releases.publish({
        eventId: randomUUID(),
        componentId,
        environmentId: environmentId(environment),
        variantId: (componentId === component.id ? component.variants : other.variants)[variant]!,
        releasedBy: userId,
        now: new Date(at),
        audit: { eventId: randomUUID(), actorId: userId },
      });
    return { repos, component, other, release };
  };

  it('counts every environment per week from Monday 00:00 UTC, oldest first, with 0 for a week without a release', async () => {
    const { repos, component, release } = await aReleasedComponent();
    await release('2026-03-01T23:59:59.999Z'); // the Sunday before: outside
    await release('2026-03-02T00:00:00.000Z'); // the first instant of week 0
    await release('2026-03-05T12:00:00.000Z', 'prod');
    await release('2026-03-08T23:59:59.999Z', 'staging', component.id, 1); // the last instant of week 0
    await release('2026-03-09T00:00:00.000Z'); // week 1; week 2 has none
    await release('2026-03-23T09:00:00.000Z', 'prod', component.id, 1);
    await release('2026-03-24T09:00:00.000Z', 'prod'); // a roll back counts as a release
    await release('2026-03-30T00:00:00.000Z'); // the first instant after the range: outside

    expect(await repos.releases.countPerWeek(component.id, { from, weeks: 4 })).toEqual([
      { weekStart: week(0), count: 3 },
      { weekStart: week(1), count: 1 },
      { weekStart: week(2), count: 0 },
      { weekStart: week(3), count: 2 },
    ]);
    expect(await repos.releases.countPerWeek(component.id, { from: week(1), weeks: 1 })).toEqual([
      { weekStart: week(1), count: 1 },
    ]);
  });

  it("counts only the component's own releases: another component's, in the same weeks, do not count", async () => {
    const { repos, component, other, release } = await aReleasedComponent();
    await release('2026-03-03T10:00:00.000Z');
    await release('2026-03-03T11:00:00.000Z', 'staging', other.id);
    await release('2026-03-10T11:00:00.000Z', 'prod', other.id);

    expect(await repos.releases.countPerWeek(component.id, { from, weeks: 2 })).toEqual([
      { weekStart: week(0), count: 1 },
      { weekStart: week(1), count: 0 },
    ]);
    expect(await repos.releases.countPerWeek(other.id, { from, weeks: 2 })).toEqual([
      { weekStart: week(0), count: 1 },
      { weekStart: week(1), count: 1 },
    ]);
  });

  it('answers every week 0 for a component without releases, an unknown id or a malformed one', async () => {
    const { repos, component } = await aReleasedComponent();
    const zeros = [0, 1, 2].map((n) => ({ weekStart: week(n), count: 0 }));
    for (const id of [component.id, randomUUID(), 'not-a-uuid']) {
      expect(await repos.releases.countPerWeek(id, { from, weeks: 3 })).toEqual(zeros);
    }
  });
}
