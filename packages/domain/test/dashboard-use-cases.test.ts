import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { browseComponents } from '../src/use-cases/components/browse-components.js';
import { editComponentTags } from '../src/use-cases/components/edit-component-tags.js';
import { createFlow } from '../src/use-cases/flows/create-flow.js';
import { getFlow, listFlows } from '../src/use-cases/flows/list-flows.js';
import { createEnvironment, listEnvironments } from '../src/use-cases/releases/environments.js';
import { removeEnvironment, renameEnvironment } from '../src/use-cases/releases/manage-environments.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { aUser, anUploadedComponent } from './builders.js';

describe('browseComponents', () => {
  it('lists the most recently updated first, filters by name and tag, and pages', async () => {
    const { deps, objects, clock } = inMemoryDeps();
    const alice = await aUser(deps);
    const ids: string[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      clock.advance(60);
      ids.push((await anUploadedComponent(deps, objects, alice.actor, { name })).componentId);
    }
    clock.advance(60);
    await editComponentTags({ actor: alice.actor, componentId: ids[0]!, add: ['ui'] }, deps);
    const all = await browseComponents({ actor: alice.actor, organizationId: alice.organizationId }, deps);
    expect(all.components.map((c) => c.name)).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(all.hasNextPage).toBe(false);
    const tagged = await browseComponents({ actor: alice.actor, organizationId: alice.organizationId, tag: 'ui' }, deps);
    expect(tagged.components.map((c) => c.name)).toEqual(['Alpha']);
    const named = await browseComponents({ actor: alice.actor, organizationId: alice.organizationId, name: ' mm ' }, deps);
    expect(named.components.map((c) => c.name)).toEqual(['Gamma']);
    const first = await browseComponents({ actor: alice.actor, organizationId: alice.organizationId, pageSize: 2 }, deps);
    expect(first).toMatchObject({ page: 1, hasNextPage: true });
    const second = await browseComponents({ actor: alice.actor, organizationId: alice.organizationId, pageSize: 2, page: 2 }, deps);
    expect(second.components.map((c) => c.name)).toEqual(['Beta']);
    expect(second.hasNextPage).toBe(false);
  });

  it('refuses bad pages and outsiders', async () => {
    const { deps } = inMemoryDeps();
    const alice = await aUser(deps);
    const bob = await aUser(deps);
    await expect(browseComponents({ actor: alice.actor, organizationId: alice.organizationId, page: 0 }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
    await expect(browseComponents({ actor: alice.actor, organizationId: alice.organizationId, pageSize: 500 }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
    await expect(browseComponents({ actor: bob.actor, organizationId: alice.organizationId }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('renameEnvironment and removeEnvironment', () => {
  it('rename (normalized), refuse taken names, remove only what was never released to', async () => {
    const { deps, objects } = inMemoryDeps();
    const alice = await aUser(deps);
    const org = alice.organizationId;
    const canary = await createEnvironment({ actor: alice.actor, organizationId: org, name: 'canary' }, deps);
    const renamed = await renameEnvironment({ actor: alice.actor, organizationId: org, environmentId: canary.id, name: ' EU-Canary ' }, deps);
    expect(renamed.name).toBe('eu-canary');
    await expect(renameEnvironment({ actor: alice.actor, organizationId: org, environmentId: canary.id, name: 'prod' }, deps)).rejects.toMatchObject({ code: ErrorCode.NameTaken });
    await expect(renameEnvironment({ actor: alice.actor, organizationId: org, environmentId: canary.id, name: 'Not a slug!' }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });

    const uploaded = await anUploadedComponent(deps, objects, alice.actor);
    await publishVariant({ actor: alice.actor, componentId: uploaded.componentId, environment: 'staging' }, deps);
    const staging = (await listEnvironments({ actor: alice.actor, organizationId: org }, deps)).find((e) => e.name === 'staging')!;
    await expect(removeEnvironment({ actor: alice.actor, organizationId: org, environmentId: staging.id }, deps)).rejects.toMatchObject({ code: ErrorCode.EnvironmentInUse });
    await removeEnvironment({ actor: alice.actor, organizationId: org, environmentId: canary.id }, deps);
    expect((await listEnvironments({ actor: alice.actor, organizationId: org }, deps)).map((e) => e.name)).toEqual(['prod', 'staging']);
  });

  it('answer "not found" to outsiders and for another organization\'s environment', async () => {
    const { deps } = inMemoryDeps();
    const alice = await aUser(deps);
    const bob = await aUser(deps);
    const [prod] = await listEnvironments({ actor: alice.actor, organizationId: alice.organizationId }, deps);
    await expect(renameEnvironment({ actor: bob.actor, organizationId: alice.organizationId, environmentId: prod!.id, name: 'x' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(removeEnvironment({ actor: bob.actor, organizationId: bob.organizationId, environmentId: prod!.id }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(removeEnvironment({ actor: alice.actor, organizationId: alice.organizationId, environmentId: 'nope' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('listFlows and getFlow', () => {
  it('list an organization\'s flows by name, drafts included; outsiders get "not found"', async () => {
    const { deps } = inMemoryDeps();
    const alice = await aUser(deps);
    const bob = await aUser(deps);
    const b = await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'checkout' }, deps);
    await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'Account' }, deps);
    expect((await listFlows({ actor: alice.actor, organizationId: alice.organizationId }, deps)).map((f) => f.name)).toEqual(['Account', 'checkout']);
    expect((await getFlow({ actor: alice.actor, flowId: b.id }, deps)).status).toBe('draft');
    await expect(listFlows({ actor: bob.actor, organizationId: alice.organizationId }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(getFlow({ actor: bob.actor, flowId: b.id }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});
