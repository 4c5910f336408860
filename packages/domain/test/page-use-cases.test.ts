import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { getVariantContent } from '../src/use-cases/components/get-variant-content.js';
import { createFlow } from '../src/use-cases/flows/create-flow.js';
import { getFlowPage } from '../src/use-cases/flows/get-flow-page.js';
import { setFlowComponents } from '../src/use-cases/flows/set-flow-components.js';
import { getPublishPreview } from '../src/use-cases/releases/get-publish-preview.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { findSignedInUser } from '../src/use-cases/users/find-signed-in-user.js';
import { aUser, anUploadedComponent, SMALL_HTML } from './builders.js';

/** Alice's component with three variants; Bob, in another organization. */
async function setup() {
  const env = inMemoryDeps();
  const alice = await aUser(env.deps, 'alice@example.com');
  const bob = await aUser(env.deps, 'bob@example.com');
  const first = await anUploadedComponent(env.deps, env.objects, alice.actor, { name: 'Header' });
  const componentId = first.componentId;
  const more = [await anUploadedComponent(env.deps, env.objects, alice.actor, { componentId, html: '<p>v2</p>' }), await anUploadedComponent(env.deps, env.objects, alice.actor, { componentId })];
  return { ...env, alice, bob, componentId, variantIds: [first, ...more].map((r) => r.variantId) };
}

describe('getPublishPreview', () => {
  it('says what the environment serves and whether the variant is a roll back', async () => {
    const { deps, alice, componentId, variantIds } = await setup();
    const preview = (variantId: string, environment: string) => getPublishPreview({ actor: alice.actor, componentId, variantId, environment }, deps);
    const first = await preview(variantIds[1]!, 'prod');
    expect([first.variant.sequence, first.environment?.name, first.serving, first.rollBack]).toEqual([2, 'prod', null, false]);
    await publishVariant({ actor: alice.actor, componentId, environment: 'prod' }, deps);
    expect(await preview(variantIds[1]!, 'prod')).toMatchObject({ serving: { sequence: 3 }, rollBack: true });
    expect(await preview(variantIds[2]!, 'prod')).toMatchObject({ serving: { sequence: 3 }, rollBack: false });
    // No environment (or one the organization lacks): the person chooses among them.
    for (const environment of ['', 'nowhere']) {
      const choose = await preview(variantIds[0]!, environment);
      expect([choose.environment, choose.serving, choose.rollBack, choose.environments.map((e) => e.name)]).toEqual([null, null, false, ['prod', 'staging']]);
    }
  });

  it('answers "not found" for another component\'s variant, an unknown one, and to outsiders', async () => {
    const { deps, objects, alice, bob, componentId, variantIds } = await setup();
    const other = await anUploadedComponent(deps, objects, alice.actor, { name: 'Other' });
    for (const variantId of [other.variantId, randomUUID(), 'not-an-id', '']) {
      await expect(getPublishPreview({ actor: alice.actor, componentId, variantId, environment: 'prod' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    }
    await expect(getPublishPreview({ actor: bob.actor, componentId, variantId: variantIds[0]!, environment: 'prod' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('getVariantContent', () => {
  it('reads any variant of the component; other components\' variants and outsiders get "not found"', async () => {
    const { deps, objects, alice, bob, componentId, variantIds } = await setup();
    const read = async (actor: { userId: string }, variantId: string) =>
      new TextDecoder().decode((await getVariantContent({ actor, componentId, variantId }, deps)).content);
    expect([await read(alice.actor, variantIds[0]!), await read(alice.actor, variantIds[1]!)]).toEqual([SMALL_HTML, '<p>v2</p>']);
    const other = await anUploadedComponent(deps, objects, alice.actor, { name: 'Other' });
    await expect(read(alice.actor, other.variantId)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(read(bob.actor, variantIds[0]!)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('getFlowPage', () => {
  it('the flow\'s components in order by name (null for one that is gone) and the ones that can be added', async () => {
    const { deps, objects, repos, alice, bob, componentId } = await setup();
    const footer = await anUploadedComponent(deps, objects, alice.actor, { name: 'Footer' });
    const spare = await anUploadedComponent(deps, objects, alice.actor, { name: 'Spare' });
    const flow = await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'checkout' }, deps);
    await setFlowComponents({ actor: alice.actor, flowId: flow.id, componentIds: [footer.componentId, componentId] }, deps);
    const page = await getFlowPage({ actor: alice.actor, flowId: flow.id }, deps);
    expect(page.components).toEqual([{ id: footer.componentId, name: 'Footer' }, { id: componentId, name: 'Header' }]);
    expect(page.addable.map((c) => c.id)).toEqual([spare.componentId]);

    repos.state.components = repos.state.components.filter((c) => c.id !== footer.componentId);
    expect((await getFlowPage({ actor: alice.actor, flowId: flow.id }, deps)).components[0]).toEqual({ id: footer.componentId, name: null });
    await expect(getFlowPage({ actor: bob.actor, flowId: flow.id }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('findSignedInUser', () => {
  it('the user with their organizations; null once the user is gone', async () => {
    const { deps, repos, alice } = await setup();
    expect(await findSignedInUser({ actor: alice.actor }, deps)).toEqual({ user: alice.user, organizations: [expect.objectContaining({ id: alice.organizationId, role: 'owner', isDefault: true })] });
    repos.state.users = repos.state.users.filter((u) => u.id !== alice.user.id);
    expect(await findSignedInUser({ actor: alice.actor }, deps)).toBeNull();
    expect(await findSignedInUser({ actor: { userId: 'not-an-id' } }, deps)).toBeNull();
  });
});

describe('users.findByIds (in memory)', () => {
  it('the users that exist among the ids, each once', async () => {
    const { repos, alice, bob } = await setup();
    const found = await repos.users.findByIds([bob.user.id, randomUUID(), alice.user.id, bob.user.id]);
    expect(found.map((u) => u.email).sort()).toEqual(['alice@example.com', 'bob@example.com']);
    expect(await repos.users.findByIds([])).toEqual([]);
  });
});
