import { ErrorCode } from '../src/errors/domain-error.js';
import { lastWeeks, startOfUtcWeek } from '../src/rules/weeks.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { countReleasesPerWeek } from '../src/use-cases/releases/count-releases-per-week.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { aUser, anUploadedComponent } from './builders.js';

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe('UTC weeks', () => {
  it('start on Monday 00:00 UTC, whatever the instant in the week', () => {
    for (const instant of ['2025-12-29T00:00:00.000Z', '2025-12-31T18:00:00.000Z', '2026-01-04T23:59:59.999Z']) {
      expect(startOfUtcWeek(new Date(instant))).toEqual(day('2025-12-29'));
    }
    expect(startOfUtcWeek(new Date('2026-01-05T00:00:00.000Z'))).toEqual(day('2026-01-05'));
  });

  it('the last weeks end with the current one, oldest first', () => {
    expect(lastWeeks(new Date('2026-01-01T12:00:00.000Z'), 3)).toEqual([day('2025-12-15'), day('2025-12-22'), day('2025-12-29')]);
  });
});

describe('countReleasesPerWeek', () => {
  it('counts the weeks that end with the current one, by the domain clock', async () => {
    const { deps, objects, clock } = inMemoryDeps(); // Thursday 2026-01-01
    const alice = await aUser(deps);
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    await publishVariant({ actor: alice.actor, componentId, environment: 'staging' }, deps);
    await publishVariant({ actor: alice.actor, componentId, environment: 'prod' }, deps);
    const count = () => countReleasesPerWeek({ actor: alice.actor, componentId, weeks: 3 }, deps);
    expect(await count()).toEqual([
      { weekStart: day('2025-12-15'), count: 0 },
      { weekStart: day('2025-12-22'), count: 0 },
      { weekStart: day('2025-12-29'), count: 2 },
    ]);
    clock.advance(7 * 24 * 3600);
    expect((await count()).map((w) => [w.weekStart, w.count])).toEqual([
      [day('2025-12-22'), 0],
      [day('2025-12-29'), 2],
      [day('2026-01-05'), 0],
    ]);
  });

  it("answers NOT_FOUND to someone outside the component's organization, and refuses a bad number of weeks", async () => {
    const { deps, objects } = inMemoryDeps();
    const alice = await aUser(deps);
    const bob = await aUser(deps);
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    await expect(countReleasesPerWeek({ actor: bob.actor, componentId, weeks: 12 }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    for (const weeks of [0, 1.5, 54]) {
      await expect(countReleasesPerWeek({ actor: alice.actor, componentId, weeks }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
    }
  });
});
