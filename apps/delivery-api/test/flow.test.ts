import { createFlow, editComponentTags, setFlowComponents } from '@cp/domain';
import { get, send } from './support/http-client.js';
import { aPublishedFlow, aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

let stack: TestStack;
let delivery: Instance;
let actor: { userId: string };
let organizationId: string;
let releasedId: string;
let unreleasedId: string;
let flowId: string;

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { flowSunset: new Date('2027-06-30T00:00:00Z') } });
  ({ actor, organizationId } = await aUser(stack.domain));
  releasedId = (await upload(stack.domain, actor, { name: 'Header' })).componentId;
  await publish(stack.domain, actor, releasedId, 'prod');
  unreleasedId = (await upload(stack.domain, actor, { name: 'Footer' })).componentId;
  await publish(stack.domain, actor, unreleasedId, 'staging');
  flowId = (await aPublishedFlow(stack.domain, actor, organizationId, [releasedId, unreleasedId])).id;
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const flow = (query: string) => get(delivery.url, `/flow?${query}`);

function expectDeprecationHeaders(res: { header(name: string): string | undefined }) {
  expect(res.header('deprecation')).toBe(`@${Date.parse('2026-11-22T00:00:00Z') / 1000}`);
  expect(res.header('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  expect(res.header('link')).toBe('<http://delivery.test/consume>; rel="successor-version"');
}

describe('GET /flow', () => {
  it('a published flow: IUserFlow with its components in order, each with its type', async () => {
    const res = await flow(`id=${flowId}`);
    expect(res.status).toBe(200);
    const { item } = res.json();
    expect(item).toMatchObject({ id: flowId, organizationId, name: expect.any(String) });
    const components = item.components as { id: string }[];
    expect(components.map((c) => c.id)).toEqual([releasedId, unreleasedId]);
    expect(item.components[0]).toEqual({
      id: releasedId,
      type: { id: releasedId, name: 'Header', organizationId, description: '', tags: [] },
    });
  });

  it('resolve=components: each component carries what /consume?env=prod gives, or nothing when unreleased', async () => {
    const res = await flow(`id=${flowId}&resolve=components`);
    const [header, footer] = res.json().item.components;
    const consumed = (await get(delivery.url, `/consume?id=${releasedId}&env=prod`)).json().item;
    expect(header.consume_variant).toEqual(consumed.consume_variant);
    expect(header.consume_variant[0].loader.HTML).toBe(SMALL_PAGE);
    expect(footer.consume_variant).toEqual([]);
  });

  it('a draft flow is as unknown as a made-up id', async () => {
    const draft = await createFlow({ actor, organizationId, name: 'Draft', componentIds: [releasedId] }, stack.domain);
    const res = await flow(`id=${draft.id}`);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ resource: 'Flow', code: 'NOT_FOUND' });
    expectDeprecationHeaders(res);
  });

  it.each([
    ['no id', '', 400],
    ['an empty id', 'id=', 400],
    ['a 300-character id', `id=${'a'.repeat(300)}`, 404],
    ['a repeated id', 'id=x&id=y', 400],
    ['an unknown resolve value', 'id=x&resolve=everything', 400],
    ['an unknown parameter', 'id=x&env=prod', 400],
  ])('%s: %i, still with the deprecation headers', async (_name, query, status) => {
    const res = await flow(query);
    expect(res.status).toBe(status);
    expect(res.header('content-type')).toMatch(/^application\/problem\+json/);
    expectDeprecationHeaders(res);
  });

  it('every response carries Deprecation, Sunset and the successor Link, also 304, 405 and OPTIONS', async () => {
    const ok = await flow(`id=${flowId}`);
    expectDeprecationHeaders(ok);
    expect(ok.header('cache-control')).toMatch(/^public/);
    expectDeprecationHeaders(await get(delivery.url, `/flow?id=${flowId}`, { 'If-None-Match': ok.header('etag')! }));
    const post = await send(delivery.url, `/flow?id=${flowId}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expectDeprecationHeaders(post);
    expectDeprecationHeaders(await send(delivery.url, `/flow?id=${flowId}`, { method: 'OPTIONS' }));
  });

  it('follows changes: tags, the component list, and releases', async () => {
    await flow(`id=${flowId}&resolve=components`);
    await editComponentTags({ actor, componentId: releasedId, set: ['checkout'] }, stack.domain);
    await setFlowComponents({ actor, flowId, componentIds: [unreleasedId, releasedId] }, stack.domain);
    await publish(stack.domain, actor, unreleasedId, 'prod');
    const deadline = Date.now() + 2000;
    for (;;) {
      const { item } = (await flow(`id=${flowId}&resolve=components`)).json();
      const [first, second] = item.components;
      const done = first.id === unreleasedId && first.consume_variant.length === 1 && second.type.tags[0] === 'checkout';
      if (done) break;
      if (Date.now() > deadline) throw new Error(`flow not updated: ${JSON.stringify(item.components)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
});
