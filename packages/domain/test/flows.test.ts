import { ErrorCode } from '../src/errors/domain-error.js';
import { Limits } from '../src/rules/limits.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { createFlow } from '../src/use-cases/flows/create-flow.js';
import { getPublishedFlow } from '../src/use-cases/flows/get-published-flow.js';
import { applyFlowEdit, editFlowComponents } from '../src/use-cases/flows/edit-flow-components.js';
import { setFlowComponents } from '../src/use-cases/flows/set-flow-components.js';
import { setFlowStatus } from '../src/use-cases/flows/set-flow-status.js';
import { aUser, anUploadedComponent } from './builders.js';

describe('flows', () => {
  it('are drafts until published, ordered, and only then public', async () => {
    const { deps, objects } = inMemoryDeps();
    const alice = await aUser(deps, 'alice@example.com');
    const a = await anUploadedComponent(deps, objects, alice.actor, { name: 'A' });
    const b = await anUploadedComponent(deps, objects, alice.actor, { name: 'B' });
    const flow = await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'Checkout', componentIds: [a.componentId] }, deps);
    expect(flow.status).toBe('draft');
    await expect(getPublishedFlow({ flowId: flow.id }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await setFlowComponents({ actor: alice.actor, flowId: flow.id, componentIds: [b.componentId, a.componentId] }, deps);
    await setFlowStatus({ actor: alice.actor, flowId: flow.id, status: 'published' }, deps);
    const published = await getPublishedFlow({ flowId: flow.id }, deps);
    expect(published.components.map((c) => c.name)).toEqual(['B', 'A']);
  });
  it('refuse components of other organizations, duplicates, and outsiders', async () => {
    const { deps, objects } = inMemoryDeps();
    const alice = await aUser(deps, 'alice@example.com');
    const bob = await aUser(deps, 'bob@example.com');
    const a = await anUploadedComponent(deps, objects, alice.actor, { name: 'A' });
    const foreign = await anUploadedComponent(deps, objects, bob.actor, { name: 'B' });
    await expect(createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'F', componentIds: [foreign.componentId] }, deps)).rejects.toThrow(
      `componentIds: component "${foreign.componentId}" was not found in this organization.`,
    );
    await expect(createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'F', componentIds: [a.componentId, a.componentId] }, deps)).rejects.toThrow(
      'componentIds: a component may appear only once in a flow.',
    );
    const flow = await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'F' }, deps);
    await expect(setFlowStatus({ actor: bob.actor, flowId: flow.id, status: 'published' }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});

describe('flow names', () => {
  it('are refused in words about flows', async () => {
    const { deps } = inMemoryDeps();
    const alice = await aUser(deps, 'alice@example.com');
    await expect(createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: ' ' }, deps)).rejects.toThrow(
      'name: the flow name must not be empty.',
    );
    await expect(createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'x'.repeat(101) }, deps)).rejects.toThrow(
      'name: the flow name must be at most 100 characters.',
    );
  });
});

describe('editing a flow one change at a time', () => {
  const [a, b, c] = ['a', 'b', 'c'];

  it('adds at the end, removes, and moves one place up or down', () => {
    expect(applyFlowEdit([a, b], 'add', c)).toEqual([a, b, c]);
    expect(applyFlowEdit([a, b, c], 'remove', b)).toEqual([a, c]);
    expect(applyFlowEdit([a, b, c], 'up', c)).toEqual([a, c, b]);
    expect(applyFlowEdit([a, b, c], 'down', a)).toEqual([b, a, c]);
    expect(applyFlowEdit([a], 'remove', a)).toEqual([]);
  });

  it.each([
    ['the first up', [a, b, c], 'up', a, 'component: component "a" is already the first in this flow.'],
    ['the last down', [a, b, c], 'down', c, 'component: component "c" is already the last in this flow.'],
    ['a component that is not there', [a, b], 'remove', c, 'component: component "c" is not in this flow (any more): reload the flow.'],
    ['a component that is not there up', [a, b], 'up', c, 'component: component "c" is not in this flow (any more): reload the flow.'],
    ['a component twice', [a, b], 'add', a, 'component: component "a" is already in this flow.'],
    ['an unknown change', [a, b], 'swap', a, 'op: "swap" is not a change to a flow: use add, remove, up, down.'],
    ['adding to a full flow', Array.from({ length: Limits.flowComponentsMax }, (_, i) => `c${i}`), 'add', a, `componentIds: a flow holds at most ${Limits.flowComponentsMax} components.`],
  ])('refuses %s, with a message that says so', (_case, ids, edit, id, message) => {
    expect(() => applyFlowEdit(ids, edit, id)).toThrow(message);
    expect(() => applyFlowEdit(ids, edit, id)).toThrow(expect.objectContaining({ code: ErrorCode.InvalidInput }) as Error);
  });

  it('saves the edited list; outsiders get "not found"', async () => {
    const { deps, objects } = inMemoryDeps();
    const alice = await aUser(deps);
    const bob = await aUser(deps);
    const x = await anUploadedComponent(deps, objects, alice.actor, { name: 'X' });
    const y = await anUploadedComponent(deps, objects, alice.actor, { name: 'Y' });
    const flow = await createFlow({ actor: alice.actor, organizationId: alice.organizationId, name: 'F', componentIds: [x.componentId, y.componentId] }, deps);
    const moved = await editFlowComponents({ actor: alice.actor, flowId: flow.id, edit: 'up', componentId: y.componentId }, deps);
    expect(moved.componentIds).toEqual([y.componentId, x.componentId]);
    expect((await deps.repos.flows.findById(flow.id))!.componentIds).toEqual([y.componentId, x.componentId]);
    await expect(editFlowComponents({ actor: bob.actor, flowId: flow.id, edit: 'remove', componentId: x.componentId }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    const bobs = await anUploadedComponent(deps, objects, bob.actor, { name: 'Z' });
    await expect(editFlowComponents({ actor: alice.actor, flowId: flow.id, edit: 'add', componentId: bobs.componentId }, deps)).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
    expect((await deps.repos.flows.findById(flow.id))!.componentIds).toEqual([y.componentId, x.componentId]);
  });
});
