import { randomUUID } from 'node:crypto';
import { AuditKind } from '@cp/domain';
import { anAuditNote } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';
import {
  aCiVia,
  aGrantWithTokens,
  aNewCiPolicy,
  aScope,
  grantRows,
  anOwnerIn,
  auditRowsIn,
  deleteOrganizationOf,
} from './support/credentials.js';

describeEachBackend('CI trust policies', (db) => {
  const policies = () => db().repos.ciTrustPolicies;
  const anOwner = () => anOwnerIn(db());
  const auditRows = (organizationId: string, kind: AuditKind) => auditRowsIn(db(), organizationId, kind);

  it('creates a policy with every setting, lists it and records its creation with the note’s via', async () => {
    const { userId, organizationId } = await anOwner();
    const policy = aNewCiPolicy(organizationId, userId, {
      provider: 'gitlab',
      environment: 'production',
      refPatterns: ['refs/tags/v*', 'refs/heads/main'],
      requireHostedRunner: false,
      scope: aScope(organizationId, {
        componentIds: [randomUUID()],
        environments: ['staging', 'prod'],
        protectedEnvironments: true,
      }),
    });
    const via = aCiVia({ id: randomUUID(), name: 'bootstrap' });
    const created = await policies().create(policy, 5, { ...anAuditNote(userId), via });
    expect(created).toEqual({ ...policy, grantId: null });
    expect(await policies().listForOrganization(organizationId)).toEqual([created]);
    const [row] = await auditRows(organizationId, AuditKind.CiPolicyCreated);
    expect(row).toMatchObject({
      actorId: userId,
      via,
      details: {
        policyId: policy.id,
        name: policy.name,
        provider: 'gitlab',
        ownerId: policy.ownerId,
        repositoryId: policy.repositoryId,
        repositoryName: policy.repositoryName,
        workflow: policy.workflow,
        environment: 'production',
        refPatterns: ['refs/tags/v*', 'refs/heads/main'],
        requireHostedRunner: false,
        scope: {
          componentIds: policy.scope.componentIds,
          environments: ['staging', 'prod'],
          access: 'write',
          protectedEnvironments: true,
        },
      },
    });
  });

  it('lists oldest first; another organization’s policies and malformed ids are not listed', async () => {
    const { userId, organizationId } = await anOwner();
    const now = Date.now();
    const second = aNewCiPolicy(organizationId, userId, { createdAt: new Date(now - 1000) });
    const first = aNewCiPolicy(organizationId, userId, { createdAt: new Date(now - 2000) });
    await policies().create(second, 5, anAuditNote(userId));
    await policies().create(first, 5, anAuditNote(userId));
    expect((await policies().listForOrganization(organizationId)).map((p) => p.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(await policies().listForOrganization((await anOwner()).organizationId)).toEqual([]);
    expect(await policies().listForOrganization('nope')).toEqual([]);
  });

  it('holds the organization’s limit under parallel creations', async () => {
    const { userId, organizationId } = await anOwner();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        policies().create(aNewCiPolicy(organizationId, userId), 3, anAuditNote(userId)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'limit-reached')).toHaveLength(5);
    expect(await policies().listForOrganization(organizationId)).toHaveLength(3);
    expect(await auditRows(organizationId, AuditKind.CiPolicyCreated)).toHaveLength(3);
  });

  it('a name is unique in its organization, also under parallel creations, and free in another', async () => {
    const { userId, organizationId } = await anOwner();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        policies().create(
          aNewCiPolicy(organizationId, userId, { name: 'web-release' }),
          10,
          anAuditNote(userId),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'name-taken')).toHaveLength(5);
    expect(await policies().listForOrganization(organizationId)).toHaveLength(1);
    const elsewhere = await anOwner();
    expect(
      await policies().create(
        aNewCiPolicy(elsewhere.organizationId, elsewhere.userId, { name: 'web-release' }),
        10,
        anAuditNote(elsewhere.userId),
      ),
    ).toMatchObject({ name: 'web-release' });
  });

  it('refuses a policy for an organization that does not exist with NOT_FOUND', async () => {
    const { userId } = await anOwner();
    await expect(
      policies().create(aNewCiPolicy(randomUUID(), userId), 5, anAuditNote(userId)),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('removes a policy with its grant and the tokens under it, records it once under parallel removals', async () => {
    const { userId, organizationId } = await anOwner();
    const policy = aNewCiPolicy(organizationId, userId);
    await policies().create(policy, 5, anAuditNote(userId));
    const grantId = await aGrantWithTokens(db(), userId);
    const unrelated = await aGrantWithTokens(db(), userId);
    expect(await policies().attachGrant({ policyId: policy.id, grantId, expected: null })).toBe(
      grantId,
    );

    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        policies().remove({ organizationId, policyId: policy.id, now: new Date(), audit: anAuditNote(userId) }),
      ),
    );
    expect(results.filter((result) => result !== null)).toEqual([{ ...policy, grantId }]);
    expect(await policies().listForOrganization(organizationId)).toEqual([]);
    expect(await grantRows(db(), grantId)).toBe(0);
    expect(await grantRows(db(), unrelated)).toBe(3);
    expect(await auditRows(organizationId, AuditKind.CiPolicyDeleted)).toEqual([
      expect.objectContaining({
        actorId: userId,
        // The settings the policy had, as at its creation.
        details: expect.objectContaining({
          policyId: policy.id,
          name: policy.name,
          provider: 'github',
          repositoryId: policy.repositoryId,
          repositoryName: policy.repositoryName,
          workflow: policy.workflow,
        }),
      }),
    ]);
    expect(
      await policies().attachGrant({
        policyId: policy.id,
        grantId: randomUUID(),
        expected: grantId,
      }),
    ).toBeNull();
  });

  it('removing from another organization, an unknown or a malformed id answers null and keeps the policy', async () => {
    const { userId, organizationId } = await anOwner();
    const policy = aNewCiPolicy(organizationId, userId);
    await policies().create(policy, 5, anAuditNote(userId));
    const elsewhere = await anOwner();
    for (const input of [
      { organizationId: elsewhere.organizationId, policyId: policy.id },
      { organizationId, policyId: randomUUID() },
      { organizationId, policyId: 'nope' },
    ]) {
      expect(await policies().remove({ ...input, now: new Date(), audit: anAuditNote(userId) })).toBeNull();
    }
    expect(await policies().listForOrganization(organizationId)).toHaveLength(1);
    expect(await auditRows(organizationId, AuditKind.CiPolicyDeleted)).toHaveLength(0);
  });

  it('finds the candidates of a provider and owner id in every organization, oldest first', async () => {
    const a = await anOwner();
    const b = await anOwner();
    const ownerId = String(randomUUID());
    const now = Date.now();
    const inB = aNewCiPolicy(b.organizationId, b.userId, {
      ownerId,
      createdAt: new Date(now - 3000),
    });
    const inA = aNewCiPolicy(a.organizationId, a.userId, {
      ownerId,
      createdAt: new Date(now - 2000),
    });
    const gitlab = aNewCiPolicy(a.organizationId, a.userId, {
      ownerId,
      provider: 'gitlab',
      createdAt: new Date(now - 1000),
    });
    const otherOwner = aNewCiPolicy(a.organizationId, a.userId);
    for (const policy of [inA, gitlab, otherOwner, inB])
      await policies().create(policy, 10, anAuditNote(policy.createdBy));
    expect((await policies().findCandidates('github', ownerId)).map((p) => p.id)).toEqual([
      inB.id,
      inA.id,
    ]);
    expect((await policies().findCandidates('gitlab', ownerId)).map((p) => p.id)).toEqual([
      gitlab.id,
    ]);
    expect(await policies().findCandidates('github', 'no-such-owner')).toEqual([]);
  });

  it('attachGrant is a compare-and-set: of parallel first exchanges one grant holds, and everyone is told which', async () => {
    const { userId, organizationId } = await anOwner();
    const policy = aNewCiPolicy(organizationId, userId);
    await policies().create(policy, 5, anAuditNote(userId));
    const candidates = Array.from({ length: 6 }, () => randomUUID());
    const answers = await Promise.all(
      candidates.map((grantId) =>
        policies().attachGrant({ policyId: policy.id, grantId, expected: null }),
      ),
    );
    const winner = answers[0]!;
    expect(candidates).toContain(winner);
    expect(answers.every((answer) => answer === winner)).toBe(true);
    expect(
      await policies().attachGrant({ policyId: policy.id, grantId: randomUUID(), expected: null }),
    ).toBe(winner);
    const next = randomUUID();
    expect(
      await policies().attachGrant({ policyId: policy.id, grantId: next, expected: winner }),
    ).toBe(next);
    expect((await policies().listForOrganization(organizationId))[0]?.grantId).toBe(next);
    expect(
      await policies().attachGrant({ policyId: randomUUID(), grantId: next, expected: null }),
    ).toBeNull();
    expect(
      await policies().attachGrant({ policyId: 'nope', grantId: next, expected: null }),
    ).toBeNull();
  });

  describe('token ids', () => {
    const issuer = () => `https://issuer-${randomUUID()}.example`;
    const inOneHour = (now: Date) => new Date(now.getTime() + 3600_000);

    it('a jti is claimed once per issuer; a replay is refused', async () => {
      const now = new Date();
      const [github, gitlab] = [issuer(), issuer()];
      expect(
        await policies().claimTokenId({
          issuer: github,
          jti: 'abc',
          expiresAt: inOneHour(now),
          now,
        }),
      ).toBe(true);
      expect(
        await policies().claimTokenId({
          issuer: github,
          jti: 'abc',
          expiresAt: inOneHour(now),
          now,
        }),
      ).toBe(false);
      expect(
        await policies().claimTokenId({
          issuer: gitlab,
          jti: 'abc',
          expiresAt: inOneHour(now),
          now,
        }),
      ).toBe(true);
      expect(
        await policies().claimTokenId({
          issuer: github,
          jti: 'abd',
          expiresAt: inOneHour(now),
          now,
        }),
      ).toBe(true);
    });

    it('of parallel claims of one jti exactly one succeeds', async () => {
      const now = new Date();
      const iss = issuer();
      const claims = await Promise.all(
        Array.from({ length: 8 }, () =>
          policies().claimTokenId({ issuer: iss, jti: 'same', expiresAt: inOneHour(now), now }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('a record is kept until it expires, then purged by the next claim of its issuer', async () => {
      const now = new Date();
      const iss = issuer();
      const expiresAt = new Date(now.getTime() + 60_000);
      expect(await policies().claimTokenId({ issuer: iss, jti: 'old', expiresAt, now })).toBe(true);
      expect(
        await policies().claimTokenId({
          issuer: iss,
          jti: 'old',
          expiresAt,
          now: new Date(expiresAt.getTime() - 1),
        }),
      ).toBe(false);
      const later = new Date(expiresAt.getTime() + 1);
      expect(
        await policies().claimTokenId({
          issuer: iss,
          jti: 'new',
          expiresAt: inOneHour(later),
          now: later,
        }),
      ).toBe(true);
      expect(
        await db().prisma.ciTokenUse.findMany({ where: { issuer: iss }, select: { jti: true } }),
      ).toEqual([{ jti: 'new' }]);
    });
  });

  it('deleting the organization deletes its policies and their grants', async () => {
    const { userId, organizationId } = await anOwner();
    const policy = aNewCiPolicy(organizationId, userId);
    await policies().create(policy, 5, anAuditNote(userId));
    const grantId = await aGrantWithTokens(db(), userId);
    await policies().attachGrant({ policyId: policy.id, grantId, expected: null });
    await deleteOrganizationOf(db(), organizationId, userId);
    expect(await policies().findCandidates('github', policy.ownerId)).toEqual([]);
    expect(await grantRows(db(), grantId)).toBe(0);
  });
});
