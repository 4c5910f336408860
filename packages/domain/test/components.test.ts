import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { editComponentTags } from '../src/use-cases/components/edit-component-tags.js';
import { getComponent } from '../src/use-cases/components/get-component.js';
import { listComponents } from '../src/use-cases/components/list-components.js';
import { listVariants } from '../src/use-cases/components/list-variants.js';
import { resolvePublicVariant } from '../src/use-cases/components/resolve-public-variant.js';
import { listOrganizations } from '../src/use-cases/organizations/list-organizations.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { released } from '../src/testing/publish-outcomes.js';
import { listReleaseHistory } from '../src/use-cases/releases/list-release-history.js';
import { createEnvironment, listEnvironments } from '../src/use-cases/releases/environments.js';
import { findUser } from '../src/use-cases/users/find-user.js';
import { getUser } from '../src/use-cases/users/get-user.js';
import { registerUser } from '../src/use-cases/users/register-user.js';
import { aUser, anUploadedComponent, SMALL_HTML } from './builders.js';

const setup = async () => {
  const env = inMemoryDeps();
  const alice = await aUser(env.deps, 'alice@example.com');
  const bob = await aUser(env.deps, 'bob@example.com');
  return { ...env, alice, bob };
};

describe('users and organizations', () => {
  it('a new user gets a default organization with staging and prod', async () => {
    const { deps, alice } = await setup();
    expect(await getUser({ actor: alice.actor }, deps)).toMatchObject({ email: 'alice@example.com' });
    const orgs = await listOrganizations({ actor: alice.actor }, deps);
    expect(orgs).toEqual([expect.objectContaining({ id: alice.organizationId, name: "alice's organization", role: 'owner', isDefault: true })]);
    const envs = await listEnvironments({ actor: alice.actor, organizationId: alice.organizationId }, deps);
    expect(envs.map((e) => e.name)).toEqual(['prod', 'staging']);
    const trail = await deps.repos.auditTrail.list(alice.organizationId, { limit: 10 });
    expect(trail.map((e) => [e.kind, e.actorId, e.details])).toEqual([
      ['organization.created', alice.actor.userId, { name: "alice's organization" }],
    ]);
  });
  it('findUser answers null for an unknown or malformed id, where getUser answers NOT_FOUND', async () => {
    const { deps, alice } = await setup();
    expect(await findUser({ userId: alice.actor.userId }, deps)).toMatchObject({ email: 'alice@example.com' });
    expect(await findUser({ userId: '00000000-0000-4000-8000-000000000000' }, deps)).toBeNull();
    expect(await findUser({ userId: 'not-a-uuid' }, deps)).toBeNull();
    await expect(getUser({ actor: { userId: 'not-a-uuid' } }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
  it('refuses a malformed or taken email', async () => {
    const { deps } = await setup();
    await expect(registerUser({ email: 'nope' }, deps)).rejects.toThrow('email: enter an email address such as name@example.com.');
    await expect(registerUser({ email: 'ALICE@example.com' }, deps)).rejects.toMatchObject({ code: ErrorCode.NameTaken });
  });
  it('environments: owners add them, names are slugs, and foreign organizations are not found', async () => {
    const { deps, alice, bob } = await setup();
    const env = await createEnvironment({ actor: alice.actor, organizationId: alice.organizationId, name: 'EU-Canary' }, deps);
    expect(env.name).toBe('eu-canary');
    await expect(createEnvironment({ actor: bob.actor, organizationId: alice.organizationId, name: 'x' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('listComponents', () => {
  it('pages by name with an opaque cursor, and a concurrent insert neither repeats nor skips a row', async () => {
    const { deps, objects, alice } = await setup();
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'echo']) await anUploadedComponent(deps, objects, alice.actor, { name });
    const page1 = await listComponents({ actor: alice.actor, organizationId: alice.organizationId, limit: 2 }, deps);
    expect(page1.components.map((c) => c.name)).toEqual(['Alpha', 'bravo']);
    await anUploadedComponent(deps, objects, alice.actor, { name: 'aardvark' });
    const page2 = await listComponents({ actor: alice.actor, organizationId: alice.organizationId, limit: 2, cursor: page1.nextCursor! }, deps);
    expect(page2.components.map((c) => c.name)).toEqual(['charlie', 'delta']);
    const page3 = await listComponents({ actor: alice.actor, organizationId: alice.organizationId, limit: 2, cursor: page2.nextCursor! }, deps);
    expect(page3).toEqual({ components: [expect.objectContaining({ name: 'echo' })], nextCursor: null });
  });
  it('filters by case-insensitive substring', async () => {
    const { deps, objects, alice } = await setup();
    for (const name of ['Site Header', 'Footer', 'header-mini']) await anUploadedComponent(deps, objects, alice.actor, { name });
    const page = await listComponents({ actor: alice.actor, organizationId: alice.organizationId, name: 'HEADER' }, deps);
    expect(page.components.map((c) => c.name)).toEqual(['header-mini', 'Site Header']);
  });
  it.each([0, 201, 1.5, -1])('refuses limit %p', async (limit) => {
    const { deps, alice } = await setup();
    await expect(listComponents({ actor: alice.actor, organizationId: alice.organizationId, limit }, deps)).rejects.toThrow(
      'limit: must be a whole number from 1 to 200.',
    );
  });
  it('refuses a forged cursor and a foreign organization', async () => {
    const { deps, alice, bob } = await setup();
    await expect(listComponents({ actor: alice.actor, organizationId: alice.organizationId, cursor: 'garbage' }, deps)).rejects.toThrow(
      'cursor: this is not a cursor returned by list_components; start again without a cursor.',
    );
    await expect(listComponents({ actor: bob.actor, organizationId: alice.organizationId }, deps)).rejects.toThrow(
      `Organization "${alice.organizationId}" was not found, or you do not have access to it.`,
    );
  });
});

describe('getComponent', () => {
  it('returns the latest variant and its HTML by default, metadata only on request', async () => {
    const { deps, objects, alice } = await setup();
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    const v2 = await anUploadedComponent(deps, objects, alice.actor, { componentId, html: '<p>v2</p>' });
    const full = await getComponent({ actor: alice.actor, componentId }, deps);
    expect(full).toMatchObject({ html: '<p>v2</p>', variant: { id: v2.variantId, sequence: 2 }, environment: null });
    const meta = await getComponent({ actor: alice.actor, componentId, includeContent: false }, deps);
    expect(meta).toMatchObject({ html: null, variant: null, component: { variantsCount: 2 } });
  });
  it('resolves the variant released to an environment, and says when there is none', async () => {
    const { deps, objects, alice } = await setup();
    const v1 = await anUploadedComponent(deps, objects, alice.actor);
    await anUploadedComponent(deps, objects, alice.actor, { componentId: v1.componentId, html: '<p>v2</p>' });
    await expect(getComponent({ actor: alice.actor, componentId: v1.componentId, environment: 'prod' }, deps)).rejects.toThrow(
      'Component "Header" has no release in "prod" yet. Publish a variant to "prod" first.',
    );
    await publishVariant({ actor: alice.actor, componentId: v1.componentId, environment: 'prod', variantId: v1.variantId }, deps);
    const prod = await getComponent({ actor: alice.actor, componentId: v1.componentId, environment: 'prod' }, deps);
    expect(prod).toMatchObject({ html: SMALL_HTML, variant: { id: v1.variantId }, environment: { name: 'prod' } });
    await expect(getComponent({ actor: alice.actor, componentId: v1.componentId, environment: 'qa' }, deps)).rejects.toThrow(
      'Environment "qa" does not exist in this organization. Known environments: prod, staging.',
    );
  });
  it("another organization's component is not found", async () => {
    const { deps, objects, alice, bob } = await setup();
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    await expect(getComponent({ actor: bob.actor, componentId }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('editComponentTags', () => {
  it('adds, removes and sets in place without a new variant, moving updatedAt', async () => {
    const { deps, objects, clock, alice } = await setup();
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    clock.advance(60);
    const added = await editComponentTags({ actor: alice.actor, componentId, add: [' ui', 'nav', 'ui'] }, deps);
    expect(added).toMatchObject({ tags: ['ui', 'nav'], variantsCount: 1, updatedAt: clock.now() });
    expect((await editComponentTags({ actor: alice.actor, componentId, add: ['new'], remove: ['ui', 'absent'] }, deps)).tags).toEqual(['nav', 'new']);
    expect((await editComponentTags({ actor: alice.actor, componentId, set: [] }, deps)).tags).toEqual([]);
  });
  it('refuses going over 50 tags and changes nothing', async () => {
    const { deps, objects, alice } = await setup();
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    await editComponentTags({ actor: alice.actor, componentId, set: Array.from({ length: 50 }, (_, i) => `t${i}`) }, deps);
    await expect(editComponentTags({ actor: alice.actor, componentId, add: ['one-more'] }, deps)).rejects.toMatchObject({ code: ErrorCode.TooManyTags });
  });
  it("refuses another organization's component", async () => {
    const { deps, objects, alice, bob } = await setup();
    const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
    await expect(editComponentTags({ actor: bob.actor, componentId, add: ['x'] }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('releases', () => {
  it('publishes the latest by default, rolls back by publishing an earlier variant, and keeps history', async () => {
    const { deps, objects, alice } = await setup();
    const v1 = await anUploadedComponent(deps, objects, alice.actor);
    const v2 = await anUploadedComponent(deps, objects, alice.actor, { componentId: v1.componentId });
    const first = await publishVariant({ actor: alice.actor, componentId: v1.componentId, environment: 'PROD' }, deps);
    expect(first).toMatchObject({ variant: { id: v2.variantId }, event: { environmentName: 'prod', previousVariantId: null } });
    const rollback = await publishVariant({ actor: alice.actor, componentId: v1.componentId, environment: 'prod', variantId: v1.variantId }, deps);
    expect(released(rollback).event.previousVariantId).toBe(v2.variantId);
    const { current, history } = await listReleaseHistory({ actor: alice.actor, componentId: v1.componentId }, deps);
    expect(current).toEqual([expect.objectContaining({ environmentName: 'prod', variantId: v1.variantId })]);
    expect(history.map((e) => e.variantId)).toEqual([v1.variantId, v2.variantId]);
    const listing = await listVariants({ actor: alice.actor, componentId: v1.componentId }, deps);
    expect(listing.variants.map((v) => [v.variant.sequence, v.environments])).toEqual([[2, []], [1, ['prod']]]);
    expect((await resolvePublicVariant({ componentId: v1.componentId, environment: 'prod' }, deps)).variant.id).toBe(v1.variantId);
    expect((await resolvePublicVariant({ componentId: v1.componentId }, deps)).variant.id).toBe(v2.variantId);
  });
  it('refuses a variant of another component, an unknown environment and a component without variants', async () => {
    const { deps, objects, alice } = await setup();
    const a = await anUploadedComponent(deps, objects, alice.actor, { name: 'A' });
    const b = await anUploadedComponent(deps, objects, alice.actor, { name: 'B' });
    await expect(publishVariant({ actor: alice.actor, componentId: a.componentId, environment: 'prod', variantId: b.variantId }, deps)).rejects.toThrow(
      `Variant "${b.variantId}" was not found, or you do not have access to it.`,
    );
    await expect(publishVariant({ actor: alice.actor, componentId: a.componentId, environment: 'moon' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(publishVariant({ actor: alice.actor, componentId: a.componentId, environment: 'bad name' }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
  });
  it('pages variants newest first', async () => {
    const { deps, objects, alice } = await setup();
    const v1 = await anUploadedComponent(deps, objects, alice.actor);
    for (let i = 0; i < 4; i += 1) await anUploadedComponent(deps, objects, alice.actor, { componentId: v1.componentId });
    const page1 = await listVariants({ actor: alice.actor, componentId: v1.componentId, limit: 3 }, deps);
    expect(page1.variants.map((v) => v.variant.sequence)).toEqual([5, 4, 3]);
    const page2 = await listVariants({ actor: alice.actor, componentId: v1.componentId, limit: 3, beforeSequence: page1.nextBeforeSequence! }, deps);
    expect(page2).toMatchObject({ variants: [{ variant: { sequence: 2 } }, { variant: { sequence: 1 } }], nextBeforeSequence: null });
  });
  it('public resolution does not find unknown or malformed ids', async () => {
    const { deps } = await setup();
    await expect(resolvePublicVariant({ componentId: "'; drop table x" }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});
