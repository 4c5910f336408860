/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { AuditKind } from '../../entities/audit-event.js';
import type { NewApiToken } from '../../ports/api-tokens.js';
import { anOwner, note, type AuditedWritesSubject } from './audit-subject.js';
import { aGrantWithToken, aScope, grantLives, viaNote } from './credential-fixtures.js';

const DAY = 86_400_000;
let counter = 0;
const aToken = (organizationId: string, createdBy: string, overrides: Partial<NewApiToken> = {}): NewApiToken => {
  counter += 1;
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, counter));
  return {
    id: randomUUID(),
    organizationId,
    name: `token ${counter}`,
    prefix: 'cpt_abcdefgh',
    secretHash: `hash-${randomUUID()}`,
    scope: aScope(organizationId),
    createdBy,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 30 * DAY),
    ...overrides,
  };
};

/** The `ApiTokens` port's contract, for every implementation (the subject of the audited writes: repositories, grants in the same store). */
export function apiTokensContract(subject: () => AuditedWritesSubject): void {
  it('creates with an audit row carrying via, lists newest first per organization, and finds a token by its hash only', async () => {
    const { repos, auditEvents } = subject();
    const a = await anOwner(repos);
    const b = await anOwner(repos);
    const first = aToken(a.organizationId, a.userId, {
      name: 'first',
      scope: aScope(a.organizationId, { componentIds: [randomUUID()], environments: ['staging', 'prod'], protectedEnvironments: true }),
    });
    const second = aToken(a.organizationId, a.userId, { name: 'second' });
    const audit = viaNote(a.userId);
    const created = await repos.apiTokens.create(first, 5, audit);
    expect(created).toEqual({
      id: first.id,
      organizationId: a.organizationId,
      name: 'first',
      prefix: 'cpt_abcdefgh',
      scope: first.scope,
      createdBy: a.userId,
      createdAt: first.createdAt,
      expiresAt: first.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      grantId: null,
    });
    await repos.apiTokens.create(second, 5, note(a.userId));
    expect((await repos.apiTokens.listForOrganization(a.organizationId)).map((t) => t.name)).toEqual(['second', 'first']);
    expect(await repos.apiTokens.listForOrganization(b.organizationId)).toEqual([]);
    expect(await repos.apiTokens.findBySecretHash(first.secretHash)).toEqual(created);
    expect(await repos.apiTokens.findBySecretHash('hash-of-nothing')).toBeNull();
    const rows = (await auditEvents(a.organizationId)).filter((e) => e.kind === AuditKind.ApiTokenCreated);
    expect(rows.map((e) => [e.id, e.actorId, e.via, e.componentId])).toEqual([
      [audit.eventId, a.userId, audit.via, null],
      [expect.any(String), a.userId, null, null],
    ]);
    expect(rows[0]!.details).toEqual({
      tokenId: first.id,
      name: 'first',
      prefix: 'cpt_abcdefgh',
      scope: { componentIds: first.scope.componentIds, environments: ['staging', 'prod'], access: 'write', protectedEnvironments: true },
      expiresAt: first.expiresAt.toISOString(),
    });
    expect(JSON.stringify(rows)).not.toContain(first.secretHash);
  });

  it('holds the limit of active tokens per creator and organization under parallel creations; revoked and expired ones free a place', async () => {
    const { repos, addMember } = subject();
    const a = await anOwner(repos);
    const other = await anOwner(repos);
    await addMember(other.userId, a.organizationId, 'member');
    const limit = 3;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => repos.apiTokens.create(aToken(a.organizationId, a.userId), limit, note(a.userId))),
    );
    expect(outcomes.filter((o) => o !== 'limit-reached')).toHaveLength(limit);
    expect(await repos.apiTokens.listForOrganization(a.organizationId)).toHaveLength(limit);
    // Another member of the organization, and the same person in another organization, have their own count.
    expect(await repos.apiTokens.create(aToken(a.organizationId, other.userId), limit, note(other.userId))).not.toBe('limit-reached');
    expect(await repos.apiTokens.create(aToken(other.organizationId, other.userId), limit, note(other.userId))).not.toBe('limit-reached');
    const [oldest] = (await repos.apiTokens.listForOrganization(a.organizationId)).filter((t) => t.createdBy === a.userId).slice(-1);
    await repos.apiTokens.revoke({ organizationId: a.organizationId, tokenId: oldest!.id, now: new Date(), audit: note(a.userId) });
    const shortLived = aToken(a.organizationId, a.userId);
    expect(await repos.apiTokens.create({ ...shortLived, expiresAt: new Date(shortLived.createdAt.getTime() + 1000) }, limit, note(a.userId))).not.toBe('limit-reached');
    // Created after the short-lived one expired: it no longer counts.
    const later = aToken(a.organizationId, a.userId, { createdAt: new Date(shortLived.createdAt.getTime() + 2000) });
    expect(await repos.apiTokens.create(later, limit, note(a.userId))).not.toBe('limit-reached');
    expect(await repos.apiTokens.create(aToken(a.organizationId, a.userId, { createdAt: later.createdAt }), limit, note(a.userId))).toBe('limit-reached');
  });

  it('revokes once within its organization, with one audit row, and deletes its grant with the tokens under it', async () => {
    const { repos, grants, auditEvents } = subject();
    const a = await anOwner(repos);
    const b = await anOwner(repos);
    const token = aToken(a.organizationId, a.userId);
    await repos.apiTokens.create(token, 5, note(a.userId));
    const grant = await aGrantWithToken(grants, a.userId);
    expect(await repos.apiTokens.attachGrant({ tokenId: token.id, grantId: grant.grantId, expected: null })).toBe(grant.grantId);
    const revoke = (organizationId: string, tokenId: string, now: Date) =>
      repos.apiTokens.revoke({ organizationId, tokenId, now, audit: note(a.userId) });
    expect(await revoke(b.organizationId, token.id, new Date())).toBeNull();
    expect(await revoke(a.organizationId, randomUUID(), new Date())).toBeNull();
    expect(await grantLives(grants, grant)).toEqual([true, true]);
    const at = new Date('2026-02-01T00:00:00.000Z');
    const [first, again] = await Promise.all([revoke(a.organizationId, token.id, at), revoke(a.organizationId, token.id, at)]);
    expect(first?.revokedAt).toEqual(at);
    expect(again?.revokedAt).toEqual(at);
    expect((await revoke(a.organizationId, token.id, new Date('2026-03-01T00:00:00.000Z')))?.revokedAt).toEqual(at);
    expect(await grantLives(grants, grant)).toEqual([false, false]);
    expect((await repos.apiTokens.findBySecretHash(token.secretHash))?.revokedAt).toEqual(at);
    expect((await auditEvents(a.organizationId)).filter((e) => e.kind === AuditKind.ApiTokenRevoked)).toHaveLength(1);
  });

  it('touch never moves last_used_at back', async () => {
    const { repos } = subject();
    const a = await anOwner(repos);
    const token = aToken(a.organizationId, a.userId);
    await repos.apiTokens.create(token, 5, note(a.userId));
    const later = new Date('2026-04-02T00:00:00.000Z');
    await repos.apiTokens.touch(token.id, later);
    await repos.apiTokens.touch(token.id, new Date('2026-04-01T00:00:00.000Z'));
    expect((await repos.apiTokens.findBySecretHash(token.secretHash))?.lastUsedAt).toEqual(later);
  });

  it('attachGrant is a compare-and-set: of parallel exchanges one grant holds, an expired one can be replaced, a gone token answers null', async () => {
    const { repos } = subject();
    const a = await anOwner(repos);
    const token = aToken(a.organizationId, a.userId);
    await repos.apiTokens.create(token, 5, note(a.userId));
    const offered = Array.from({ length: 8 }, () => randomUUID());
    const held = await Promise.all(offered.map((grantId) => repos.apiTokens.attachGrant({ tokenId: token.id, grantId, expected: null })));
    expect(new Set(held).size).toBe(1);
    expect(offered).toContain(held[0]);
    const replacement = randomUUID();
    expect(await repos.apiTokens.attachGrant({ tokenId: token.id, grantId: randomUUID(), expected: randomUUID() })).toBe(held[0]);
    expect(await repos.apiTokens.attachGrant({ tokenId: token.id, grantId: replacement, expected: held[0]! })).toBe(replacement);
    expect((await repos.apiTokens.findBySecretHash(token.secretHash))?.grantId).toBe(replacement);
    expect(await repos.apiTokens.attachGrant({ tokenId: randomUUID(), grantId: randomUUID(), expected: null })).toBeNull();
  });
}
