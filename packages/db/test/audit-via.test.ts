import { createHash, randomUUID } from 'node:crypto';
import { AuditKind, type AuditNote, type CredentialVia } from '@cp/domain';
import {
  aComponent,
  aMemberOf,
  anAuditNote,
  aUserWithOrganization,
  aVariant,
} from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';
import { aCiVia } from './support/credentials.js';

/*
 * A change made through an API token or a CI trust policy carries the credential on its audit
 * row (`via`), whichever write path records it: the repositories' own rows, the rows the domain's
 * rules build (members, invitations), and the rows written on another's behalf (a release that
 * ends a rollout, an approved plan). The trail reads it back, null for a person's change.
 */
describeEachBackend('audit rows: via', (db) => {
  const viaToken: CredentialVia = { via: 'api-token', tokenId: randomUUID(), tokenName: 'nightly' };
  const noteVia = (actorId: string, via: CredentialVia): AuditNote => ({
    ...anAuditNote(actorId),
    via,
  });
  const trail = (organizationId: string) =>
    db().repos.auditTrail.list(organizationId, { limit: 50 });

  it('reaches the rows of the repositories’ own writes and is read back by the trail', async () => {
    const { user, organization, environments } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, {
      organizationId: organization.id,
      createdBy: user.id,
    });
    const variant = await aVariant(db().repos, { componentId: component.id, createdBy: user.id });
    const viaCi = aCiVia({ id: randomUUID(), name: 'web-release' });
    await db().repos.components.editTags(
      component.id,
      { kind: 'set', tags: ['ci'] },
      { now: new Date(), maxTags: 10, audit: noteVia(user.id, viaCi) },
    );
    await db().repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: environments.find((e) => e.name === 'staging')!.id,
      variantId: variant.id,
      releasedBy: user.id,
      now: new Date(),
      audit: noteVia(user.id, viaToken),
    });
    await db().repos.previewKeys.create(
      {
        id: randomUUID(),
        organizationId: organization.id,
        name: 'by a person',
        prefix: 'cpk_1234',
        secretHash: createHash('sha256').update(randomUUID()).digest('hex'),
        createdBy: user.id,
        createdAt: new Date(),
      },
      5,
      anAuditNote(user.id),
    );
    const events = await trail(organization.id);
    expect(events.find((e) => e.kind === AuditKind.TagsChanged)?.via).toEqual(viaCi);
    expect(events.find((e) => e.kind === AuditKind.ReleasePublished)?.via).toEqual(viaToken);
    expect(events.find((e) => e.kind === AuditKind.PreviewKeyCreated)?.via).toBeNull();
  });

  it('reaches the rows the domain’s rules build (a member’s role change, an invitation)', async () => {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const member = await aMemberOf(db(), organization.id, 'member');
    await db().repos.members.change({
      organizationId: organization.id,
      actorId: user.id,
      change: { kind: 'role', userId: member.id, from: 'member', to: 'viewer' },
      personalOrganizationFor: () => {
        throw new Error('not needed');
      },
      audit: noteVia(user.id, viaToken),
      now: new Date(),
    });
    await db().repos.invitations.create(
      {
        id: randomUUID(),
        organizationId: organization.id,
        email: `${randomUUID()}@example.test`,
        role: 'member',
        tokenHash: createHash('sha256').update(randomUUID()).digest('hex'),
        invitedBy: user.id,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      },
      noteVia(user.id, viaToken),
    );
    const events = await trail(organization.id);
    expect(events.find((e) => e.kind === AuditKind.MemberRoleChanged)?.via).toEqual(viaToken);
    expect(events.find((e) => e.kind === AuditKind.InvitationCreated)?.via).toEqual(viaToken);
  });

  it('reaches the rows written on the note’s behalf: an approved request’s release', async () => {
    const { user, organization, environments } = await aUserWithOrganization(db().repos);
    const member = await aMemberOf(db(), organization.id, 'member');
    const component = await aComponent(db().repos, {
      organizationId: organization.id,
      createdBy: user.id,
    });
    const variant = await aVariant(db().repos, { componentId: component.id, createdBy: member.id });
    const { request } = await db().repos.releaseRequests.create({
      id: randomUUID(),
      componentId: component.id,
      environmentId: environments.find((e) => e.name === 'prod')!.id,
      variantId: variant.id,
      requestedBy: member.id,
      now: new Date(),
      audit: noteVia(member.id, viaToken),
    });
    const viaCi = aCiVia({ id: randomUUID(), name: 'approvals' });
    await db().repos.releaseRequests.approve({
      requestId: request.id,
      approvedBy: user.id,
      eventId: randomUUID(),
      now: new Date(),
      audit: noteVia(user.id, viaCi),
      publishAuditId: randomUUID(),
      salt: 'unused',
      rolloutId: randomUUID(),
      moved: [],
    });
    const events = await trail(organization.id);
    expect(events.find((e) => e.kind === AuditKind.ReleaseRequested)?.via).toEqual(viaToken);
    expect(events.find((e) => e.kind === AuditKind.ReleaseApproved)?.via).toEqual(viaCi);
    expect(events.find((e) => e.kind === AuditKind.ReleasePublished)?.via).toEqual(viaCi);
  });
});
