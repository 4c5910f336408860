import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createVariantLoaders,
  frameDocumentOf,
  jsonBody,
  runStaticExport,
  type StaticExportDeps,
} from '@cp/consume';
import { setStaticExport } from '@cp/domain';
import { createObjectStore, type S3ObjectStore } from '@cp/storage';
import { Client } from 'minio';
import { readHostFrameFile } from '../../src/host-sdk/host-sdk-file.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, openProbed, until, waitForEvents } from './support/sdk-probes.js';

/*
 * The host SDK reading an organization's static export (`source: 'export'`) in real Chromium.
 * The export is written by the export job into the embedded S3 server's export bucket, and
 * served over HTTP by a small server in front of it, as a CDN in front of the bucket would:
 * the stored Content-Type, Cache-Control and ETag, CORS for GET with If-None-Match, 304s.
 */

let harness: HostHarness;
let exportStore: S3ObjectStore;
let admin: Client;
let cdn: Server;
let cdnUrl: string;
let exportDeps: StaticExportDeps;
let organizationId: string;
/** Every request the CDN answered: path, status, whether it was conditional. */
const served: { path: string; status: number; conditional: boolean }[] = [];

beforeAll(async () => {
  harness = await startHostHarness();
  const { s3, domain, repos } = harness.stack;
  exportStore = createObjectStore({ ...s3.config, bucket: 'components-export' });
  await exportStore.ensureBucket();
  const endpoint = new URL(s3.endpoint);
  admin = new Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port),
    useSSL: false,
    accessKey: s3.config.accessKey,
    secretKey: s3.config.secretKey,
    region: 'us-east-1',
    pathStyle: true,
  });
  exportDeps = {
    repos,
    loaders: createVariantLoaders(domain.objects, 1_000_000),
    store: exportStore,
    clock: { now: () => new Date() },
    prefix: 'cdn/',
    frameDocument: frameDocumentOf(readHostFrameFile().code),
  };
  organizationId = (await repos.users.findById(harness.actor.userId))!.defaultOrganizationId;
  await setStaticExport({ actor: harness.actor, organizationId, enabled: true }, domain);
  cdn = createServer((req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag' };
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          ...cors,
          'Access-Control-Allow-Methods': 'GET, HEAD',
          'Access-Control-Allow-Headers': 'If-None-Match',
          'Access-Control-Max-Age': '600',
        })
        .end();
      return;
    }
    const key = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const conditional = req.headers['if-none-match'] !== undefined;
    void (async () => {
      const stat = await admin.statObject('components-export', key).catch(() => null);
      const answer = (status: number, headers: Record<string, string>, body?: Buffer) => {
        served.push({ path: key, status, conditional });
        res.writeHead(status, { ...cors, ...headers }).end(body);
      };
      if (!stat)
        return answer(
          404,
          { 'Content-Type': 'application/xml' },
          Buffer.from('<Error><Code>NoSuchKey</Code></Error>'),
        );
      const etag = `"${stat.etag}"`;
      const headers = {
        'Content-Type': String(stat.metaData['content-type']),
        'Cache-Control': String(stat.metaData['cache-control']),
        ETag: etag,
      };
      if (req.headers['if-none-match'] === etag) return answer(304, headers);
      answer(200, headers, Buffer.from((await exportStore.readIfPresent(key))!));
    })();
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/cdn/${organizationId}`;
}, 120_000);

afterAll(async () => {
  cdn?.closeAllConnections();
  await new Promise((resolve) => cdn?.close(resolve));
  await harness?.close();
});

const exportPage = (componentId: string, attributes: string) =>
  harness.hostPage(
    `<cp-component id="c" source="export" base-url="${cdnUrl}" component-id="${componentId}" ${attributes}></cp-component>`,
  );

it('renders a released component from the export, not from /consume, and follows a new release by polling it conditionally', async () => {
  const { componentId, variantId } = await harness.aComponent(componentHtml('one'), 'prod');
  await runStaticExport({ organizationId }, exportDeps);
  const consumeReads: string[] = [];
  const { page, consoleErrors } = await openProbed(
    harness,
    exportPage(componentId, 'env="prod" live'),
    async (p) => {
      p.on('request', (request) => {
        if (request.url().includes('/consume')) consumeReads.push(request.url());
      });
    },
  );

  const [loaded] = await waitForEvents(page, 'cp-load');
  expect(loaded!.detail).toEqual({ variantId, variantName: 'v1' });
  expect(await page.frameLocator('#c iframe').locator('#text').textContent()).toBe('one');
  expect(
    served.filter((s) => s.path === `cdn/${organizationId}/components/${componentId}/prod.json`)[0],
  ).toMatchObject({ status: 200 });

  // Live polls the object every few seconds, conditionally: unchanged, it is answered 304.
  const polled = (s: (typeof served)[number]) =>
    s.path.endsWith(`${componentId}/prod.json`) && s.conditional && s.status === 304;
  await until(() => served.some(polled), 15_000);

  const next = await harness.aVariant(componentId, componentHtml('two'), 'prod');
  await runStaticExport({ organizationId }, exportDeps);
  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads[1]!.detail).toEqual({ variantId: next.variantId, variantName: 'v2' });
  expect(await page.frameLocator('#c iframe').locator('#text').textContent()).toBe('two');
  expect(consumeReads).toEqual([]);
  // The frame document came from the export too.
  expect(served.some((s) => s.path.startsWith(`cdn/${organizationId}/host/frame/v1.`) && s.status === 200)).toBe(true);
  // Polls between the two releases asked conditionally and were answered 304.
  expect(
    served.some(
      (s) => s.path.endsWith(`${componentId}/prod.json`) && s.conditional && s.status === 304,
    ),
  ).toBe(true);
  expect(consoleErrors).toEqual([]);
});

it('checks integrity as from /consume: an exported object whose HTML was changed renders nothing', async () => {
  const { componentId } = await harness.aComponent(componentHtml('genuine'), 'staging');
  await runStaticExport({ organizationId }, exportDeps);
  const key = `cdn/${organizationId}/components/${componentId}/staging.json`;
  const body = JSON.parse(Buffer.from((await exportStore.readIfPresent(key))!).toString()) as {
    item: { consume_variant: { loader: { HTML: string } }[] };
  };
  body.item.consume_variant[0]!.loader.HTML = componentHtml('tampered');
  await exportStore.put(key, jsonBody(body), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'no-cache',
  });

  const { page } = await openProbed(harness, exportPage(componentId, 'env="staging"'));
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail.problem).toMatchObject({ code: 'INTEGRITY_MISMATCH', status: 0 });
  expect(await page.locator('#c iframe').count()).toBe(0);
});

it('the exported frame document, served without a CSP sandbox, stays inert when framed without the sandbox attribute', async () => {
  await runStaticExport({ organizationId }, exportDeps);
  const frameUrl = `${cdnUrl}/${exportDeps.frameDocument.path}`;
  const { page } = await harness.open(
    harness.page(`<iframe id="plain" src="${frameUrl}"></iframe><iframe id="sandboxed" sandbox="allow-scripts" src="${frameUrl}"></iframe>`),
  );
  const contract = async (id: string) => {
    const frame = await (await page.locator(`#${id}`).elementHandle())?.contentFrame();
    await frame!.waitForLoadState('load');
    return frame!.evaluate(() => [origin, typeof (window as { cpSend?: unknown }).cpSend]);
  };
  // The same document starts only where the attribute made its origin opaque.
  expect(await contract('sandboxed')).toEqual(['null', 'function']);
  expect(await contract('plain')).toEqual([new URL(cdnUrl).origin, 'undefined']);
});

