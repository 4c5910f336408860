import { aPublishedFlow, aUser, publish, upload } from '../support/seed.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, frameTexts, openProbed, waitForEvents } from './support/sdk-probes.js';

/* The deprecated `flowId`: the component is read from `/flow?id=…&resolve=components` of the real delivery API. */

let harness: HostHarness;
let actor: { userId: string };
let organizationId: string;

beforeAll(async () => {
  harness = await startHostHarness();
  ({ actor, organizationId } = await aUser(harness.stack.domain));
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

async function aReleased(label: string) {
  const confirmed = await upload(harness.stack.domain, actor, { html: componentHtml(label) });
  await publish(harness.stack.domain, actor, confirmed.componentId, 'prod', confirmed.variantId);
  return confirmed;
}

it('renders the component of the flow released to prod, and follows new releases with live', async () => {
  const other = await aReleased('Other step');
  const card = await aReleased('Flow card v1');
  const flow = await aPublishedFlow(harness.stack.domain, actor, organizationId, [other.componentId, card.componentId]);
  const { page } = await openProbed(
    harness,
    harness.hostPage(`<cp-component id="f" component-id="${card.componentId.toUpperCase()}" flow-id="${flow.id}" live></cp-component>`),
  );
  const [load] = await waitForEvents(page, 'cp-load');
  expect(load!.detail.variantId).toBe(card.variantId);
  expect(await frameTexts(page)).toEqual(['Flow card v1']);

  const next = await upload(harness.stack.domain, actor, { componentId: card.componentId, html: componentHtml('Flow card v2') });
  await publish(harness.stack.domain, actor, card.componentId, 'prod', next.variantId);
  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads[1]!.detail.variantId).toBe(next.variantId);
  expect(await frameTexts(page)).toEqual(['Flow card v2']);
});

it('answers 404 Component for a component not in the flow and 404 Release for one with nothing in prod', async () => {
  const inFlow = await aReleased('In flow');
  const unreleased = await upload(harness.stack.domain, actor, { html: componentHtml('Not released') });
  const flow = await aPublishedFlow(harness.stack.domain, actor, organizationId, [inFlow.componentId, unreleased.componentId]);
  const stranger = crypto.randomUUID();
  const { page } = await openProbed(
    harness,
    harness.hostPage(
      `<cp-component id="missing" component-id="${stranger}" flow-id="${flow.id}"></cp-component><cp-component id="empty" component-id="${unreleased.componentId}" flow-id="${flow.id}"></cp-component>`,
    ),
  );
  const [missing] = await waitForEvents(page, 'cp-error', 1, 'missing');
  expect(missing!.detail).toMatchObject({ retrying: false, problem: { status: 404, code: 'NOT_FOUND', resource: 'Component' } });
  expect(missing!.detail.problem!.detail).toBe(`Component ${stranger} is not in flow ${flow.id}.`);
  const [empty] = await waitForEvents(page, 'cp-error', 1, 'empty');
  expect(empty!.detail).toMatchObject({ retrying: false, problem: { status: 404, code: 'NOT_FOUND', resource: 'Release' } });
});

it("passes on the API's problem for an unknown flow, and refuses env with flowId", async () => {
  const { page } = await openProbed(
    harness,
    harness.hostPage(
      `<cp-component id="unknown" component-id="${crypto.randomUUID()}" flow-id="${crypto.randomUUID()}"></cp-component><cp-component id="both" component-id="${crypto.randomUUID()}" flow-id="${crypto.randomUUID()}" env="prod"></cp-component>`,
    ),
  );
  const [unknown] = await waitForEvents(page, 'cp-error', 1, 'unknown');
  expect(unknown!.detail).toMatchObject({ retrying: false, problem: { status: 404, code: 'NOT_FOUND' } });
  const [both] = await waitForEvents(page, 'cp-error', 1, 'both');
  expect(both!.detail).toMatchObject({ retrying: false, problem: { status: 0, code: 'INVALID_OPTIONS' } });
});
