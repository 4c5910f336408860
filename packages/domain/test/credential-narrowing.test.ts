import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../src/errors/domain-error.js';
import { released } from '../src/testing/publish-outcomes.js';
import { getComponent } from '../src/use-cases/components/get-component.js';
import { listComponents } from '../src/use-cases/components/list-components.js';
import { leaveOrganization } from '../src/use-cases/members/leave-organization.js';
import { listOrganizations } from '../src/use-cases/organizations/list-organizations.js';
import { resolveOrganization } from '../src/use-cases/organizations/resolve-organization.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { setEnvironmentProtection } from '../src/use-cases/releases/set-environment-protection.js';
import { listEnvironments } from '../src/use-cases/releases/environments.js';
import { startUpload } from '../src/use-cases/uploads/start-upload.js';
import { aUser } from './builders.js';
import { anOrganizationWithTokens, codeOf } from './credential-builders.js';

// One test per rule of docs/cli-and-ci.md ("Narrowing", "Ceiling"), through use cases that apply it.

test('a credential sees only its organization: another of its creator’s is NOT_FOUND, and listings leave it out', async () => {
  const { deps, repos, alice, tokenActor, organizationId } = await anOrganizationWithTokens();
  const elsewhere = await aUser(deps, 'someone@example.com');
  repos.state.memberships.push({ userId: alice.user.id, organizationId: elsewhere.organizationId, role: 'owner' });
  const now = new Date();
  const foreignId = randomUUID();
  repos.state.components.push({ id: foreignId, organizationId: elsewhere.organizationId, name: 'Foreign', description: '', tags: [], variantsCount: 0, createdAt: now, updatedAt: now });
  const actor = await tokenActor(alice);
  expect((await listOrganizations({ actor: alice.actor }, deps)).map((o) => o.id)).toContain(elsewhere.organizationId);
  expect((await listOrganizations({ actor }, deps)).map((o) => o.id)).toEqual([organizationId]);
  expect(await codeOf(listComponents({ actor, organizationId: elsewhere.organizationId }, deps))).toBe(ErrorCode.NotFound);
  expect(await codeOf(getComponent({ actor, componentId: foreignId, includeContent: false }, deps))).toBe(ErrorCode.NotFound);
  expect(await codeOf(getComponent({ actor: alice.actor, componentId: foreignId, includeContent: false }, deps))).toBe('resolved');
  expect(await codeOf(resolveOrganization(actor, elsewhere.organizationId, deps))).toBe(ErrorCode.NotFound);
  expect((await resolveOrganization(actor, undefined, deps)).id).toBe(organizationId);
});

test('a credential never exceeds a member’s rights (write) or a viewer’s (read), whatever its creator’s role', async () => {
  const { deps, alice, tokenActor, organizationId, banner } = await anOrganizationWithTokens();
  const write = await tokenActor(alice);
  const staging = (await listEnvironments({ actor: alice.actor, organizationId }, deps)).find((e) => e.name === 'staging')!;
  const refused = setEnvironmentProtection({ actor: write, organizationId, environmentId: staging.id, protected: true }, deps);
  await expect(refused).rejects.toMatchObject({ code: ErrorCode.Forbidden, message: expect.stringContaining("The API token 'nightly' has write access") });
  const read = await tokenActor(alice, { componentIds: null, environments: [], access: 'read', protectedEnvironments: false }, 'reader');
  await expect(startUpload({ actor: read, componentId: banner }, deps)).rejects.toMatchObject({
    code: ErrorCode.Forbidden,
    message: expect.stringContaining("The API token 'reader' has read access"),
  });
  expect(await codeOf(getComponent({ actor: read, componentId: banner, includeContent: false }, deps))).toBe('resolved');
  // What only a person signed in may do, whatever the role: membership changes among them.
  await expect(leaveOrganization({ actor: write, organizationId }, deps)).rejects.toMatchObject({ code: ErrorCode.Forbidden });
});

test('a credential narrowed to components: another is FORBIDDEN naming it, listings show only its own, and no new component', async () => {
  const { deps, alice, tokenActor, organizationId, banner, footer } = await anOrganizationWithTokens();
  const actor = await tokenActor(alice, { componentIds: [banner], environments: ['staging'], access: 'write', protectedEnvironments: false }, 'banner-only');
  await expect(publishVariant({ actor, componentId: footer, environment: 'staging' }, deps)).rejects.toMatchObject({
    code: ErrorCode.Forbidden,
    message: expect.stringMatching(/^The API token 'banner-only' may act only on components/),
  });
  expect(released(await publishVariant({ actor, componentId: banner, environment: 'staging' }, deps)).component.id).toBe(banner);
  expect((await listComponents({ actor, organizationId }, deps)).components.map((c) => c.id)).toEqual([banner]);
  expect(await codeOf(startUpload({ actor, name: 'Brand new' }, deps))).toBe(ErrorCode.Forbidden);
  expect(await codeOf(startUpload({ actor, componentId: banner }, deps))).toBe('resolved');
});

test('a credential releases only to its environments, naming them when refused', async () => {
  const { deps, alice, tokenActor, banner } = await anOrganizationWithTokens();
  const actor = await tokenActor(alice);
  await expect(publishVariant({ actor, componentId: banner, environment: 'prod' }, deps)).rejects.toMatchObject({
    code: ErrorCode.Forbidden,
    message: "The API token 'nightly' may release only to these environments: staging. prod is not one of them.",
  });
});

test('a protected environment: a release request, unless the credential allows it and its creator’s current role may publish there', async () => {
  const { deps, repos, admin, tokenActor, banner } = await anOrganizationWithTokens();
  const scope = { componentIds: null, environments: ['prod'], access: 'write', protectedEnvironments: false };
  const plain = await tokenActor(admin, scope, 'plain');
  expect((await publishVariant({ actor: plain, componentId: banner, environment: 'prod' }, deps)).outcome).toBe('requested');
  const allowed = await tokenActor(admin, { ...scope, protectedEnvironments: true }, 'allowed');
  expect((await publishVariant({ actor: allowed, componentId: banner, environment: 'prod' }, deps)).outcome).toBe('released');
  // The creator is demoted: the same token now makes requests (the current role, on every call).
  repos.state.memberships = repos.state.memberships.map((m) => (m.userId === admin.user.id ? { ...m, role: 'member' as const } : m));
  expect((await publishVariant({ actor: allowed, componentId: banner, environment: 'prod' }, deps)).outcome).toBe('requested');
});

test('changes through a credential are recorded with via', async () => {
  const { deps, repos, alice, tokenActor, banner } = await anOrganizationWithTokens();
  const actor = await tokenActor(alice);
  await publishVariant({ actor, componentId: banner, environment: 'staging' }, deps);
  const row = repos.state.auditEvents.filter((e) => e.kind === 'release.published').at(-1);
  expect(row).toMatchObject({ actorId: alice.user.id, via: { via: 'api-token', tokenName: 'nightly' } });
});
