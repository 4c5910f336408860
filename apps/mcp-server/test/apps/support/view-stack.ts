import { launchChromium, type Browser } from '@cp/browser-testing';
import type { User } from '@cp/domain';
import { upload } from '../../../../delivery-api/test/support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from '../../../../delivery-api/test/support/test-stack.js';
import { aUser, startHarness, type Harness } from '../../support/harness.js';
import { startAppHost, type AppHost } from './app-host.js';

/*
 * Everything a view needs, on real parts: one database (PGlite, or PostgreSQL with DATABASE_URL)
 * and the embedded S3 server shared by the MCP server and the delivery API (the view loads the
 * host SDK and the component from it), both over HTTP; Chromium (the run's shared one under
 * jest); and the web host around them (app-host.ts).
 */
/** The component the views show: a banner, with its name and text to find. */
export const BANNER_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;font-family:system-ui,sans-serif}
.banner{background:linear-gradient(90deg,#1d4ed8,#7c3aed);color:#fff;padding:20px 24px;border-radius:10px}
.banner h2{margin:0 0 4px;font-size:20px}.banner p{margin:0}
</style></head><body><div class="banner"><h2>Free shipping over $50</h2><p>Spring sale: ends Sunday.</p></div></body></html>`;

export interface ViewStack {
  readonly stack: TestStack;
  readonly delivery: Instance;
  readonly mcp: Harness;
  readonly host: AppHost;
  readonly user: User;
  /** A token of `user`: every scope by default, `mcp:read` for a read-only conversation. */
  token(scope?: string): Promise<string>;
  /** Uploads the banner as a new component of \`user\` ("Checkout Banner"), through the domain as the upload tools do. */
  aComponent(): Promise<{ componentId: string; variantId: string }>;
  /** Uploads \`html\` as the component's next version. */
  aVersion(componentId: string, html: string): Promise<{ variantId: string }>;
  close(): Promise<void>;
}

export async function startViewStack(): Promise<ViewStack> {
  const stack = await openTestStack();
  let delivery: Instance | undefined;
  let mcp: Harness | undefined;
  let browser: Browser | undefined;
  let host: AppHost | undefined;
  const close = async () => {
    await host?.close();
    await browser?.close();
    await mcp?.close();
    await delivery?.close();
    await stack.close();
  };
  try {
    delivery = await startInstance(stack);
    mcp = await startHarness({ domain: stack.domain, config: { deliveryUrl: delivery.url } });
    const server = mcp;
    browser = await launchChromium();
    host = await startAppHost({ browser, connect: (token) => server.connect(token) });
    const user = await aUser(stack.domain);
    return {
      stack,
      delivery,
      mcp,
      host,
      user,
      token: (scope) => server.tokenFor(user, scope === undefined ? {} : { scope }),
      aComponent: () => upload(stack.domain, { userId: user.id }, { name: 'Checkout Banner', html: BANNER_HTML }),
      aVersion: (componentId, html) => upload(stack.domain, { userId: user.id }, { componentId, html }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
