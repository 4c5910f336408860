import { ErrorCode } from '../src/errors/domain-error.js';
import { CredentialRefused } from '../src/errors/credential-refused.js';
import { hashApiToken } from '../src/rules/api-tokens.js';
import { createApiToken } from '../src/use-cases/credentials/create-api-token.js';
import { exchangeApiToken } from '../src/use-cases/credentials/exchange-api-token.js';
import { listApiTokens } from '../src/use-cases/credentials/list-api-tokens.js';
import { revokeApiToken } from '../src/use-cases/credentials/revoke-api-token.js';
import { WRITE_STAGING, anOrganizationWithTokens, codeOf } from './credential-builders.js';

const DAY = 86_400;

const refusalOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof CredentialRefused ? error.message : `not refused: ${String(error)}`),
  );

test('any member creates a token for themselves, shown once and stored as its hash, expiring in 30 days by default', async () => {
  const { deps, repos, clock, member, organizationId } = await anOrganizationWithTokens();
  const { token, secret } = await createApiToken({ actor: member.actor, organizationId, name: ' nightly ', scope: { ...WRITE_STAGING, environments: ['STAGING'] } }, deps);
  expect(token).toMatchObject({
    name: 'nightly',
    createdBy: member.user.id,
    prefix: secret.slice(0, 12),
    scope: { organizationId, componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
    expiresAt: new Date(clock.now().getTime() + 30 * DAY * 1000),
  });
  expect(repos.state.apiTokens[0]!.secretHash).toBe(hashApiToken(secret));
  const row = repos.state.auditEvents.find((e) => e.kind === 'api_token.created')!;
  expect(row).toMatchObject({ actorId: member.user.id, details: { tokenId: token.id, name: 'nightly' } });
  expect(JSON.stringify(repos.state.auditEvents)).not.toContain(secret);
});

test('the scope may not exceed the creator’s role, and names only what exists in the organization', async () => {
  const { deps, viewer, member, admin, organizationId } = await anOrganizationWithTokens();
  const create = (actor: typeof viewer.actor, scope: object, more: object = {}) =>
    codeOf(createApiToken({ actor, organizationId, name: 'x', scope: { ...WRITE_STAGING, ...scope }, ...more }, deps));
  expect(await create(viewer.actor, {})).toBe(ErrorCode.Forbidden);
  expect(await create(viewer.actor, { access: 'read', environments: [] })).toBe('resolved');
  expect(await create(member.actor, { environments: ['prod'], protectedEnvironments: true })).toBe(ErrorCode.Forbidden);
  expect(await create(admin.actor, { environments: ['prod'], protectedEnvironments: true })).toBe('resolved');
  expect(await create(member.actor, { access: 'admin' })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, { access: 'read' })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, { environments: ['qa'] })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, { componentIds: ['00000000-0000-4000-8000-000000000000'] })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, { componentIds: [] })).toBe(ErrorCode.InvalidInput);
  for (const expiresInDays of [0, 91, 1.5]) expect(await create(member.actor, {}, { expiresInDays })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, {}, { expiresInDays: 90 })).toBe('resolved');
  expect(await create(member.actor, {}, { name: 'x'.repeat(65) })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, {}, { name: '  ' })).toBe(ErrorCode.InvalidInput);
  expect(await create(member.actor, {}, { organizationId: '00000000-0000-4000-8000-000000000000' })).toBe(ErrorCode.NotFound);
});

test('at most 20 active tokens per person and organization, also under parallel creations', async () => {
  const { deps, member, organizationId } = await anOrganizationWithTokens();
  const outcomes = await Promise.all(
    Array.from({ length: 25 }, (_, i) => codeOf(createApiToken({ actor: member.actor, organizationId, name: `t${i}`, scope: WRITE_STAGING }, deps))),
  );
  expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(20);
  expect(outcomes.filter((o) => o === ErrorCode.LimitReached)).toHaveLength(5);
});

test('tokens are made, listed and revoked by people only, not through a token', async () => {
  const { deps, alice, organizationId, tokenActor } = await anOrganizationWithTokens();
  const actor = await tokenActor(alice);
  expect(await codeOf(createApiToken({ actor, organizationId, name: 'child', scope: WRITE_STAGING }, deps))).toBe(ErrorCode.Forbidden);
  expect(await codeOf(listApiTokens({ actor, organizationId }, deps))).toBe(ErrorCode.Forbidden);
});

