import { previewKeysContract } from '@cp/domain/testing';
import { anAuditNote, aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('preview keys', (db) => {
  previewKeysContract(() => ({
    previewKeys: db().repos.previewKeys,
    anOrganization: async () => {
      const { user, organization } = await aUserWithOrganization(db().repos);
      return { organizationId: organization.id, userId: user.id };
    },
  }));

  it('switches private previews on and off; unknown organizations answer null', async () => {
    const { organization } = await aUserWithOrganization(db().repos);
    expect(organization.privatePreviews).toBe(false);
    expect(
      (await db().repos.organizations.setPrivatePreviews(organization.id, true, { now: new Date(), audit: anAuditNote() }))?.privatePreviews,
    ).toBe(true);
    expect((await db().repos.organizations.findById(organization.id))?.privatePreviews).toBe(true);
    expect(
      (await db().repos.organizations.setPrivatePreviews(organization.id, false, { now: new Date(), audit: anAuditNote() }))?.privatePreviews,
    ).toBe(false);
    expect(
      await db().repos.organizations.setPrivatePreviews(
        '00000000-0000-4000-8000-000000000000',
        true,
        { now: new Date(), audit: anAuditNote() },
      ),
    ).toBeNull();
  });
});
