import {
  confirmUpload,
  registerUser,
  startUpload,
  sweepExpiredUploads,
  type DomainDeps,
} from '@cp/domain';
import { grantLookupFromMap } from '@cp/domain/testing';
import { silentLogger } from '@cp/http-runtime';
import { makeConfig } from '../src/config.js';
import { serveMcp } from '../src/serve.js';
import { createTestDomain, type TestDomain } from './support/domain.js';

// A PUT to the presigned URL after confirm_upload puts a staging object back; the sweep
// removes it once the URL has expired. Real database, embedded S3 over HTTP.

const HTML = '<!doctype html><html><head><title>t</title></head><body>hi</body></html>';

const put = (url: string) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: HTML });

/** When the presigned URL stops working: X-Amz-Date plus X-Amz-Expires. */
const urlExpiry = (url: string) => {
  const query = new URL(url).searchParams;
  const date = query
    .get('X-Amz-Date')!
    .replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
  return new Date(date).getTime() + Number(query.get('X-Amz-Expires')) * 1000;
};

describe('the staging object of a confirmed upload', () => {
  let domain: TestDomain;
  beforeAll(async () => {
    domain = await createTestDomain();
  });
  afterAll(() => domain.close());

  const later = (deps: DomainDeps, ms: number): DomainDeps => ({
    ...deps,
    clock: { now: () => new Date(Date.now() + ms) },
  });

  test('a PUT after confirm is removed by the sweep once the URL has expired, once', async () => {
    const { deps } = domain;
    const user = await registerUser({ email: 'staging-after-confirm@example.com' }, deps);
    const actor = { userId: user.id };
    const started = await startUpload({ actor, name: 'Put twice' }, deps);
    expect(urlExpiry(started.uploadUrl)).toBeLessThanOrEqual(started.session.expiresAt.getTime());

    expect((await put(started.uploadUrl)).status).toBe(200);
    await confirmUpload({ actor, uploadId: started.session.id }, deps);
    expect(await deps.objects.stat(started.session.stagingKey)).toBeNull();
    expect((await put(started.uploadUrl)).status).toBe(200);
    expect(await deps.objects.stat(started.session.stagingKey)).not.toBeNull();

    // Before the expiry the sweep leaves it (the URL still works); after, it goes.
    await sweepExpiredUploads({ limit: 10_000 }, deps);
    expect(await deps.objects.stat(started.session.stagingKey)).not.toBeNull();
    const afterExpiry = later(deps, deps.config.uploadTtlSeconds * 1000 + 1000);
    const first = await sweepExpiredUploads({ limit: 10_000 }, afterExpiry);
    expect(first.stagingRemoved).toBeGreaterThanOrEqual(1);
    expect(await deps.objects.stat(started.session.stagingKey)).toBeNull();
    expect(await deps.repos.uploadSessions.findById(started.session.id)).toMatchObject({
      state: 'confirmed',
      stagingRemovedAt: expect.any(Date),
    });
    expect(
      (await deps.repos.uploadSessions.listToSweep(afterExpiry.clock.now(), 10_000)).map(
        (s) => s.id,
      ),
    ).not.toContain(started.session.id);
  });
});

describe("the MCP server's background sweep", () => {
  let domain: TestDomain;
  beforeAll(async () => {
    domain = await createTestDomain({ uploadTtlSeconds: 2 });
  });
  afterAll(() => domain.close());

  test('removes what a PUT after confirm stored, after the session expired', async () => {
    const { deps } = domain;
    const user = await registerUser({ email: 'background-sweep@example.com' }, deps);
    const actor = { userId: user.id };
    const started = await startUpload({ actor, name: 'Swept in background' }, deps);
    expect((await put(started.uploadUrl)).status).toBe(200);
    await confirmUpload({ actor, uploadId: started.session.id }, deps);
    expect((await put(started.uploadUrl)).status).toBe(200);

    const service = await serveMcp({
      config: makeConfig({ port: 0 }),
      host: '127.0.0.1',
      domain: deps,
      usage: domain.usage,
      figures: domain.figures,
      grants: grantLookupFromMap(new Map()),
      redisUrl: null,
      log: silentLogger(),
      sweepIntervalSeconds: 0.5,
    });
    try {
      const deadline = Date.now() + 15_000;
      let swept = false;
      while (!swept && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        swept =
          (await deps.repos.uploadSessions.findById(started.session.id))!.stagingRemovedAt !== null;
      }
      expect(swept).toBe(true);
      expect(await deps.objects.stat(started.session.stagingKey)).toBeNull();
    } finally {
      await service.close();
    }
  });
});
