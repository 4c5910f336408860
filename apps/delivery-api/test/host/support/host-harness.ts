import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium, type Browser, type BrowserContext, type Page } from '@cp/browser-testing';
import { aUser, publish, upload } from '../../support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from '../../support/test-stack.js';

/*
 * What the host SDK's browser tests run against: the delivery API of the test
 * stack (real database, real S3, its change feed) over HTTP, a host page server
 * on another origin (as a customer's site is), and headless Chromium.
 */

export interface Asset {
  readonly body: string;
  readonly contentType: string;
  /** Adds `Access-Control-Allow-Origin: *` (what a CDN serving scripts with SRI sends). Default true. */
  readonly cors?: boolean;
  /** More response headers (a page's Content-Security-Policy). */
  readonly headers?: Record<string, string>;
}

export interface HostHarness {
  readonly stack: TestStack;
  readonly delivery: Instance;
  /** The host page server's origin (`http://localhost:<port>`; the delivery API is on 127.0.0.1). */
  readonly hostOrigin: string;
  readonly browser: Browser;
  readonly actor: { userId: string };
  /** Serves `html` as a page of the host origin, with `headers` if given; returns its URL. */
  page(html: string, headers?: Record<string, string>): string;
  /** Serves a file (script, stylesheet) of the host origin at `path`; returns its URL. */
  asset(path: string, asset: Asset): string;
  /** A host page that loads the SDK from the delivery API (`<script type=module src=/host/v1.js>`), then `body`. */
  hostPage(body: string): string;
  /** Uploads `html` as a new component (its preview); with `env`, also releases it there. */
  aComponent(html: string, env?: string): Promise<{ componentId: string; variantId: string }>;
  /** Uploads `html` as a new variant of the component; with `env`, also releases it there. */
  aVariant(componentId: string, html: string, env?: string): Promise<{ variantId: string }>;
  /** A fresh browser context (its own cache and storage) with the page open; its console errors are collected. */
  open(url: string): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }>;
  close(): Promise<void>;
}

export async function startHostHarness(): Promise<HostHarness> {
  const stack = await openTestStack();
  const delivery = await startInstance(stack);
  const { actor } = await aUser(stack.domain);
  const files = new Map<string, { body: Buffer; headers: Record<string, string> }>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const file = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { ...file.headers, 'Content-Length': String(file.body.length), 'Cache-Control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hostOrigin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  let pages = 0;
  const contexts = new Set<BrowserContext>();

  const asset = (path: string, { body, contentType, cors = true, headers = {} }: Asset): string => {
    files.set(path, { body: Buffer.from(body), headers: { 'Content-Type': contentType, ...(cors ? { 'Access-Control-Allow-Origin': '*' } : {}), ...headers } });
    return `${hostOrigin}${path}`;
  };
  const page = (html: string, headers?: Record<string, string>): string =>
    asset(`/page-${++pages}.html`, { body: html, contentType: 'text/html; charset=utf-8', headers });

  return {
    stack,
    delivery,
    hostOrigin,
    browser,
    actor,
    page,
    asset,
    hostPage: (body) =>
      page(`<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
<script type="module" src="${delivery.url}/host/v1.js"></script></head><body>${body}</body></html>`),
    async aComponent(html, env) {
      const confirmed = await upload(stack.domain, actor, { html });
      if (env) await publish(stack.domain, actor, confirmed.componentId, env, confirmed.variantId);
      return { componentId: confirmed.componentId, variantId: confirmed.variantId };
    },
    async aVariant(componentId, html, env) {
      const confirmed = await upload(stack.domain, actor, { componentId, html });
      if (env) await publish(stack.domain, actor, componentId, env, confirmed.variantId);
      return { variantId: confirmed.variantId };
    },
    async open(url) {
      const context = await browser.newContext();
      contexts.add(context);
      const opened = await context.newPage();
      const consoleErrors: string[] = [];
      opened.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      opened.on('pageerror', (error) => consoleErrors.push(String(error)));
      await opened.goto(url);
      return { context, page: opened, consoleErrors };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await delivery.close();
      await stack.close();
    },
  };
}
