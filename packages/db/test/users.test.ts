import { randomUUID } from 'node:crypto';
import { createCredentials } from '../src/oidc/credentials.js';
import { aUserWithOrganization, uniqueName } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

const newOrganization = () => ({
  id: randomUUID(),
  name: uniqueName('org'),
  environments: [
    { id: randomUUID(), name: 'staging', protected: false },
    { id: randomUUID(), name: 'prod', protected: true },
  ],
});

describeEachBackend('users', (db) => {
  it('creates the user with an organization, its environments and an owner membership', async () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    const organization = newOrganization();
    const email = `${uniqueName('Ada')}@Example.test`;
    const user = await db().repos.users.createWithOrganization({
      user: { id: randomUUID(), email, displayName: 'Ada' },
      organization,
      now,
    });

    expect(user).toMatchObject({
      email,
      displayName: 'Ada',
      defaultOrganizationId: organization.id,
      createdAt: now,
    });
    const orgs = await db().repos.organizations.listForUser(user.id);
    expect(orgs).toEqual([
      {
        id: organization.id,
        name: organization.name,
        createdAt: now,
        privatePreviews: false,
        role: 'owner',
        isDefault: true,
      },
    ]);
    const envs = await db().repos.environments.listForOrganization(organization.id);
    expect(envs.map((env) => env.name)).toEqual(['prod', 'staging']);
  });

  it('finds users by id and by email, case-insensitively', async () => {
    const email = `${uniqueName('Grace')}@Example.test`;
    const { user } = await aUserWithOrganization(db().repos, { email });
    expect(await db().repos.users.findById(user.id)).toEqual(user);
    expect(await db().repos.users.findByEmail(email.toUpperCase())).toEqual(user);
    expect(await db().repos.users.findByEmail(email.toLowerCase())).toEqual(user);
    expect(await db().repos.users.findByEmail('nobody@example.test')).toBeNull();
    expect(await db().repos.users.findById(randomUUID())).toBeNull();
    expect(await db().repos.users.findById('not-a-uuid')).toBeNull();
  });

  it('finds many users by id in one call: the ones that exist, each once', async () => {
    const [{ user: ada }, { user: grace }] = [
      await aUserWithOrganization(db().repos),
      await aUserWithOrganization(db().repos),
    ];
    const found = await db().repos.users.findByIds([
      grace.id,
      randomUUID(),
      ada.id,
      'not-a-uuid',
      grace.id,
    ]);
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [ada, grace].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await db().repos.users.findByIds([])).toEqual([]);
    expect(await db().repos.users.findByIds(['not-a-uuid'])).toEqual([]);
  });

  it('refuses a taken email (any case) with NAME_TAKEN and writes nothing', async () => {
    const email = `${uniqueName('linus')}@example.test`;
    await aUserWithOrganization(db().repos, { email });
    const organization = newOrganization();
    const userId = randomUUID();
    const attempt = db().repos.users.createWithOrganization({
      user: { id: userId, email: email.toUpperCase(), displayName: null },
      organization,
      now: new Date(),
    });
    expect(await errorCode(attempt)).toBe('NAME_TAKEN');
    await expect(attempt).rejects.toThrow(/already exists/);
    expect(await db().repos.users.findById(userId)).toBeNull();
    expect(await db().repos.organizations.findById(organization.id)).toBeNull();
  });

  it('is atomic: a failing part (two environments with one name) leaves no user', async () => {
    const userId = randomUUID();
    const organization = {
      ...newOrganization(),
      environments: [
        { id: randomUUID(), name: 'prod', protected: true },
        { id: randomUUID(), name: 'prod', protected: true },
      ],
    };
    const attempt = db().repos.users.createWithOrganization({
      user: { id: userId, email: `${uniqueName('x')}@example.test`, displayName: null },
      organization,
      now: new Date(),
    });
    expect(await errorCode(attempt)).toBe('NAME_TAKEN');
    expect(await db().repos.users.findById(userId)).toBeNull();
    expect(await db().repos.organizations.findById(organization.id)).toBeNull();
  });

  it("records the organization's creation by the new user in the same write, or nothing", async () => {
    const organization = newOrganization();
    const userId = randomUUID();
    const now = new Date('2026-01-02T03:04:05.678Z');
    const email = `${uniqueName('hedy')}@example.test`;
    const audit = { eventId: randomUUID(), actorId: userId };
    await db().repos.users.createWithOrganization({ user: { id: userId, email, displayName: null }, organization, now, audit });
    const rows = await db().prisma.auditEvent.findMany({ where: { organizationId: organization.id } });
    expect(rows.map((r) => [r.id, r.kind, r.actorId, r.details, r.createdAt])).toEqual([
      [audit.eventId, 'organization.created', userId, { name: organization.name }, now],
    ]);

    const refused = newOrganization();
    const attempt = db().repos.users.createWithOrganization({
      user: { id: randomUUID(), email, displayName: null },
      organization: refused,
      now,
      audit: { eventId: randomUUID(), actorId: userId },
    });
    expect(await errorCode(attempt)).toBe('NAME_TAKEN');
    expect(await db().prisma.auditEvent.count({ where: { organizationId: refused.id } })).toBe(0);
  });

  it('stores the password hash with the user in the same write, or neither', async () => {
    const credentials = createCredentials(db().prisma);
    const user = await db().repos.users.createWithOrganization({
      user: { id: randomUUID(), email: `${uniqueName('grace')}@example.test`, displayName: null },
      organization: newOrganization(),
      passwordHash: 'scrypt$15$8$1$salt$hash',
      now: new Date(),
    });
    expect(await credentials.findPasswordHash(user.id)).toBe('scrypt$15$8$1$salt$hash');

    const userId = randomUUID();
    const attempt = db().repos.users.createWithOrganization({
      user: { id: userId, email: user.email, displayName: null },
      organization: newOrganization(),
      passwordHash: 'scrypt$15$8$1$other$hash',
      now: new Date(),
    });
    expect(await errorCode(attempt)).toBe('NAME_TAKEN');
    expect(await credentials.findPasswordHash(userId)).toBeNull();
  });
});
