import { deleteOrganization } from '../src/use-cases/organizations/delete-organization.js';
import { createOrganization } from '../src/use-cases/organizations/create-organization.js';
import { inMemoryDeps } from '../src/testing/index.js';
import { anUploadedComponent, aUser } from './builders.js';

describe('deleteOrganization', () => {
  it('deletes the rows, moves the default, then removes the stored variants; a failed removal is counted, never thrown', async () => {
    const { deps, repos, objects } = inMemoryDeps();
    const { actor, organizationId } = await aUser(deps, 'ada@example.com');
    const team = await createOrganization({ actor, name: 'Team' }, deps);
    expect(repos.state.auditEvents.filter((e) => e.organizationId === team.id).map((e) => [e.kind, e.organizationId, e.details])).toEqual([
      ['organization.created', team.id, { name: 'Team' }],
    ]);
    const keys: string[] = [];
    for (const name of ['One', 'Two']) {
      const { variantId } = await anUploadedComponent(deps, objects, actor, { name });
      keys.push((await repos.variants.findById(variantId))!.objectKey);
    }
    const remove = objects.remove.bind(objects);
    objects.remove = async (key) =>
      key === keys[1] ? Promise.reject(new Error('storage down')) : remove(key);

    const result = await deleteOrganization(
      { actor, organizationId, confirmName: "ada's organization" },
      deps,
    );
    // Both variants and both staged uploads (the sweeper had not removed them yet); one removal fails.
    expect(result).toEqual({ removedObjects: 3, failedObjects: 1 });
    expect(await objects.stat(keys[0]!)).toBeNull();
    expect(await objects.stat(keys[1]!)).not.toBeNull();
    expect(await repos.organizations.findById(organizationId)).toBeNull();
    expect(repos.state.components).toEqual([]);
    expect((await repos.users.findById(actor.userId))!.defaultOrganizationId).toBe(team.id);
  });
});
