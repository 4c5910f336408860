/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { NewPreviewKey, PreviewKeys } from '../../ports/preview-keys.js';

export interface PreviewKeysSubject {
  readonly previewKeys: PreviewKeys;
  /** The id of a new organization, and of a user who may create keys in it. */
  readonly anOrganization: () => Promise<{ organizationId: string; userId: string }>;
}

let counter = 0;
const audit = () => ({ eventId: randomUUID(), actorId: randomUUID() });
const aKey = (
  organizationId: string,
  createdBy: string,
  overrides: Partial<NewPreviewKey> = {},
): NewPreviewKey => {
  counter += 1;
  return {
    id: randomUUID(),
    organizationId,
    name: `key ${counter}`,
    prefix: 'cpk_abcdef',
    secretHash: `hash-${randomUUID()}`,
    createdBy,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)),
    ...overrides,
  };
};

/** The `PreviewKeys` port's contract, for every implementation. */
export function previewKeysContract(subject: () => PreviewKeysSubject): void {
  it('creates, lists newest first, and checks keys by hash within their organization only', async () => {
    const { previewKeys, anOrganization } = subject();
    const a = await anOrganization();
    const b = await anOrganization();
    const first = aKey(a.organizationId, a.userId, { name: 'first' });
    const second = aKey(a.organizationId, a.userId, { name: 'second' });
    const created = await previewKeys.create(first, 5, audit());
    expect(created).toEqual({
      id: first.id,
      organizationId: a.organizationId,
      name: 'first',
      prefix: 'cpk_abcdef',
      createdBy: a.userId,
      createdAt: first.createdAt,
      revokedAt: null,
    });
    await previewKeys.create(second, 5, audit());
    expect((await previewKeys.listForOrganization(a.organizationId)).map((k) => k.name)).toEqual([
      'second',
      'first',
    ]);
    expect(await previewKeys.listForOrganization(b.organizationId)).toEqual([]);
    expect(await previewKeys.isActive(a.organizationId, first.secretHash)).toBe(true);
    expect(await previewKeys.isActive(b.organizationId, first.secretHash)).toBe(false);
    expect(await previewKeys.isActive(a.organizationId, 'hash-of-nothing')).toBe(false);
  });

  it('revokes once, within the organization; a revoked key is listed but no longer active', async () => {
    const { previewKeys, anOrganization } = subject();
    const a = await anOrganization();
    const b = await anOrganization();
    const key = aKey(a.organizationId, a.userId);
    await previewKeys.create(key, 5, audit());
    expect(
      await previewKeys.revoke({
        organizationId: b.organizationId,
        keyId: key.id,
        now: new Date(),
        audit: audit(),
      }),
    ).toBeNull();
    expect(
      await previewKeys.revoke({
        organizationId: a.organizationId,
        keyId: randomUUID(),
        now: new Date(),
        audit: audit(),
      }),
    ).toBeNull();
    const at = new Date('2026-02-01T00:00:00.000Z');
    expect(
      (await previewKeys.revoke({ organizationId: a.organizationId, keyId: key.id, now: at, audit: audit() }))
        ?.revokedAt,
    ).toEqual(at);
    expect(
      (
        await previewKeys.revoke({
          organizationId: a.organizationId,
          keyId: key.id,
          now: new Date('2026-03-01T00:00:00.000Z'),
          audit: audit(),
        })
      )?.revokedAt,
    ).toEqual(at);
    expect(await previewKeys.isActive(a.organizationId, key.secretHash)).toBe(false);
    expect((await previewKeys.listForOrganization(a.organizationId))[0]?.revokedAt).toEqual(at);
  });

  it('holds the limit of unrevoked keys under parallel creations; revoking frees a place', async () => {
    const { previewKeys, anOrganization } = subject();
    const a = await anOrganization();
    const limit = 3;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => previewKeys.create(aKey(a.organizationId, a.userId), limit, audit())),
    );
    expect(outcomes.filter((o) => o !== 'limit-reached')).toHaveLength(limit);
    expect(await previewKeys.listForOrganization(a.organizationId)).toHaveLength(limit);
    const [oldest] = (await previewKeys.listForOrganization(a.organizationId)).slice(-1);
    await previewKeys.revoke({
      organizationId: a.organizationId,
      keyId: oldest!.id,
      now: new Date(),
      audit: audit(),
    });
    expect(await previewKeys.create(aKey(a.organizationId, a.userId), limit, audit())).not.toBe(
      'limit-reached',
    );
    expect(await previewKeys.create(aKey(a.organizationId, a.userId), limit, audit())).toBe('limit-reached');
  });
}
