/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { AuditKind } from '../../entities/audit-event.js';
import { anOwner, note, type AuditedWritesSubject } from './audit-subject.js';

/**
 * The audit rows of environments, preview access and connected applications, for every
 * implementation: each change writes its row with it, and one that fails or changes nothing writes none.
 */
export function auditedSetupContract(subject: () => AuditedWritesSubject): void {
  const kinds = async (organizationId: string, prefix: string) =>
    (await subject().auditEvents(organizationId))
      .filter((event) => event.kind.startsWith(prefix))
      .map((event) => [event.kind, event.details]);

  it('environments record created, renamed, protection changed and removed; refused and idle changes record nothing', async () => {
    const { repos } = subject();
    const owner = await anOwner(repos);
    const change = () => ({ now: new Date(), audit: note(owner.userId) });
    const envs = repos.environments;
    const id = randomUUID();
    await envs.create({
      id,
      organizationId: owner.organizationId,
      name: 'canary',
      protected: false,
      ...change(),
    });
    await expect(
      envs.create({
        id: randomUUID(),
        organizationId: owner.organizationId,
        name: 'prod',
        protected: false,
        ...change(),
      }),
    ).rejects.toMatchObject({ code: 'NAME_TAKEN' });
    await envs.rename(id, 'eu-canary', change());
    await expect(envs.rename(id, 'staging', change())).rejects.toMatchObject({
      code: 'NAME_TAKEN',
    });
    await envs.setProtected(id, true, change());
    await envs.setProtected(id, true, change());
    expect(await envs.setProtected(randomUUID(), true, change())).toBeNull();
    expect(await envs.remove(id, change())).toBe('removed');
    expect(await envs.remove(id, change())).toBe('missing');
    expect(await kinds(owner.organizationId, 'environment.')).toEqual([
      [AuditKind.EnvironmentCreated, { name: 'canary', protected: false }],
      [AuditKind.EnvironmentRenamed, { before: 'canary', after: 'eu-canary' }],
      [
        AuditKind.EnvironmentProtectionChanged,
        { environment: 'eu-canary', before: false, after: true },
      ],
      [AuditKind.EnvironmentRemoved, { name: 'eu-canary' }],
    ]);
    expect(
      (await subject().auditEvents(owner.organizationId)).every((e) => e.actorId === owner.userId),
    ).toBe(true);
  });

  it('preview access records the setting, created keys (never the secret) and first revocations only', async () => {
    const { repos } = subject();
    const owner = await anOwner(repos);
    const now = new Date();
    await repos.organizations.setPrivatePreviews(owner.organizationId, true, {
      now,
      audit: note(owner.userId),
    });
    await repos.organizations.setPrivatePreviews(owner.organizationId, true, {
      now,
      audit: note(owner.userId),
    });
    const key = (name: string) => ({
      id: randomUUID(),
      organizationId: owner.organizationId,
      name,
      prefix: 'cpk_abcdef',
      secretHash: `secret-hash-${randomUUID()}`,
      createdBy: owner.userId,
      createdAt: now,
    });
    const first = key('CI');
    await repos.previewKeys.create(first, 1, note(owner.userId));
    expect(await repos.previewKeys.create(key('over the limit'), 1, note(owner.userId))).toBe(
      'limit-reached',
    );
    const revoke = () =>
      repos.previewKeys.revoke({
        organizationId: owner.organizationId,
        keyId: first.id,
        now,
        audit: note(owner.userId),
      });
    await revoke();
    await revoke();
    const rows = await subject().auditEvents(owner.organizationId);
    expect(rows.map((e) => [e.kind, e.details])).toEqual([
      [AuditKind.PrivatePreviewsChanged, { before: false, after: true }],
      [AuditKind.PreviewKeyCreated, { keyId: first.id, name: 'CI', prefix: 'cpk_abcdef' }],
      [AuditKind.PreviewKeyRevoked, { keyId: first.id, name: 'CI', prefix: 'cpk_abcdef' }],
    ]);
    expect(JSON.stringify(rows)).not.toContain(first.secretHash);
  });

  it('revoking an application records ApplicationRevoked in each of the user’s organizations, once', async () => {
    const { repos, grants, addMember } = subject();
    const owner = await anOwner(repos);
    const other = await anOwner(repos);
    await addMember(owner.userId, other.organizationId, 'viewer');
    const grantId = randomUUID();
    await grants
      .adapterFor('Grant')
      .upsert(grantId, { jti: grantId, accountId: owner.userId, clientId: 'cursor' }, 3600);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const audit = {
      actorId: owner.userId,
      newEventId: () => ids.shift()!,
      now: new Date(),
      clientId: 'cursor',
      clientName: 'Cursor',
    };
    await grants.revokeGrant(grantId, audit);
    await grants.revokeGrant(grantId, audit);
    for (const organizationId of [owner.organizationId, other.organizationId]) {
      expect(await kinds(organizationId, 'application.')).toEqual([
        [AuditKind.ApplicationRevoked, { clientId: 'cursor', clientName: 'Cursor' }],
      ]);
    }
    expect(ids).toHaveLength(1);
  });
}
