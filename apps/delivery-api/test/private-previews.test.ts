import { randomUUID } from 'node:crypto';
import { createPreviewKey, revokePreviewKey, setPrivatePreviews } from '@cp/domain';
import { openStream, type EventStreamClient } from './support/event-stream.js';
import { get, send } from './support/http-client.js';
import { aUser, publish, SMALL_PAGE, upload } from './support/seed.js';
import {
  openTestStack,
  startInstance,
  type Instance,
  type TestStack,
} from './support/test-stack.js';

/*
 * Private previews over real HTTP against the real app: an organization that
 * switched them on, one that did not, keys created and revoked through the
 * domain use cases (as the dashboard does), notifications from real writes.
 */

let stack: TestStack;
let delivery: Instance;
let owner: { actor: { userId: string }; organizationId: string };
let privateId: string;
let publicId: string;
let publicOwner: { actor: { userId: string } };
let secret: string;
const LATEST = SMALL_PAGE.replace('Hello', 'Hello, draft');
const open: EventStreamClient[] = [];

const consume = (query: string, headers: Record<string, string> = {}) =>
  get(delivery.url, `/consume?${query}`, headers);
const withKey = (key: string) => ({ 'Cp-Preview-Key': key });
/** Polls until the instance answers `status` (change notifications arrive asynchronously). */
async function eventually(query: string, status: number, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await consume(query, headers);
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack, { config: { changeStreams: { heartbeatMs: 100 } } });
  owner = await aUser(stack.domain);
  privateId = (await upload(stack.domain, owner.actor, { name: 'Private card' })).componentId;
  await publish(stack.domain, owner.actor, privateId, 'prod');
  await upload(stack.domain, owner.actor, { componentId: privateId, html: LATEST });
  await setPrivatePreviews(
    { actor: owner.actor, organizationId: owner.organizationId, enabled: true },
    stack.domain,
  );
  ({ secret } = await createPreviewKey(
    { actor: owner.actor, organizationId: owner.organizationId, name: 'host' },
    stack.domain,
  ));
  publicOwner = await aUser(stack.domain);
  publicId = (await upload(stack.domain, publicOwner.actor, { name: 'Public card' })).componentId;
});
afterEach(() => {
  for (const client of open.splice(0)) client.close();
});
afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

describe('a preview of an organization with private previews', () => {
  it('without a key: the 404 of an unknown component, naming no environment, stored by no cache', async () => {
    const res = await consume(`id=${privateId}`);
    const unknownId = randomUUID();
    const unknown = await consume(`id=${unknownId}`);
    expect(res.status).toBe(404);
    expect(res.header('cache-control')).toBe('no-store');
    expect(res.body.toString().replace(privateId, 'ID')).toBe(
      unknown.body.toString().replace(unknownId, 'ID'),
    );
    expect(res.body.toString()).not.toMatch(/prod|staging/);
  });

  it('with a valid key: the latest variant, private and never stored', async () => {
    const res = await consume(`id=${privateId}`, withKey(secret));
    expect(res.status).toBe(200);
    expect(res.json().item.consume_variant[0].loader.HTML).toBe(LATEST);
    expect(res.header('cache-control')).toBe('private, no-store');
    const head = await send(delivery.url, `/consume?id=${privateId}`, {
      method: 'HEAD',
      headers: withKey(secret),
    });
    expect(head.status).toBe(200);
    // What the keyed request loaded was not kept for the next keyless one.
    expect((await consume(`id=${privateId}`)).status).toBe(404);
  });

  it('with a wrong, malformed or revoked key: 404', async () => {
    expect((await consume(`id=${privateId}`, withKey(`${secret.slice(0, -2)}xx`))).status).toBe(
      404,
    );
    expect((await consume(`id=${privateId}`, withKey('not a key'))).status).toBe(404);
    const revoked = await createPreviewKey(
      { actor: owner.actor, organizationId: owner.organizationId, name: 'old' },
      stack.domain,
    );
    expect((await consume(`id=${privateId}`, withKey(revoked.secret))).status).toBe(200);
    await revokePreviewKey(
      { actor: owner.actor, organizationId: owner.organizationId, keyId: revoked.key.id },
      stack.domain,
    );
    const res = await consume(`id=${privateId}`, withKey(revoked.secret));
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toMatch(/prod|staging/);
  });

  it("another organization's key opens nothing", async () => {
    const stranger = await aUser(stack.domain);
    const foreign = await createPreviewKey(
      { actor: stranger.actor, organizationId: stranger.organizationId, name: 'x' },
      stack.domain,
    );
    expect((await consume(`id=${privateId}`, withKey(foreign.secret))).status).toBe(404);
  });

  it('released environments are unaffected; an unknown environment is named without listing the others', async () => {
    const released = await consume(`id=${privateId}&env=prod`);
    expect(released.status).toBe(200);
    expect(released.header('cache-control')).toMatch(/^public, max-age=/);
    const unknownEnv = await consume(`id=${privateId}&env=qa`);
    expect(unknownEnv.status).toBe(404);
    expect(unknownEnv.json().detail).toBe('Environment "qa" does not exist in this organization.');
  });
});