test('members list and revoke their own tokens; owners and admins every token; another’s is NOT_FOUND to a member', async () => {
  const { deps, repos, member, admin, organizationId } = await anOrganizationWithTokens();
  const mine = (await createApiToken({ actor: member.actor, organizationId, name: 'mine', scope: WRITE_STAGING }, deps)).token;
  const theirs = (await createApiToken({ actor: admin.actor, organizationId, name: 'theirs', scope: WRITE_STAGING }, deps)).token;
  expect((await listApiTokens({ actor: member.actor, organizationId }, deps)).map((t) => t.name)).toEqual(['mine']);
  expect((await listApiTokens({ actor: admin.actor, organizationId }, deps)).map((t) => t.name).sort()).toEqual(['mine', 'theirs']);
  expect(await codeOf(revokeApiToken({ actor: member.actor, organizationId, tokenId: theirs.id }, deps))).toBe(ErrorCode.NotFound);
  expect(await codeOf(revokeApiToken({ actor: member.actor, organizationId, tokenId: 'not-an-id' }, deps))).toBe(ErrorCode.NotFound);
  const first = await revokeApiToken({ actor: member.actor, organizationId, tokenId: mine.id }, deps);
  expect(first.revokedAt).not.toBeNull();
  expect(await revokeApiToken({ actor: admin.actor, organizationId, tokenId: mine.id }, deps)).toEqual(first);
  expect((await revokeApiToken({ actor: admin.actor, organizationId, tokenId: theirs.id }, deps)).revokedAt).not.toBeNull();
  expect(repos.state.auditEvents.filter((e) => e.kind === 'api_token.revoked').map((e) => e.details.name)).toEqual(['mine', 'theirs']);
});

test('the exchange refuses a mistyped, unknown, revoked or expired token, and one whose creator left; it records the use', async () => {
  const { deps, repos, clock, member, organizationId } = await anOrganizationWithTokens();
  const { token, secret } = await createApiToken({ actor: member.actor, organizationId, name: 'nightly', expiresInDays: 1, scope: WRITE_STAGING }, deps);
  const exchanged = await exchangeApiToken({ secret }, deps);
  expect(exchanged).toMatchObject({
    userId: member.user.id,
    credential: { scope: token.scope, via: { via: 'api-token', tokenId: token.id, tokenName: 'nightly' } },
    token: { id: token.id, lastUsedAt: clock.now() },
    expiresAt: new Date(clock.now().getTime() + 900_000),
  });
  expect(repos.state.apiTokens[0]!.lastUsedAt).toEqual(clock.now());
  const last = secret.at(-1) === 'A' ? 'B' : 'A';
  expect(await refusalOf(exchangeApiToken({ secret: `${secret.slice(0, -1)}${last}` }, deps))).toBe(
    'This is not an API token: its checksum does not match (a character was changed or lost).',
  );
  expect(await refusalOf(exchangeApiToken({ secret: 'ghp_abc' }, deps))).toBe('This is not an API token: API tokens start with cpt_.');
  const other = await createApiToken({ actor: member.actor, organizationId, name: 'other', scope: WRITE_STAGING }, deps);
  repos.state.apiTokens = repos.state.apiTokens.filter((t) => t.id !== other.token.id);
  expect(await refusalOf(exchangeApiToken({ secret: other.secret }, deps))).toMatch(/^This API token is not known/);
  // Five minutes before its expiry: the access token lives no longer than the API token.
  clock.advance(DAY - 300);
  expect((await exchangeApiToken({ secret }, deps)).expiresAt).toEqual(token.expiresAt);
  clock.advance(300);
  expect(await refusalOf(exchangeApiToken({ secret }, deps))).toMatch(/^The API token 'nightly' expired at /);
  const kept = await createApiToken({ actor: member.actor, organizationId, name: 'kept', scope: WRITE_STAGING }, deps);
  await revokeApiToken({ actor: member.actor, organizationId, tokenId: kept.token.id }, deps);
  expect(await refusalOf(exchangeApiToken({ secret: kept.secret }, deps))).toMatch(/^The API token 'kept' was revoked at /);
  const left = await createApiToken({ actor: member.actor, organizationId, name: 'left', scope: WRITE_STAGING }, deps);
  repos.state.memberships = repos.state.memberships.filter((m) => m.userId !== member.user.id);
  expect(await refusalOf(exchangeApiToken({ secret: left.secret }, deps))).toBe(
    "The person who created the API token 'left' is no longer a member of its organization.",
  );
});
