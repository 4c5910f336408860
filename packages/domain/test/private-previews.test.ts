import { ErrorCode } from '../src/errors/domain-error.js';
import { Limits } from '../src/rules/limits.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { resolvePublicVariant } from '../src/use-cases/components/resolve-public-variant.js';
import { createPreviewKey } from '../src/use-cases/previews/create-preview-key.js';
import { listPreviewKeys } from '../src/use-cases/previews/list-preview-keys.js';
import { revokePreviewKey } from '../src/use-cases/previews/revoke-preview-key.js';
import { setPrivatePreviews } from '../src/use-cases/previews/set-private-previews.js';
import { aUser, anUploadedComponent } from './builders.js';

/** An owner with an uploaded component, and a plain member of the same organization. */
async function anOrganizationWithMember() {
  const setup = inMemoryDeps();
  const owner = await aUser(setup.deps);
  const member = await aUser(setup.deps);
  setup.repos.state.memberships.push({
    userId: member.user.id,
    organizationId: owner.organizationId,
    role: 'member',
  });
  const uploaded = await anUploadedComponent(setup.deps, setup.objects, owner.actor);
  return { ...setup, owner, member, componentId: uploaded.componentId };
}

describe('private previews', () => {
  it('owners switch them on; a preview then needs an unrevoked key of the organization', async () => {
    const { deps, owner, componentId } = await anOrganizationWithMember();
    expect((await resolvePublicVariant({ componentId }, deps)).privatePreview).toBe(false);
    await setPrivatePreviews(
      { actor: owner.actor, organizationId: owner.organizationId, enabled: true },
      deps,
    );

    const keyless = await resolvePublicVariant({ componentId }, deps).catch(
      (error: unknown) => error,
    );
    expect(keyless).toMatchObject({ code: ErrorCode.NotFound });
    const unknown = await resolvePublicVariant(
      { componentId: '00000000-0000-4000-8000-000000000000' },
      deps,
    ).catch((error: unknown) => error);
    // One text for both: the answer confirms nothing.
    expect((keyless as Error).message.replace(componentId, 'ID')).toBe(
      (unknown as Error).message.replace('00000000-0000-4000-8000-000000000000', 'ID'),
    );

    const { secret, key } = await createPreviewKey(
      { actor: owner.actor, organizationId: owner.organizationId, name: ' staging host ' },
      deps,
    );
    expect(key).toMatchObject({
      name: 'staging host',
      prefix: secret.slice(0, 10),
      revokedAt: null,
    });
    expect(
      (await resolvePublicVariant({ componentId, previewKey: secret }, deps)).privatePreview,
    ).toBe(true);
    await expect(
      resolvePublicVariant({ componentId, previewKey: `${secret.slice(0, -1)}x` }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });

    await revokePreviewKey(
      { actor: owner.actor, organizationId: owner.organizationId, keyId: key.id },
      deps,
    );
    await expect(
      resolvePublicVariant({ componentId, previewKey: secret }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });

  it('never lists the environments of an organization with private previews; released reads stay open', async () => {
    const { deps, owner, componentId } = await anOrganizationWithMember();
    await expect(resolvePublicVariant({ componentId, environment: 'qa' }, deps)).rejects.toThrow(
      /Known environments: prod, staging/,
    );
    await setPrivatePreviews(
      { actor: owner.actor, organizationId: owner.organizationId, enabled: true },
      deps,
    );
    const error = (await resolvePublicVariant({ componentId, environment: 'qa' }, deps).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toBe('Environment "qa" does not exist in this organization.');
  });

  it('members see the keys but cannot change anything; outsiders get not found', async () => {
    const { deps, owner, member } = await anOrganizationWithMember();
    const outsider = await aUser(deps);
    const organizationId = owner.organizationId;
    const { key } = await createPreviewKey(
      { actor: owner.actor, organizationId, name: 'ci' },
      deps,
    );
    expect(
      (await listPreviewKeys({ actor: member.actor, organizationId }, deps)).map((k) => k.id),
    ).toEqual([key.id]);
    await expect(
      setPrivatePreviews({ actor: member.actor, organizationId, enabled: true }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    await expect(
      createPreviewKey({ actor: member.actor, organizationId, name: 'x' }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    await expect(
      revokePreviewKey({ actor: member.actor, organizationId, keyId: key.id }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    await expect(
      listPreviewKeys({ actor: outsider.actor, organizationId }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(
      revokePreviewKey({ actor: owner.actor, organizationId, keyId: 'nope' }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(
      createPreviewKey({ actor: owner.actor, organizationId, name: '  ' }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
  });

  it('refuses keys beyond the limit, also when created in parallel', async () => {
    const { deps, owner } = await anOrganizationWithMember();
    const outcomes = await Promise.allSettled(
      Array.from({ length: Limits.previewKeysPerOrganization + 5 }, (_, i) =>
        createPreviewKey(
          { actor: owner.actor, organizationId: owner.organizationId, name: `key ${i}` },
          deps,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(
      Limits.previewKeysPerOrganization,
    );
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: ErrorCode.LimitReached });
  });
});
