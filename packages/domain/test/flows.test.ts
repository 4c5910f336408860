import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { createFlow } from '../src/use-cases/flows/create-flow.js';
import { getPublishedFlow } from '../src/use-cases/flows/get-published-flow.js';
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
