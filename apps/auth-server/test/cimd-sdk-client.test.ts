/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { auth as sdkAuth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultCimd } from '../src/config.js';
import { fakeResolver } from './support/cimd.js';
import { DOCUMENT_HOST_NAME, DocumentServer } from './support/document-server.js';
import { FormBrowser } from './support/form-browser.js';
import { PASSWORD } from './support/flow.js';
import { startStack, type Stack } from './support/mcp-stack.js';
import { RecordingProvider } from './support/sdk-provider.js';

/*
 * The MCP SDK client identified by a client metadata document (its `clientMetadataUrl`),
 * against the real auth server and MCP server on a real database. The SDK accepts only
 * an https metadata URL, so the document is served over TLS on loopback by a test
 * server with a self-signed certificate; the auth server is given that certificate
 * (`tlsCa`), a resolver mapping the document's host name to 127.0.0.1, and the
 * development setting that allows loopback documents. Nothing else is replaced.
 */

class DocumentClientProvider extends RecordingProvider {
  constructor(
    redirectUrl: string,
    readonly clientMetadataUrl: string,
  ) {
    super(redirectUrl);
  }
}

let db: TestDatabase;
let documents: DocumentServer;
let stack: Stack;
beforeAll(async () => {
  db = await createTestDatabase();
  documents = await DocumentServer.start({ tls: true });
  stack = await startStack(db, {
    auth: {
      config: { cimd: { ...defaultCimd, allowLoopback: true } },
      cimd: {
        resolveHost: fakeResolver({ [DOCUMENT_HOST_NAME]: ['127.0.0.1'] }),
        tlsCa: documents.ca!,
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await documents?.close();
  await db?.close();
});

const connect = async (provider: RecordingProvider): Promise<Client> => {
  const client = new Client({ name: 'cimd-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }),
  );
  return client;
};

test('the SDK client with a client metadata URL: discovery, authorization with the URL as client_id, consent, token, tools/call, refresh', async () => {
  const clientId = `https://${DOCUMENT_HOST_NAME}:${documents.port}/mcp-client.json`;
  const redirectUrl = 'http://localhost:45131/callback';
  documents.serveJson(
    '/mcp-client.json',
    () => ({
      client_id: clientId,
      client_name: 'Docs <b>client</b> & co',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
    { 'cache-control': 'max-age=3600' },
  );
  const provider = new DocumentClientProvider(redirectUrl, clientId);
  const email = `cimd-${Date.now()}@example.com`;

  // 401 -> metadata (client_id_metadata_document_supported) -> no registration: the URL is the client_id.
  await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toBe(clientId);
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

  // The person: the sign-in page names the document's host; sign up, then the consent page says what it is.
  const browser = new FormBrowser();
  const login = await browser.open(authorizationUrl.href);
  expect(login.html).toContain(
    `<strong>Docs &lt;b&gt;client&lt;/b&gt; &amp; co (${DOCUMENT_HOST_NAME}:${documents.port})</strong> wants to connect`,
  );
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)![1]!;
  const consent = await browser.submit(
    await browser.open(new URL(signupHref, stack.auth.issuer).href),
    { email, password: PASSWORD },
  );
  expect(consent.html).toContain(
    '<h1>Allow Docs &lt;b&gt;client&lt;/b&gt; &amp; co to use your account?</h1>',
  );
  expect(consent.html).toContain(
    `This application is identified by its web address, <strong>${DOCUMENT_HOST_NAME}:${documents.port}</strong>, and describes itself in a document published there. We have not verified it or its name.`,
  );
  expect(consent.html).not.toContain('<b>client</b>');
  const callback = new URL((await browser.submit(consent, { decision: 'allow' })).url);
  expect(callback.origin + callback.pathname).toBe(redirectUrl);

  // Code exchange (client_id = the URL, no secret), then a tool call as the new user.
  const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), {
    authProvider: provider,
  });
  await transport.finishAuth(callback.searchParams.get('code')!);
  expect(provider.saved).toMatchObject({
    token_type: 'Bearer',
    scope: 'mcp:read mcp:write',
    refresh_token: expect.any(String),
  });
  const client = await connect(provider);
  const whoami: any = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;
  expect(whoami).toMatchObject({ authenticated: true, email, scope: 'mcp:read mcp:write' });
  await client.close();

  // Refresh: new tokens, and they work.
  const before = provider.saved!;
  expect(await sdkAuth(provider, { serverUrl: stack.mcpUrl })).toBe('AUTHORIZED');
  expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
  const again = await connect(provider);
  expect(
    ((await again.callTool({ name: 'whoami', arguments: {} })).structuredContent as any).email,
  ).toBe(email);
  await again.close();

  // One fetch served the whole flow (authorize, pages, token, refresh): the document's max-age holds.
  expect(documents.requests('/mcp-client.json')).toBe(1);
}, 60_000);
