import type { Role } from '../src/entities/organization.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { canPublishTo } from '../src/rules/roles.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { getComponentPage } from '../src/use-cases/components/get-component-page.js';
import { createEnvironment, listEnvironments } from '../src/use-cases/releases/environments.js';
import { getPublishPreview } from '../src/use-cases/releases/get-publish-preview.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { released } from '../src/testing/publish-outcomes.js';
import { setEnvironmentProtection } from '../src/use-cases/releases/set-environment-protection.js';
import { aUser, anUploadedComponent } from './builders.js';

/** An organization (Alice's) with a component of two variants, and one person per role. */
async function anOrganizationWithRoles() {
  const { deps, objects, repos } = inMemoryDeps();
  const alice = await aUser(deps, 'alice@example.com');
  const join = async (email: string, role: Role) => {
    const person = await aUser(deps, email);
    repos.state.memberships.push({
      userId: person.user.id,
      organizationId: alice.organizationId,
      role,
    });
    return person;
  };
  const admin = await join('ada@example.com', 'admin');
  const member = await join('mo@example.com', 'member');
  const first = await anUploadedComponent(deps, objects, alice.actor, { name: 'Banner' });
  const second = await anUploadedComponent(deps, objects, alice.actor, {
    componentId: first.componentId,
  });
  const organizationName = repos.state.organizations.find(
    (o) => o.id === alice.organizationId,
  )!.name;
  const env = async (name: string) =>
    (
      await listEnvironments({ actor: alice.actor, organizationId: alice.organizationId }, deps)
    ).find((e) => e.name === name)!;
  return {
    deps,
    repos,
    alice,
    admin,
    member,
    join,
    componentId: first.componentId,
    first,
    second,
    organizationName,
    env,
  };
}