it.each([
  ['no env', '', 'INVALID_OPTIONS'],
  ['a preview', 'env="prod" preview', 'INVALID_OPTIONS'],
])('refuses %s as INVALID_OPTIONS, saying why', async (_case, attributes, code) => {
  const { componentId } = await harness.aComponent(componentHtml('x'), 'prod');
  const { page } = await openProbed(harness, exportPage(componentId, attributes));
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: false, problem: { code, status: 0 } });
  expect(error!.detail.problem!.detail).toBe(
    'source "export" serves released environments only: give env, and no preview, previewKey or flowId (previews are not exported; read them from the delivery API).',
  );
});

it('answers NOT_FOUND (Release) for an environment with nothing exported, naming the URL it read', async () => {
  const { componentId } = await harness.aComponent(componentHtml('unreleased'));
  await runStaticExport({ organizationId }, exportDeps);
  const { page } = await openProbed(harness, exportPage(componentId, 'env="prod"'));
  const [error] = await waitForEvents(page, 'cp-error');
  const url = `${cdnUrl}/components/${componentId}/prod.json`;
  expect(error!.detail).toEqual({
    retrying: false,
    problem: {
      type: '/problems/not-found',
      title: 'NOT_FOUND',
      status: 404,
      code: 'NOT_FOUND',
      resource: 'Release',
      detail: `Nothing is exported at ${url}: the component is not released to "prod", its organization's export is off, or baseUrl is not the export's URL.`,
    },
  });
});
