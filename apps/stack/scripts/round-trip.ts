/**
 * One whole round trip against running services, driven from outside as a user's
 * assistant and a host page would: OAuth (registration, sign-up, consent, PKCE
 * exchange) with the MCP SDK client, upload, the presigned PUT with the returned curl
 * command, confirm, publish to prod, then /consume. Shared by the Node 22 check
 * (scripts/node22-check.ts) and the image smoke (scripts/images-check.ts).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FormBrowser } from '../../auth-server/test/support/form-browser.js';
import { RecordingProvider } from '../../auth-server/test/support/sdk-provider.js';

const exec = promisify(execFile);

export interface RoundTripUrls {
  /** The auth server's issuer URL (its sign-up page lives there). */
  readonly auth: string;
  /** The MCP endpoint, e.g. http://127.0.0.1:4100/mcp. */
  readonly mcp: string;
  /** The delivery API's base URL. */
  readonly delivery: string;
}

export interface RoundTripOptions {
  readonly urls: RoundTripUrls;
  /** A folder the presigned PUT's curl command runs in (a project with dist/index.html). */
  readonly workDir: string;
  /** Names the client, the account and the component. */
  readonly label: string;
  /** Called with each step that passed. */
  readonly pass: (what: string) => void;
  /**
   * Runs after confirm and before publish; the function it returns runs after publish
   * (e.g. open a change stream for the new component, then check the release reached it).
   */
  readonly aroundPublish?: (componentId: string) => Promise<() => Promise<void>>;
}

export interface RoundTripResult {
  readonly componentId: string;
  readonly variantId: string;
}

export async function roundTrip({ urls, workDir, label, pass, aroundPublish }: RoundTripOptions): Promise<RoundTripResult> {
  const provider = new RecordingProvider('http://localhost:45123/callback');
  const connect = async () => {
    const client = new Client({ name: label, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(urls.mcp), { authProvider: provider }));
    return client;
  };
  const refused = await connect().then(
    () => null,
    (error: unknown) => error,
  );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connection to ask for authorization, got ${String(refused)}`);
  const browser = new FormBrowser();
  const login = await browser.open(provider.authorizationUrl!.href);
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)?.[1];
  if (signupHref === undefined) throw new Error(`no sign-up link on the sign-in page (${login.url})`);
  const consent = await browser.submit(await browser.open(new URL(signupHref, urls.auth).href), { email: `${label}-${Date.now()}@example.com`, password: 'correct horse battery staple' });
  const callback = new URL((await browser.submit(consent, { decision: 'allow' })).url);
  await new StreamableHTTPClientTransport(new URL(urls.mcp), { authProvider: provider }).finishAuth(callback.searchParams.get('code') ?? '');
  const client = await connect();
  pass('OAuth: registration, sign-up, consent, code exchange; the MCP client connects with the token');

  try {
    // Tool results and /consume are read as the shapes the contract gives, and checked where they matter.
    const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.structuredContent ?? result.content)}`);
      return result.structuredContent as T;
    };
    const html = `<!doctype html><html><head><title>${label}</title></head><body><p>${label} ${Date.now()}</p></body></html>`;
    const upload = await call<{ uploadId: string; curlCommand: string }>('upload_component', { name: `${label} ${Date.now()}` });
    const project = await mkdtemp(join(workDir, 'project-'));
    await mkdir(join(project, 'dist'), { recursive: true });
    await writeFile(join(project, 'dist', 'index.html'), html);
    await exec('sh', ['-c', upload.curlCommand], { cwd: project, timeout: 15_000 });
    const confirmed = await call<{ componentId: string; variantId: string; isNewComponent: boolean }>('confirm_upload', { uploadId: upload.uploadId });
    if (confirmed.isNewComponent !== true) throw new Error(`confirm_upload: ${JSON.stringify(confirmed)}`);
    pass(`upload_component, the presigned PUT, confirm_upload: component ${confirmed.componentId}`);

    const afterPublish = await aroundPublish?.(confirmed.componentId);
    await call('publish_component', { componentId: confirmed.componentId, environment: 'prod' });
    pass('publish_component to prod');
    await afterPublish?.();

    const response = await fetch(`${urls.delivery}/consume?id=${confirmed.componentId}&env=prod`);
    const body = (await response.json()) as { item?: { consume_variant?: { id: string; loader?: { HTML?: string } }[] } };
    const variant = body?.item?.consume_variant?.[0];
    if (response.status !== 200 || variant?.id !== confirmed.variantId || variant?.loader?.HTML !== html) {
      throw new Error(`/consume answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
    }
    pass('GET /consume?env=prod serves the uploaded HTML');
    return { componentId: confirmed.componentId, variantId: confirmed.variantId };
  } finally {
    await client.close();
  }
}
