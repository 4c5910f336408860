/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import { AuditKind } from '../../entities/audit-event.js';
import type { UploadSession } from '../../entities/upload-session.js';
import {
  aPendingUpload,
  anOwner,
  aVariant,
  note,
  type AuditedWritesSubject,
} from './audit-subject.js';

/**
 * The audit rows of uploads, tag edits and flows, for every implementation: each change
 * writes its row with it (same transaction), and a change that fails or changes nothing writes none.
 */
export function auditedContentContract(subject: () => AuditedWritesSubject): void {
  const confirm = (session: UploadSession, actorId: string, componentId = randomUUID()) =>
    subject().repos.uploadSessions.confirm({
      sessionId: session.id,
      now: new Date('2026-05-02T00:00:00.000Z'),
      componentId: session.componentId ?? componentId,
      newComponent: session.componentId
        ? null
        : {
            id: componentId,
            organizationId: session.organizationId,
            name: session.componentName,
            description: '',
          },
      variant: aVariant(actorId),
      audit: note(actorId),
    });

  it('a confirmed upload records UploadConfirmed once, even when confirmed again; a refused one records nothing', async () => {
    const { repos, auditEvents } = subject();
    const owner = await anOwner(repos);
    const session = await aPendingUpload(repos, owner);
    const first = await confirm(session, owner.userId);
    await confirm(session, owner.userId);
    const result = first.session.result!;
    const events = await auditEvents(owner.organizationId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      organizationId: owner.organizationId,
      actorId: owner.userId,
      kind: AuditKind.UploadConfirmed,
      componentId: result.componentId,
      createdAt: new Date('2026-05-02T00:00:00.000Z'),
      details: {
        componentName: session.componentName,
        variantId: result.variantId,
        sequence: 1,
        size: 2048,
        sha256: 'a'.repeat(64),
        created: true,
      },
    });

    const next = await aPendingUpload(repos, owner, {
      componentId: result.componentId,
      componentName: result.componentName,
    });
    await confirm(next, owner.userId);
    expect((await auditEvents(owner.organizationId)).at(-1)?.details).toMatchObject({
      sequence: 2,
      created: false,
    });

    const clash = await aPendingUpload(repos, owner, {
      componentName: session.componentName.toUpperCase(),
    });
    await expect(confirm(clash, owner.userId)).rejects.toMatchObject({ code: 'NAME_TAKEN' });
    expect(await auditEvents(owner.organizationId)).toHaveLength(2);
  });

  it('a tag edit records TagsChanged with before and after; an edit that changes nothing, or is refused, records nothing', async () => {
    const { repos, auditEvents } = subject();
    const owner = await anOwner(repos);
    const { session } = await confirm(await aPendingUpload(repos, owner), owner.userId);
    const componentId = session.result!.componentId;
    const edit = (add: string[], maxTags = 10) =>
      repos.components.editTags(
        componentId,
        { kind: 'change', add, remove: [] },
        { now: new Date(), maxTags, audit: note(owner.userId) },
      );
    await edit(['ui', 'form']);
    await edit(['ui']);
    await expect(edit(['a', 'b', 'c'], 3)).rejects.toMatchObject({ code: 'TOO_MANY_TAGS' });
    const tagEvents = (await auditEvents(owner.organizationId)).filter(
      (e) => e.kind === AuditKind.TagsChanged,
    );
    expect(tagEvents).toHaveLength(1);
    expect(tagEvents[0]).toMatchObject({
      componentId,
      actorId: owner.userId,
      details: { before: [], after: ['ui', 'form'] },
    });
  });

  it('flows record FlowCreated and FlowChanged (the list, the status) with before and after; a refused change records nothing', async () => {
    const { repos, auditEvents } = subject();
    const owner = await anOwner(repos);
    const { session } = await confirm(await aPendingUpload(repos, owner), owner.userId);
    const componentId = session.result!.componentId;
    const flowId = randomUUID();
    const now = new Date();
    await repos.flows.create({
      id: flowId,
      organizationId: owner.organizationId,
      name: 'Checkout',
      componentIds: [],
      now,
      audit: note(owner.userId),
    });
    await repos.flows.setComponents(flowId, [componentId], now, note(owner.userId));
    await repos.flows.setComponents(flowId, [componentId], now, note(owner.userId));
    await repos.flows.editComponents(flowId, () => [], now, note(owner.userId));
    await repos.flows.setStatus(flowId, 'published', now, note(owner.userId));
    await repos.flows.setStatus(flowId, 'published', now, note(owner.userId));
    const refused = repos.flows.editComponents(
      flowId,
      () => {
        throw new Error('refused');
      },
      now,
      note(owner.userId),
    );
    await expect(refused).rejects.toThrow('refused');
    const flowEvents = (await auditEvents(owner.organizationId)).filter((e) =>
      e.kind.startsWith('flow.'),
    );
    expect(flowEvents.map((e) => [e.kind, e.details])).toEqual([
      [AuditKind.FlowCreated, { flowId, name: 'Checkout' }],
      [
        AuditKind.FlowChanged,
        {
          flowId,
          name: 'Checkout',
          before: { componentIds: [] },
          after: { componentIds: [componentId] },
        },
      ],
      [
        AuditKind.FlowChanged,
        {
          flowId,
          name: 'Checkout',
          before: { componentIds: [componentId] },
          after: { componentIds: [] },
        },
      ],
      [
        AuditKind.FlowChanged,
        { flowId, name: 'Checkout', before: { status: 'draft' }, after: { status: 'published' } },
      ],
    ]);
  });
}
