import { randomUUID } from 'node:crypto';
import { AuditKind, type CredentialVia } from '@cp/domain';
import { createOidcStorage } from '../src/oidc/index.js';
import { aMemberOf, anAuditNote } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';
import { aGrantWithTokens, aNewApiToken, anOwnerIn, aScope, auditRowsIn, deleteOrganizationOf, grantRows } from './support/credentials.js';

const DAY = 24 * 60 * 60 * 1000;

describeEachBackend('API tokens', (db) => {
  const tokens = () => db().repos.apiTokens;
  const anOwner = () => anOwnerIn(db());
  const auditRows = (organizationId: string, kind: AuditKind) => auditRowsIn(db(), organizationId, kind);

  it('creates a token, lists it, and records its creation with the note’s via but never the secret', async () => {
    const { userId, organizationId } = await anOwner();
    const { token, secret } = aNewApiToken(organizationId, userId, {
      scope: aScope(organizationId, {
        componentIds: [randomUUID()],
        access: 'read',
        protectedEnvironments: true,
      }),
    });
    const via: CredentialVia = { via: 'api-token', tokenId: randomUUID(), tokenName: 'bootstrap' };
    const created = await tokens().create(token, 5, { ...anAuditNote(userId), via });
    expect(created).toEqual({
      id: token.id,
      organizationId,
      name: token.name,
      prefix: token.prefix,
      scope: token.scope,
      createdBy: userId,
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      grantId: null,
    });
    expect(await tokens().listForOrganization(organizationId)).toEqual([created]);
    const [row] = await auditRows(organizationId, AuditKind.ApiTokenCreated);
    expect(row).toMatchObject({
      actorId: userId,
      via,
      details: {
        tokenId: token.id,
        name: token.name,
        prefix: token.prefix,
        scope: {
          componentIds: token.scope.componentIds,
          environments: ['staging'],
          access: 'read',
          protectedEnvironments: true,
        },
        expiresAt: token.expiresAt.toISOString(),
      },
    });
    const written = JSON.stringify({ ...row, seq: String(row?.seq) });
    expect(written).not.toContain(secret);
    expect(written).not.toContain(token.secretHash);
  });

  it('the table holds the secret’s hash, never the secret', async () => {
    const { userId, organizationId } = await anOwner();
    const { token, secret } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const rows = await db().prisma.$queryRaw<{ row: string }[]>`
      SELECT row_to_json(t)::text AS row FROM api_tokens t WHERE organization_id = ${organizationId}::uuid`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.row).toContain(token.secretHash);
    // Neither the secret nor any part of it past the display prefix.
    expect(rows[0]!.row).not.toContain(secret);
    expect(rows[0]!.row).not.toContain(secret.slice(token.prefix.length, token.prefix.length + 16));
    expect((await tokens().findBySecretHash(token.secretHash))?.id).toBe(token.id);
    expect(await tokens().findBySecretHash('0'.repeat(64))).toBeNull();
  });

  it('lists the organization’s tokens newest first, revoked and expired ones included', async () => {
    const { userId, organizationId } = await anOwner();
    const now = Date.now();
    const old = aNewApiToken(organizationId, userId, {
      createdAt: new Date(now - 40 * DAY),
      expiresAt: new Date(now - 10 * DAY),
    });
    const revoked = aNewApiToken(organizationId, userId, { createdAt: new Date(now - 2 * DAY) });
    const fresh = aNewApiToken(organizationId, userId, { createdAt: new Date(now - DAY) });
    for (const { token } of [old, revoked, fresh])
      await tokens().create(token, 5, anAuditNote(userId));
    await tokens().revoke({
      organizationId,
      tokenId: revoked.token.id,
      now: new Date(),
      audit: anAuditNote(userId),
    });
    expect((await tokens().listForOrganization(organizationId)).map((t) => t.id)).toEqual([
      fresh.token.id,
      revoked.token.id,
      old.token.id,
    ]);
    expect(await tokens().listForOrganization((await anOwner()).organizationId)).toEqual([]);
    expect(await tokens().listForOrganization('not-a-uuid')).toEqual([]);
  });

  it('holds the limit per creator under parallel creations; revoked and expired tokens and other creators do not count', async () => {
    const { userId, organizationId } = await anOwner();
    const other = await aMemberOf(db(), organizationId, 'member');
    const now = Date.now();
    const expired = aNewApiToken(organizationId, userId, {
      createdAt: new Date(now - 31 * DAY),
      expiresAt: new Date(now - DAY),
    });
    const revoked = aNewApiToken(organizationId, userId);
    await tokens().create(expired.token, 3, anAuditNote(userId));
    await tokens().create(revoked.token, 3, anAuditNote(userId));
    await tokens().revoke({
      organizationId,
      tokenId: revoked.token.id,
      now: new Date(),
      audit: anAuditNote(userId),
    });
    await tokens().create(aNewApiToken(organizationId, other.id).token, 3, anAuditNote(other.id));

    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        tokens().create(aNewApiToken(organizationId, userId).token, 3, anAuditNote(userId)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'limit-reached')).toHaveLength(5);
    const live = (await tokens().listForOrganization(organizationId)).filter(
      (t) => t.createdBy === userId && t.revokedAt === null && t.expiresAt.getTime() > now,
    );
    expect(live).toHaveLength(3);
    // One creation row per token created, none for the refused ones.
    expect(await auditRows(organizationId, AuditKind.ApiTokenCreated)).toHaveLength(3 + 3);
    expect(
      await tokens().create(aNewApiToken(organizationId, other.id).token, 3, anAuditNote(other.id)),
    ).not.toBe('limit-reached');
  });

  it('refuses a token for an organization that does not exist with NOT_FOUND', async () => {
    const { userId } = await anOwner();
    const missing = randomUUID();
    await expect(
      tokens().create(aNewApiToken(missing, userId).token, 5, anAuditNote(userId)),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('revokes once: the first time stays, one audit row under parallel revocations, and the grant with its tokens is deleted', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const grantId = await aGrantWithTokens(db(), userId);
    const unrelated = await aGrantWithTokens(db(), userId);
    expect(await tokens().attachGrant({ tokenId: token.id, grantId, expected: null })).toBe(
      grantId,
    );
    expect(await grantRows(db(), grantId)).toBe(3);

    const times = Array.from({ length: 5 }, (_, i) => new Date(Date.now() + i * 1000));
    const results = await Promise.all(
      times.map((now) =>
        tokens().revoke({ organizationId, tokenId: token.id, now, audit: anAuditNote(userId) }),
      ),
    );
    const revokedAt = results[0]!.revokedAt!;
    expect(results.every((result) => result?.revokedAt?.getTime() === revokedAt.getTime())).toBe(
      true,
    );
    expect(await auditRows(organizationId, AuditKind.ApiTokenRevoked)).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ tokenId: token.id, name: token.name, prefix: token.prefix, expiresAt: token.expiresAt.toISOString() }),
      }),
    ]);
    expect(await grantRows(db(), grantId)).toBe(0);
    expect(await grantRows(db(), unrelated)).toBe(3);

    const later = await tokens().revoke({
      organizationId,
      tokenId: token.id,
      now: new Date(Date.now() + DAY),
      audit: anAuditNote(userId),
    });
    expect(later?.revokedAt).toEqual(revokedAt);
    expect((await tokens().findBySecretHash(token.secretHash))?.revokedAt).toEqual(revokedAt);
  });

  it('revoking a token of another organization, an unknown or a malformed id answers null and changes nothing', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const elsewhere = await anOwner();
    const audit = anAuditNote(userId);
    for (const input of [
      { organizationId: elsewhere.organizationId, tokenId: token.id },
      { organizationId, tokenId: randomUUID() },
      { organizationId, tokenId: 'nope' },
    ]) {
      expect(await tokens().revoke({ ...input, now: new Date(), audit })).toBeNull();
    }
    expect((await tokens().findBySecretHash(token.secretHash))?.revokedAt).toBeNull();
    expect(await auditRows(organizationId, AuditKind.ApiTokenRevoked)).toHaveLength(0);
  });

  it('touch sets last_used_at and never moves it back', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const t1 = new Date(Date.now() + 60_000);
    await tokens().touch(token.id, t1);
    expect((await tokens().findBySecretHash(token.secretHash))?.lastUsedAt).toEqual(t1);
    await tokens().touch(token.id, new Date(t1.getTime() - 30_000));
    expect((await tokens().findBySecretHash(token.secretHash))?.lastUsedAt).toEqual(t1);
    const t2 = new Date(t1.getTime() + 30_000);
    await tokens().touch(token.id, t2);
    expect((await tokens().findBySecretHash(token.secretHash))?.lastUsedAt).toEqual(t2);
    await expect(tokens().touch('nope', t2)).resolves.toBeUndefined();
  });

  it('attachGrant is a compare-and-set: of parallel first exchanges one grant holds, and everyone is told which', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const candidates = Array.from({ length: 6 }, () => randomUUID());
    const answers = await Promise.all(
      candidates.map((grantId) =>
        tokens().attachGrant({ tokenId: token.id, grantId, expected: null }),
      ),
    );
    const winner = answers[0]!;
    expect(candidates).toContain(winner);
    expect(answers.every((answer) => answer === winner)).toBe(true);
    expect((await tokens().findBySecretHash(token.secretHash))?.grantId).toBe(winner);

    // The grant expired: replacing it needs the old id.
    const stale = randomUUID();
    expect(
      await tokens().attachGrant({ tokenId: token.id, grantId: stale, expected: randomUUID() }),
    ).toBe(winner);
    const next = randomUUID();
    expect(await tokens().attachGrant({ tokenId: token.id, grantId: next, expected: winner })).toBe(
      next,
    );
    expect(
      await tokens().attachGrant({ tokenId: randomUUID(), grantId: next, expected: null }),
    ).toBeNull();
    expect(
      await tokens().attachGrant({ tokenId: 'nope', grantId: next, expected: null }),
    ).toBeNull();
  });

  it("a token's grant is not a connected application: the person's own login with the CLI is", async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const tokenGrant = await aGrantWithTokens(db(), userId);
    await tokens().attachGrant({ tokenId: token.id, grantId: tokenGrant, expected: null });
    const login = await aGrantWithTokens(db(), userId);
    const listed = await createOidcStorage(db().prisma).listGrants(userId);
    expect(listed.map((grant) => grant.grantId)).toEqual([login]);
  });

  it('a revoked token takes no grant, so an exchange that read it before the revocation drops its own', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    await tokens().revoke({
      organizationId,
      tokenId: token.id,
      now: new Date(),
      audit: anAuditNote(userId),
    });
    expect(
      await tokens().attachGrant({ tokenId: token.id, grantId: randomUUID(), expected: null }),
    ).toBeNull();
    expect((await tokens().findBySecretHash(token.secretHash))?.grantId).toBeNull();
  });

  it('deleting the organization deletes its tokens and their grants', async () => {
    const { userId, organizationId } = await anOwner();
    const { token } = aNewApiToken(organizationId, userId);
    await tokens().create(token, 5, anAuditNote(userId));
    const grantId = await aGrantWithTokens(db(), userId);
    await tokens().attachGrant({ tokenId: token.id, grantId, expected: null });
    await deleteOrganizationOf(db(), organizationId, userId);
    expect(await tokens().findBySecretHash(token.secretHash)).toBeNull();
    expect(await grantRows(db(), grantId)).toBe(0);
  });
});
