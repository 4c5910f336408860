import { randomBytes } from 'node:crypto';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { acceptInvitation } from '../src/use-cases/invitations/accept-invitation.js';
import { createInvitation } from '../src/use-cases/invitations/create-invitation.js';
import { pendingInvitationFor } from '../src/use-cases/invitations/pending-invitation-for.js';
import { revokeInvitation } from '../src/use-cases/invitations/revoke-invitation.js';
import { aUser } from './builders.js';

// The auth server's throttles ask this whether an attempt is invited (its README "Throttling").
async function setup() {
  const { deps, clock } = inMemoryDeps();
  const owner = await aUser(deps);
  const organizationId = owner.organizationId;
  const invite = (email: string) =>
    createInvitation({ actor: { userId: owner.user.id }, organizationId, email, role: 'member', ttlSeconds: 3600 }, deps);
  return { deps, clock, owner, organizationId, invite };
}

test('a pending invitation opens for its email, case and surrounding spaces aside', async () => {
  const { deps, invite } = await setup();
  const { token, invitation } = await invite('Invitee@Example.test');
  expect((await pendingInvitationFor({ token, email: 'invitee@example.test' }, deps))?.id).toBe(invitation.id);
  expect((await pendingInvitationFor({ token, email: '  INVITEE@example.TEST ' }, deps))?.id).toBe(invitation.id);
});

test('null for another email, a forged or malformed token, no token', async () => {
  const { deps, invite } = await setup();
  const { token } = await invite('invitee@example.test');
  expect(await pendingInvitationFor({ token, email: 'someone-else@example.test' }, deps)).toBeNull();
  expect(await pendingInvitationFor({ token: `cpi_${randomBytes(32).toString('base64url')}`, email: 'invitee@example.test' }, deps)).toBeNull();
  expect(await pendingInvitationFor({ token: 'cpi_short', email: 'invitee@example.test' }, deps)).toBeNull();
  expect(await pendingInvitationFor({ token: '', email: 'invitee@example.test' }, deps)).toBeNull();
});

test('null once expired, revoked, replaced or accepted', async () => {
  const { deps, clock, owner, organizationId, invite } = await setup();
  const expiring = await invite('late@example.test');
  clock.advance(3600);
  expect(await pendingInvitationFor({ token: expiring.token, email: 'late@example.test' }, deps)).toBeNull();

  const revoked = await invite('revoked@example.test');
  await revokeInvitation({ actor: { userId: owner.user.id }, organizationId, invitationId: revoked.invitation.id }, deps);
  expect(await pendingInvitationFor({ token: revoked.token, email: 'revoked@example.test' }, deps)).toBeNull();

  const replaced = await invite('twice@example.test');
  const newer = await invite('twice@example.test');
  expect(await pendingInvitationFor({ token: replaced.token, email: 'twice@example.test' }, deps)).toBeNull();
  expect(await pendingInvitationFor({ token: newer.token, email: 'twice@example.test' }, deps)).not.toBeNull();

  const accepted = await invite('joined@example.test');
  const invitee = await aUser(deps, 'joined@example.test');
  await acceptInvitation({ actor: { userId: invitee.user.id }, token: accepted.token }, deps);
  expect(await pendingInvitationFor({ token: accepted.token, email: 'joined@example.test' }, deps)).toBeNull();
});
