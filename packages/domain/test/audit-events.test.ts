import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditEvent } from '../src/entities/audit-event.js';
import type { Role } from '../src/entities/organization.js';
import { inMemoryDeps } from '../src/testing/index.js';
import { listAuditEvents } from '../src/use-cases/audit/list-audit-events.js';
import { aUser, anUploadedComponent } from './builders.js';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error as { code?: string }).code ?? 'not a coded error',
  );

async function setUp() {
  const { deps, repos, objects } = inMemoryDeps();
  const owner = await aUser(deps, 'owner@acme.test');
  const joined = async (role: Role, email: string) => {
    const { user, actor } = await aUser(deps, email);
    repos.state.memberships.push({ userId: user.id, organizationId: owner.organizationId, role });
    return { user, actor };
  };
  const uploaded = await anUploadedComponent(deps, objects, owner.actor, { name: 'Pricing' });
  const component = { id: uploaded.componentId };
  repos.state.auditEvents.length = 0; // the upload's own row: each test records the events it reads
  const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
    id: randomUUID(),
    organizationId: owner.organizationId,
    actorId: owner.user.id,
    via: null,
    kind: AuditKind.TagsChanged,
    componentId: null,
    subjectUserId: null,
    details: {},
    createdAt: new Date(),
    ...overrides,
  });
  return { deps, repos, owner, joined, component, event };
}

test('owners and admins read the trail with names; members and viewers are refused, naming who can', async () => {
  const { deps, repos, owner, joined, component, event } = await setUp();
  const admin = await joined('admin', 'admin@acme.test');
  const member = await joined('member', 'member@acme.test');
  repos.state.recordAudit(
    event({ componentId: component.id, details: { before: [], after: ['ui'] } }),
    event({
      actorId: admin.user.id,
      kind: AuditKind.MemberRoleChanged,
      subjectUserId: member.user.id,
    }),
  );
  const view = await listAuditEvents(
    { actor: admin.actor, organizationId: owner.organizationId },
    deps,
  );
  expect(
    view.items.map((i) => [i.event.kind, i.actorEmail, i.subjectEmail, i.componentName]),
  ).toEqual([
    [AuditKind.MemberRoleChanged, 'admin@acme.test', 'member@acme.test', null],
    [AuditKind.TagsChanged, 'owner@acme.test', null, 'Pricing'],
  ]);
  expect([view.isLatest, view.newer, view.older]).toEqual([true, null, null]);
  expect(view.choices.components).toEqual([{ id: component.id, name: 'Pricing' }]);
  expect(view.choices.people.map((p) => p.email).sort()).toEqual([
    'admin@acme.test',
    'member@acme.test',
    'owner@acme.test',
  ]);
  for (const role of ['member', 'viewer'] as const) {
    const { actor } = await joined(role, `${role}-2@acme.test`);
    await expect(
      listAuditEvents({ actor, organizationId: owner.organizationId }, deps),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: `Your role in this organization is ${role}: only owners and admins can read the audit trail. Ask an owner or admin for a role that can.`,
    });
  }
});

test('bad filters are INVALID_INPUT, bad cursors and other organizations NOT_FOUND', async () => {
  const { deps, owner } = await setUp();
  const stranger = await aUser(deps);
  const list = (input: Partial<Parameters<typeof listAuditEvents>[0]>) =>
    codeOf(
      listAuditEvents({ actor: owner.actor, organizationId: owner.organizationId, ...input }, deps),
    );
  expect(await list({ kinds: ['release.deleted'] })).toBe('INVALID_INPUT');
  expect(await list({ componentId: 'nope' })).toBe('INVALID_INPUT');
  expect(await list({ actorId: '<script>' })).toBe('INVALID_INPUT');
  expect(await list({ limit: 0 })).toBe('INVALID_INPUT');
  expect(await list({ limit: 201 })).toBe('INVALID_INPUT');
  expect(await list({ before: randomUUID(), after: randomUUID() })).toBe('INVALID_INPUT');
  expect(await list({ before: 'nope' })).toBe('NOT_FOUND');
  expect(await list({ after: randomUUID() })).toBe('NOT_FOUND');
  expect(await list({ organizationId: stranger.organizationId })).toBe('NOT_FOUND');
  expect(await list({ organizationId: 'nope' })).toBe('NOT_FOUND');
});

test("a filter on another organization's component or person finds nothing and names nothing", async () => {
  const { deps, owner, event, repos } = await setUp();
  const stranger = await aUser(deps, 'stranger@elsewhere.test');
  repos.state.recordAudit(event({}));
  const view = await listAuditEvents(
    { actor: owner.actor, organizationId: owner.organizationId, actorId: stranger.user.id },
    deps,
  );
  expect(view.items).toEqual([]);
  expect(JSON.stringify(view)).not.toContain('stranger@elsewhere.test');
});

test('pages both ways: Older then Newer back to the latest page', async () => {
  const { deps, owner, event, repos } = await setUp();
  const events = Array.from({ length: 5 }, () => event({}));
  repos.state.recordAudit(...events);
  const ids = events.map((e) => e.id).reverse();
  const input = { actor: owner.actor, organizationId: owner.organizationId, limit: 2 };
  const first = await listAuditEvents(input, deps);
  expect([first.items.map((i) => i.event.id), first.older]).toEqual([ids.slice(0, 2), ids[1]]);
  const second = await listAuditEvents({ ...input, before: first.older! }, deps);
  expect([second.items.map((i) => i.event.id), second.newer, second.older]).toEqual([
    ids.slice(2, 4),
    ids[2],
    ids[3],
  ]);
  const third = await listAuditEvents({ ...input, before: second.older! }, deps);
  expect([third.items.map((i) => i.event.id), third.older]).toEqual([ids.slice(4), null]);
  const back = await listAuditEvents({ ...input, after: third.newer as string }, deps);
  expect([back.items.map((i) => i.event.id), back.isLatest, back.newer]).toEqual([
    ids.slice(2, 4),
    false,
    ids[2],
  ]);
  const latest = await listAuditEvents({ ...input, after: back.newer as string }, deps);
  expect([latest.items.map((i) => i.event.id), latest.isLatest]).toEqual([ids.slice(0, 2), true]);
});
