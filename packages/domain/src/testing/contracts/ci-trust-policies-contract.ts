/// <reference types="jest" />
import { randomInt, randomUUID } from 'node:crypto';
import { AuditKind } from '../../entities/audit-event.js';
import type { NewCiTrustPolicy } from '../../ports/ci-trust-policies.js';
import { anOwner, note, type AuditedWritesSubject } from './audit-subject.js';
import { aGrantWithToken, aScope, grantLives, viaNote } from './credential-fixtures.js';

let counter = 0;
/** A numeric owner id no other run of the suite uses (a PostgreSQL database outlives a run). */
const anOwnerId = () => String(randomInt(1, 2 ** 47));
const aPolicy = (organizationId: string, createdBy: string, overrides: Partial<NewCiTrustPolicy> = {}): NewCiTrustPolicy => {
  counter += 1;
  return {
    id: randomUUID(),
    organizationId,
    name: `policy ${counter}`,
    provider: 'github',
    ownerId: '1000',
    repositoryId: '2000',
    repositoryName: 'acme/web',
    workflow: '.github/workflows/release.yml',
    environment: null,
    refPatterns: [],
    requireHostedRunner: false,
    scope: aScope(organizationId),
    createdBy,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)),
    ...overrides,
  };
};

/** The `CiTrustPolicies` port's contract, for every implementation (the subject of the audited writes). */
export function ciTrustPoliciesContract(subject: () => AuditedWritesSubject): void {
  it('creates with an audit row carrying via, lists oldest first, and finds candidates by provider and owner id across organizations', async () => {
    const { repos, auditEvents } = subject();
    const a = await anOwner(repos);
    const b = await anOwner(repos);
    const ownerId = anOwnerId();
    const first = aPolicy(a.organizationId, a.userId, {
      ownerId,
      environment: 'production',
      refPatterns: ['refs/tags/v*', 'refs/heads/main'],
      requireHostedRunner: true,
    });
    const audit = viaNote(a.userId);
    expect(await repos.ciTrustPolicies.create(first, 5, audit)).toEqual({ ...first, grantId: null });
    const second = aPolicy(a.organizationId, a.userId, { ownerId });
    const elsewhere = aPolicy(b.organizationId, b.userId, { ownerId });
    const gitlab = aPolicy(a.organizationId, a.userId, { ownerId, provider: 'gitlab', workflow: '.gitlab-ci.yml' });
    const otherOwner = aPolicy(a.organizationId, a.userId, { ownerId: anOwnerId() });
    for (const policy of [second, elsewhere, gitlab, otherOwner]) await repos.ciTrustPolicies.create(policy, 5, note(policy.createdBy));
    expect((await repos.ciTrustPolicies.listForOrganization(a.organizationId)).map((p) => p.id)).toEqual([first.id, second.id, gitlab.id, otherOwner.id]);
    expect((await repos.ciTrustPolicies.findCandidates('github', ownerId)).map((p) => p.id)).toEqual([first.id, second.id, elsewhere.id]);
    expect((await repos.ciTrustPolicies.findCandidates('gitlab', ownerId)).map((p) => p.id)).toEqual([gitlab.id]);
    expect(await repos.ciTrustPolicies.findCandidates('github', anOwnerId())).toEqual([]);
    const [row] = (await auditEvents(a.organizationId)).filter((e) => e.kind === AuditKind.CiPolicyCreated);
    expect(row).toMatchObject({ id: audit.eventId, actorId: a.userId, via: audit.via, componentId: null });
    expect(row!.details).toEqual({
      policyId: first.id,
      name: first.name,
      provider: 'github',
      ownerId,
      repositoryId: '2000',
      repositoryName: 'acme/web',
      workflow: '.github/workflows/release.yml',
      environment: 'production',
      refPatterns: ['refs/tags/v*', 'refs/heads/main'],
      requireHostedRunner: true,
      scope: { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
    });
  });

  it('refuses a name taken in the organization (not in another), and holds the limit under parallel creations', async () => {
    const { repos } = subject();
    const a = await anOwner(repos);
    const b = await anOwner(repos);
    await repos.ciTrustPolicies.create(aPolicy(a.organizationId, a.userId, { name: 'web-release' }), 5, note(a.userId));
    expect(await repos.ciTrustPolicies.create(aPolicy(a.organizationId, a.userId, { name: 'web-release' }), 5, note(a.userId))).toBe('name-taken');
    expect(await repos.ciTrustPolicies.create(aPolicy(b.organizationId, b.userId, { name: 'web-release' }), 5, note(b.userId))).not.toBe('name-taken');
    const same = await Promise.all(
      Array.from({ length: 4 }, () => repos.ciTrustPolicies.create(aPolicy(b.organizationId, b.userId, { name: 'twin' }), 20, note(b.userId))),
    );
    expect(same.filter((o) => o !== 'name-taken')).toHaveLength(1);
    const limit = 4;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => repos.ciTrustPolicies.create(aPolicy(a.organizationId, a.userId), limit, note(a.userId))),
    );
    expect(outcomes.filter((o) => o !== 'limit-reached')).toHaveLength(limit - 1);
    expect(await repos.ciTrustPolicies.listForOrganization(a.organizationId)).toHaveLength(limit);
  });

  it('removes within its organization with one audit row, deleting its grant with the tokens under it', async () => {
    const { repos, grants, auditEvents } = subject();
    const a = await anOwner(repos);
    const b = await anOwner(repos);
    const policy = aPolicy(a.organizationId, a.userId);
    await repos.ciTrustPolicies.create(policy, 5, note(a.userId));
    const grant = await aGrantWithToken(grants, a.userId);
    expect(await repos.ciTrustPolicies.attachGrant({ policyId: policy.id, grantId: grant.grantId, expected: null })).toBe(grant.grantId);
    const remove = (organizationId: string, policyId: string) => repos.ciTrustPolicies.remove({ organizationId, policyId, now: new Date(), audit: note(a.userId) });
    expect(await remove(b.organizationId, policy.id)).toBeNull();
    expect(await remove(a.organizationId, randomUUID())).toBeNull();
    expect(await grantLives(grants, grant)).toEqual([true, true]);
    expect((await remove(a.organizationId, policy.id))?.id).toBe(policy.id);
    expect(await remove(a.organizationId, policy.id)).toBeNull();
    expect(await grantLives(grants, grant)).toEqual([false, false]);
    expect((await repos.ciTrustPolicies.findCandidates('github', policy.ownerId)).map((p) => p.id)).not.toContain(policy.id);
    const rows = (await auditEvents(a.organizationId)).filter((e) => e.kind === AuditKind.CiPolicyDeleted);
    expect(rows.map((e) => e.details.policyId)).toEqual([policy.id]);
  });

  it('attachGrant is a compare-and-set under parallel calls; a removed policy answers null', async () => {
    const { repos } = subject();
    const a = await anOwner(repos);
    const policy = aPolicy(a.organizationId, a.userId);
    await repos.ciTrustPolicies.create(policy, 5, note(a.userId));
    const offered = Array.from({ length: 8 }, () => randomUUID());
    const held = await Promise.all(offered.map((grantId) => repos.ciTrustPolicies.attachGrant({ policyId: policy.id, grantId, expected: null })));
    expect(new Set(held).size).toBe(1);
    expect(offered).toContain(held[0]);
    const replacement = randomUUID();
    expect(await repos.ciTrustPolicies.attachGrant({ policyId: policy.id, grantId: randomUUID(), expected: null })).toBe(held[0]);
    expect(await repos.ciTrustPolicies.attachGrant({ policyId: policy.id, grantId: replacement, expected: held[0]! })).toBe(replacement);
    await repos.ciTrustPolicies.remove({ organizationId: a.organizationId, policyId: policy.id, now: new Date(), audit: note(a.userId) });
    expect(await repos.ciTrustPolicies.attachGrant({ policyId: policy.id, grantId: randomUUID(), expected: replacement })).toBeNull();
  });

  it('claims a CI token id once per issuer, also when parallel exchanges present it', async () => {
    const { repos } = subject();
    const jti = randomUUID();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 600_000);
    const claim = (issuer: string) => repos.ciTrustPolicies.claimTokenId({ issuer, jti, expiresAt, now });
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => claim('https://token.actions.githubusercontent.com')));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await claim('https://token.actions.githubusercontent.com')).toBe(false);
    expect(await claim('https://gitlab.com')).toBe(true);
  });
}
