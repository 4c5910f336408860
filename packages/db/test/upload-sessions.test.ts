import { randomUUID } from 'node:crypto';
import type { ConfirmUploadInput, UploadSession } from '@cp/domain';
import { uploadSweepContract } from '@cp/domain/testing';
import {
  aComponent,
  anAuditNote,
  anUploadSession,
  aUserWithOrganization,
  aVariantInput,
  type Owner,
} from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('upload sessions', (db) => {
  let owner: Owner;
  const repos = () => db().repos;
  const session = (options: Partial<Parameters<typeof anUploadSession>[1]> = {}) =>
    anUploadSession(repos(), {
      userId: owner.user.id,
      organizationId: owner.organization.id,
      ...options,
    });
  /** A confirm that creates the session's component (fresh ids every call). */
  const confirmNew = (s: UploadSession, now = new Date()): ConfirmUploadInput => {
    const componentId = randomUUID();
    return {
      sessionId: s.id,
      now,
      componentId,
      newComponent: {
        id: componentId,
        organizationId: s.organizationId,
        name: s.componentName,
        description: 'Made here',
      },
      variant: aVariantInput(owner.user.id),
      audit: anAuditNote(owner.user.id),
    };
  };
  const confirmExisting = (
    s: UploadSession,
    componentId: string,
    now = new Date(),
  ): ConfirmUploadInput => ({
    sessionId: s.id,
    now,
    componentId,
    newComponent: null,
    variant: aVariantInput(owner.user.id),
    audit: anAuditNote(owner.user.id),
  });

  beforeAll(async () => {
    owner = await aUserWithOrganization(repos());
  });

  it('stores a session and reads it back unchanged', async () => {
    const now = new Date('2026-03-04T05:06:07.089Z');
    const created = await session({ now, expiresAt: new Date(now.getTime() + 3_600_000) });
    expect(await repos().uploadSessions.findById(created.id)).toEqual(created);
    expect(await repos().uploadSessions.findById(randomUUID())).toBeNull();
    expect(await repos().uploadSessions.findById('nope')).toBeNull();
  });

  it('confirming a new component creates it with variant 1 and stores the result', async () => {
    const s = await session({ componentName: 'Checkout Button' });
    const input = confirmNew(s);
    const { recorded, session: stored } = await repos().uploadSessions.confirm(input);

    expect(recorded).toBe(true);
    const result = {
      componentId: input.componentId,
      componentName: 'Checkout Button',
      variantId: input.variant.id,
      variantSequence: 1,
      organizationId: owner.organization.id,
      isNewComponent: true,
    };
    expect(stored).toEqual({ ...s, state: 'confirmed', result });
    expect(await repos().uploadSessions.findById(s.id)).toEqual(stored);
    expect(await repos().components.findById(input.componentId)).toMatchObject({
      name: 'Checkout Button',
      description: 'Made here',
      variantsCount: 1,
      tags: [],
      createdAt: input.now,
      updatedAt: input.now,
    });
    const { createdBy, ...variant } = input.variant;
    expect(await repos().variants.findById(input.variant.id)).toEqual({
      ...variant,
      createdBy,
      componentId: input.componentId,
      sequence: 1,
      createdAt: input.now,
    });
  });

  it('confirming for an existing component adds the next variant and moves updatedAt', async () => {
    const component = await aComponent(repos(), {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const s = await session({ componentId: component.id, componentName: component.name });
    const now = new Date(component.updatedAt.getTime() + 5_000);
    const { recorded, session: stored } = await repos().uploadSessions.confirm(
      confirmExisting(s, component.id, now),
    );
    expect(recorded).toBe(true);
    expect(stored.result).toMatchObject({
      componentId: component.id,
      variantSequence: 2,
      isNewComponent: false,
    });
    expect(await repos().components.findById(component.id)).toMatchObject({
      variantsCount: 2,
      updatedAt: now,
    });
  });

  it('a second confirm records nothing and answers the stored result', async () => {
    const s = await session();
    const first = await repos().uploadSessions.confirm(confirmNew(s));
    const second = await repos().uploadSessions.confirm(confirmNew(s));
    expect(second).toEqual({ recorded: false, session: first.session });
    const mine = await repos().components.list({
      organizationId: owner.organization.id,
      nameContains: s.componentName,
      limit: 5,
    });
    expect(mine).toHaveLength(1);
  });

  it('two concurrent confirms of one session yield exactly one variant; both see the same result', async () => {
    const s = await session();
    const [a, b] = await Promise.all([
      repos().uploadSessions.confirm(confirmNew(s)),
      repos().uploadSessions.confirm(confirmNew(s)),
    ]);
    expect([a.recorded, b.recorded].sort()).toEqual([false, true]);
    expect(a.session.result).toEqual(b.session.result);
    const componentId = a.session.result!.componentId;
    expect(await repos().variants.listForComponent(componentId, { limit: 10 })).toHaveLength(1);
    expect(
      await repos().components.list({
        organizationId: owner.organization.id,
        nameContains: s.componentName,
        limit: 5,
      }),
    ).toHaveLength(1);
  });

  it('concurrent confirms of different sessions for one component get distinct consecutive sequences', async () => {
    const component = await aComponent(repos(), {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const sessions = await Promise.all(
      Array.from({ length: 12 }, () => session({ componentId: component.id })),
    );
    const results = await Promise.all(
      sessions.map((s) => repos().uploadSessions.confirm(confirmExisting(s, component.id))),
    );
    const sequences = results.map((r) => r.session.result!.variantSequence).sort((x, y) => x - y);
    expect(sequences).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
    expect((await repos().components.findById(component.id))!.variantsCount).toBe(13);
  });

  it('NAME_TAKEN when a new component’s name exists (any case), and nothing is written', async () => {
    const existing = await aComponent(repos(), {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const s = await session({ componentName: existing.name.toUpperCase() });
    const input = confirmNew(s);
    expect(await errorCode(repos().uploadSessions.confirm(input))).toBe('NAME_TAKEN');
    expect(await repos().uploadSessions.findById(s.id)).toEqual(s);
    expect(await repos().components.findById(input.componentId)).toBeNull();
    expect(await repos().variants.findById(input.variant.id)).toBeNull();
    expect((await repos().components.findById(existing.id))!.variantsCount).toBe(1);
  });

  it('a failure inside confirm (a variant id already used) writes nothing', async () => {
    const component = await aComponent(repos(), {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    const [taken] = await repos().variants.listForComponent(component.id, { limit: 1 });
    const s = await session();
    const input = { ...confirmNew(s), variant: aVariantInput(owner.user.id, { id: taken!.id }) };
    await expect(repos().uploadSessions.confirm(input)).rejects.toThrow();
    expect(await repos().uploadSessions.findById(s.id)).toEqual(s);
    expect(await repos().components.findById(input.componentId)).toBeNull();

    const existing = await session({ componentId: component.id });
    const again = {
      ...confirmExisting(existing, component.id),
      variant: aVariantInput(owner.user.id, { id: taken!.id }),
    };
    await expect(repos().uploadSessions.confirm(again)).rejects.toThrow();
    expect(await repos().components.findById(component.id)).toEqual(component);
    expect((await repos().uploadSessions.findById(existing.id))!.state).toBe('pending');
  });

  it('confirm of an unknown session is NOT_FOUND; of an expired one records nothing', async () => {
    expect(
      await errorCode(
        repos().uploadSessions.confirm({ ...confirmNew(await session()), sessionId: randomUUID() }),
      ),
    ).toBe('NOT_FOUND');
    const s = await session();
    expect(await repos().uploadSessions.markExpired(s.id)).toBe(true);
    const { recorded, session: stored } = await repos().uploadSessions.confirm(confirmNew(s));
    expect(recorded).toBe(false);
    expect(stored).toEqual({ ...s, state: 'expired' });
  });

  it('expires a pending session once; a confirmed one not', async () => {
    const pending = await session();
    const confirmed = await session();
    await repos().uploadSessions.confirm(confirmNew(confirmed));

    expect(await repos().uploadSessions.markExpired(pending.id)).toBe(true);
    expect(await repos().uploadSessions.markExpired(pending.id)).toBe(false);
    expect(await repos().uploadSessions.markExpired(confirmed.id)).toBe(false);
    expect(await repos().uploadSessions.markExpired('nope')).toBe(false);
    expect((await repos().uploadSessions.findById(pending.id))!.state).toBe('expired');
  });

  describe('the expiry sweep contract', () =>
    uploadSweepContract(() => ({
      sessions: repos().uploadSessions,
      aSession: (expiresAt) =>
        session({ expiresAt, now: new Date(expiresAt.getTime() - 3_600_000) }),
    })));
});