describe('protected environments', () => {
  it('a new organization starts with prod protected and staging open', async () => {
    const { alice, deps } = await anOrganizationWithRoles();
    const environments = await listEnvironments(
      { actor: alice.actor, organizationId: alice.organizationId },
      deps,
    );
    expect(environments.map((e) => [e.name, e.protected])).toEqual([
      ['prod', true],
      ['staging', false],
    ]);
  });

  it("turns a member's publish or rollback to prod into one release request; staging stays direct", async () => {
    const { deps, repos, member, componentId, first, second } = await anOrganizationWithRoles();
    const asked = await publishVariant(
      { actor: member.actor, componentId, environment: 'prod' },
      deps,
    );
    expect(asked).toMatchObject({
      outcome: 'requested',
      created: true,
      request: {
        environmentName: 'prod',
        variantId: second.variantId,
        requestedBy: member.user.id,
        state: 'pending',
      },
      approvers: { emails: ['alice@example.com', 'ada@example.com'], more: false },
    });
    // Asking again, for another variant too, answers with the pending request, unchanged.
    const again = await publishVariant(
      { actor: member.actor, componentId, environment: ' PROD ', variantId: first.variantId },
      deps,
    );
    expect(again).toMatchObject({
      outcome: 'requested',
      created: false,
      request: {
        id: asked.outcome === 'requested' ? asked.request.id : '',
        variantId: second.variantId,
      },
    });
    expect(repos.state.releaseEvents).toEqual([]);
    const releaseRows = repos.state.auditEvents.filter((e) => e.kind.startsWith('release.'));
    expect(releaseRows.map((e) => [e.kind, e.actorId, e.componentId])).toEqual([
      ['release.requested', member.user.id, componentId],
    ]);
    const staged = await publishVariant(
      { actor: member.actor, componentId, environment: 'staging' },
      deps,
    );
    expect(released(staged).event.environmentName).toBe('staging');
  });

  it('refuses a viewer anywhere with FORBIDDEN naming the role, also at write time', async () => {
    const { deps, repos, join, componentId, alice } = await anOrganizationWithRoles();
    const viewer = await join('vi@example.com', 'viewer');
    for (const environment of ['staging', 'prod'])
      await expect(
        publishVariant({ actor: viewer.actor, componentId, environment }, deps),
      ).rejects.toMatchObject({
        code: ErrorCode.Forbidden,
        message: expect.stringContaining('Your role in this organization is viewer'),
      });
    const staging = repos.state.environments.find((e) => e.name === 'staging')!;
    await expect(
      repos.releases.publish({
        eventId: 'e1',
        componentId,
        environmentId: staging.id,
        variantId: 'v',
        releasedBy: viewer.user.id,
        now: new Date(),
        enforceProtection: true,
        audit: { eventId: 'a1', actorId: viewer.user.id },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    expect(repos.state.releaseEvents).toEqual([]);
    expect(repos.state.releaseRequests).toEqual([]);
    expect(alice).toBeDefined();
  });

  it("an environment protected between the check and the write: the member's publish becomes a request", async () => {
    const { deps, repos, member, componentId } = await anOrganizationWithRoles();
    const staging = repos.state.environments.find((e) => e.name === 'staging')!;
    // An admin protects staging while the member's publish is between its check and its write.
    const publish = repos.releases.publish.bind(repos.releases);
    repos.releases.publish = async (input) => {
      await repos.environments.setProtected(staging.id, true, { now: new Date(), audit: { eventId: 'e', actorId: 'admin' } });
      return publish(input);
    };
    expect(
      await publishVariant({ actor: member.actor, componentId, environment: 'staging' }, deps),
    ).toMatchObject({ outcome: 'requested', request: { environmentName: 'staging' } });
    expect(repos.state.releaseEvents).toEqual([]);
  });

  it('owners and admins publish and roll back to prod', async () => {
    const { deps, alice, admin, componentId, first, second } = await anOrganizationWithRoles();
    expect(
      released(await publishVariant({ actor: admin.actor, componentId, environment: 'prod' }, deps))
        .variant.id,
    ).toBe(second.variantId);
    const back = await publishVariant(
      { actor: alice.actor, componentId, environment: 'prod', variantId: first.variantId },
      deps,
    );
    expect(released(back).event).toMatchObject({
      variantId: first.variantId,
      previousVariantId: second.variantId,
      releasedBy: alice.user.id,
    });
  });

  it('a request names at most five owners and admins who can approve it', async () => {
    const { deps, member, join, componentId } = await anOrganizationWithRoles();
    for (const n of [1, 2, 3, 4]) await join(`admin${n}@example.com`, 'admin');
    const asked = await publishVariant(
      { actor: member.actor, componentId, environment: 'prod' },
      deps,
    );
    // Owners first, then admins by user id.
    const approvers = asked.outcome === 'requested' ? asked.approvers : null;
    expect(approvers?.more).toBe(true);
    expect(approvers?.emails).toHaveLength(5);
    expect(approvers?.emails[0]).toBe('alice@example.com');
  });

  it('only owners and admins set or clear the flag; then members publish where it is clear', async () => {
    const { deps, alice, admin, member, componentId, env } = await anOrganizationWithRoles();
    const prod = await env('prod');
    const organizationId = alice.organizationId;
    await expect(
      setEnvironmentProtection(
        { actor: member.actor, organizationId, environmentId: prod.id, protected: false },
        deps,
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.Forbidden,
      message: expect.stringMatching(/^Your role in this organization is member: only owners and admins can change environments\./),
    });
    expect((await env('prod')).protected).toBe(true);
    const stranger = await aUser(deps);
    await expect(
      setEnvironmentProtection(
        { actor: stranger.actor, organizationId, environmentId: prod.id, protected: false },
        deps,
      ),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });

    expect(
      await setEnvironmentProtection(
        { actor: admin.actor, organizationId, environmentId: prod.id, protected: false },
        deps,
      ),
    ).toMatchObject({ id: prod.id, protected: false });
    expect(
      released(
        await publishVariant({ actor: member.actor, componentId, environment: 'prod' }, deps),
      ).event.environmentName,
    ).toBe('prod');
    expect(
      await setEnvironmentProtection(
        { actor: alice.actor, organizationId, environmentId: prod.id, protected: true },
        deps,
      ),
    ).toMatchObject({ protected: true });
    expect(
      await publishVariant({ actor: member.actor, componentId, environment: 'prod' }, deps),
    ).toMatchObject({ outcome: 'requested' });
  });

  it('an environment can be added protected; added environments are open by default', async () => {
    const { deps, alice, member, componentId } = await anOrganizationWithRoles();
    const organizationId = alice.organizationId;
    expect(
      await createEnvironment(
        { actor: alice.actor, organizationId, name: 'live', protected: true },
        deps,
      ),
    ).toMatchObject({ name: 'live', protected: true });
    expect(
      await createEnvironment({ actor: alice.actor, organizationId, name: 'qa' }, deps),
    ).toMatchObject({ name: 'qa', protected: false });
    expect(
      await publishVariant({ actor: member.actor, componentId, environment: 'live' }, deps),
    ).toMatchObject({ outcome: 'requested' });
    await expect(
      publishVariant({ actor: member.actor, componentId, environment: 'qa' }, deps),
    ).resolves.toBeDefined();
  });

  it('the publish preview and the component page carry the role the pages decide with', async () => {
    const { deps, member, admin, componentId, second, env } = await anOrganizationWithRoles();
    const prod = await env('prod');
    const preview = await getPublishPreview(
      { actor: member.actor, componentId, variantId: second.variantId, environment: 'prod' },
      deps,
    );
    expect(preview.role).toBe('member');
    expect(canPublishTo(preview.role, preview.environment!)).toBe(false);
    const page = await getComponentPage(
      {
        actor: admin.actor,
        componentId,
        variantId: null,
        pageSizes: { variants: 10, releaseEvents: 10 },
      },
      deps,
    );
    expect(page.role).toBe('admin');
    expect(canPublishTo(page.role, prod)).toBe(true);
  });
});

describe('canPublishTo', () => {
  it.each([
    ['owner', true, true],
    ['admin', true, true],
    ['member', true, false],
    ['member', false, true],
    ['owner', false, true],
  ] as const)('%s to an environment protected=%s: %s', (role, isProtected, allowed) => {
    expect(canPublishTo(role, { protected: isProtected })).toBe(allowed);
  });
});