describe('an organization that keeps previews public', () => {
  it('serves its preview to anyone, as before, and lists its environments in the 404', async () => {
    const res = await consume(`id=${publicId}`);
    expect(res.status).toBe(200);
    expect(res.header('cache-control')).toBe('no-cache');
    expect((await consume(`id=${publicId}`, withKey(secret))).status).toBe(200);
    expect((await consume(`id=${publicId}&env=qa`)).json().detail).toMatch(
      /Known environments: prod, staging/,
    );
  });

  it('switching previews private takes effect at once, although the preview was cached; and back', async () => {
    const someone = await aUser(stack.domain);
    const id = (await upload(stack.domain, someone.actor)).componentId;
    expect((await consume(`id=${id}`)).status).toBe(200);
    expect((await consume(`id=${id}`)).status).toBe(200);
    await setPrivatePreviews(
      { actor: someone.actor, organizationId: someone.organizationId, enabled: true },
      stack.domain,
    );
    expect((await eventually(`id=${id}`, 404)).status).toBe(404);
    // A cache that kept the public copy and revalidates it gets no 304 either.
    const etag = (await consume(`id=${publicId}`)).header('etag')!;
    expect((await consume(`id=${id}`, { 'If-None-Match': etag })).status).toBe(404);
    await setPrivatePreviews(
      { actor: someone.actor, organizationId: someone.organizationId, enabled: false },
      stack.domain,
    );
    expect((await eventually(`id=${id}`, 200)).status).toBe(200);
  });
});

describe('CORS and live updates', () => {
  it('a preflight for the preview key header is answered', async () => {
    const res = await send(delivery.url, `/consume?id=${privateId}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://host.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'cp-preview-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.header('access-control-allow-origin')).toBe('*');
    expect(res.header('access-control-allow-headers')?.split(/,\s*/)).toContain('Cp-Preview-Key');
  });

  it('the anonymous change stream hears releases of a private-previews organization, never its preview uploads', async () => {
    const client = await openStream(delivery.url, `/changes?ids=${privateId},${publicId}`);
    open.push(client);
    const changesOf = (id: string, from = 0) =>
      client.events.slice(from).filter((event) => event.type === 'change' && (JSON.parse(event.data) as { id: string }).id === id);
    await client.until(() => client.retry !== null, 'the preamble');
    // Notifications arrive in commit order: once this upload is heard, so is every change an earlier test committed.
    await upload(stack.domain, publicOwner.actor, { componentId: publicId });
    await client.until(() => changesOf(publicId).length === 1, 'the first public change');
    const from = client.events.length;

    await upload(stack.domain, owner.actor, { componentId: privateId });
    // Had the private upload been announced, it would come before this.
    await upload(stack.domain, publicOwner.actor, { componentId: publicId });
    await client.until(() => changesOf(publicId, from).length === 1, 'the second public change');
    await publish(stack.domain, owner.actor, privateId, 'staging');
    await client.until(() => changesOf(privateId, from).length > 0, 'the private release');
    // One event: the release; the upload before it was not announced.
    expect(changesOf(privateId, from)).toHaveLength(1);
  });
});
