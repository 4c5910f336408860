import { request } from 'node:http';
import { Writable } from 'node:stream';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '@cp/http-runtime';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

let domain: TestDomain;
let h: Harness;
const logLines: string[] = [];

beforeAll(async () => {
  domain = await createTestDomain();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter((line) => line.length > 0));
      done();
    },
  });
  h = await startHarness({ domain: domain.deps, log: createLogger({ service: 'mcp-server', level: 'debug', destination: sink }), config: { maxBodyBytes: 64 * 1024 } });
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

function rawRequest(url: string, options: { method: string; host: string; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method, headers: { host: options.host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('health and metadata', () => {
  test('GET / reports status, version and server name', async () => {
    const response = await fetch(`${h.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version: '0.1.0', server: 'component-tool-server' });
  });

  test.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])('protected resource metadata at %s', async (path) => {
    const response = await fetch(`${h.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(body).toMatchObject({
      resource: h.mcpUrl,
      authorization_servers: [h.issuer.issuer],
      scopes_supported: ['mcp:read', 'mcp:write'],
      bearer_methods_supported: ['header'],
    });
  });

  test('GET /guide is an HTML page for people', async () => {
    const response = await fetch(`${h.baseUrl}/guide`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const topic of ['dist/index.html', 'service.config.json', 'confirm_upload', 'publish_component', '/consume', 'shadowRootMode', 'integrity']) {
      expect(html).toContain(topic);
    }
  });

  test('unknown paths are 404 JSON', async () => {
    const response = await fetch(`${h.baseUrl}/nope`);
    expect(response.status).toBe(404);
  });
});

describe('DNS-rebinding protection', () => {
  test('a foreign Host is refused with 403', async () => {
    // fetch() cannot set Host; node:http can.
    const { status, body } = await rawRequest(`${h.mcpUrl}`, { method: 'POST', host: 'evil.example:80', body: JSON.stringify(toolCall('get_service_guide')) });
    expect(status).toBe(403);
    expect(JSON.parse(body).error.message).toBe('Forbidden: host "evil.example:80" is not allowed.');
  });

  test('a foreign Origin is refused with 403; an allowed one passes', async () => {
    const refused = await rpc(h.mcpUrl, toolCall('get_service_guide'), { headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe('Forbidden: origin "https://evil.example" is not allowed.');
    const allowed = await rpc(h.mcpUrl, toolCall('get_service_guide'), { headers: { origin: new URL(h.mcpUrl).origin } });
    expect(allowed.status).toBe(200);
  });

  test('the health check answers whatever the Host (probes use IP addresses)', async () => {
    const { status } = await rawRequest(`${h.baseUrl}/`, { method: 'GET', host: '10.1.2.3:4100' });
    expect(status).toBe(200);
  });
});

describe('request bodies', () => {
  test('a body over the limit is 413 with a JSON-RPC error', async () => {
    const { status, json } = await rpc(h.mcpUrl, null, { raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }) });
    expect(status).toBe(413);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Request body too large: the limit is 65536 bytes.' } });
  });

  test('malformed JSON is a Parse error (-32700), not a 500', async () => {
    const { status, json } = await rpc(h.mcpUrl, null, { raw: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(status).toBe(400);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
  });

  test.each([
    ['an object that is not JSON-RPC', { hello: 'world' }, null],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 7, method: 'ping' }, 7],
    ['a non-string method', { jsonrpc: '2.0', id: 8, method: 42 }, 8],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, null],
    ['scalar params', { jsonrpc: '2.0', id: 9, method: 'ping', params: 'x' }, 9],
    ['a JSON string', 'ping', null],
    ['an empty batch', [], null],
  ])('%s is an Invalid Request (-32600)', async (_name, body, id) => {
    const { status, json } = await rpc(h.mcpUrl, body);
    expect(status).toBe(400);
    expect(json.jsonrpc).toBe('2.0');
    expect(json.id).toBe(id);
    expect(json.error.code).toBe(-32600);
  });

  test('a non-JSON content type is 415', async () => {
    const { status, json } = await rpc(h.mcpUrl, null, { raw: 'ping', headers: { 'content-type': 'text/plain' } });
    expect(status).toBe(415);
    expect(json.error.message).toBe('Unsupported Media Type: Content-Type must be application/json.');
  });
});

describe('without a token', () => {
  test('ping is answered', async () => {
    const { status, json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  test('get_service_guide is answered without initialize (stateless)', async () => {
    const { status, json } = await rpc(h.mcpUrl, toolCall('get_service_guide'));
    expect(status).toBe(200);
    expect(json.result.isError).toBeUndefined();
    expect(json.result.structuredContent).toMatchObject({ success: true, title: 'Component development guide', format: 'text/html' });
    expect(json.result.structuredContent.html).toMatch(/^<!doctype html>/);
    expect(JSON.parse(json.result.content[0].text)).toEqual(json.result.structuredContent);
  });

  test.each([
    ['initialize', initialize('2025-06-18')],
    ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['whoami', toolCall('whoami')],
    ['an unknown tool', toolCall('nope')],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a batch mixing public and private', [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]],
  ])('%s answers 401 with the resource metadata challenge', async (_name, body) => {
    const { status, headers, json } = await rpc(h.mcpUrl, body);
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${h.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write"`,
    );
    expect(json.error.code).toBe(-32001);
  });

  test.each(['GET', 'DELETE', 'PUT'])('%s /mcp answers 401', async (method) => {
    const response = await fetch(h.mcpUrl, { method });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});

describe('with a token', () => {
  let token: string;
  beforeAll(async () => {
    token = await h.tokenFor(await aUser(h.domain));
  });

  test.each(['GET', 'DELETE'])('%s /mcp answers 405 (stateless: no stream, no session)', async (method) => {
    const response = await fetch(h.mcpUrl, { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  test.each([...SUPPORTED_PROTOCOL_VERSIONS])('initialize negotiates protocol %s', async (version) => {
    const { status, json } = await rpc(h.mcpUrl, initialize(version), { token });
    expect(status).toBe(200);
    expect(json.result.protocolVersion).toBe(version);
    expect(json.result.serverInfo).toMatchObject({ name: 'component-tool-server', version: '0.1.0' });
    expect(json.result.capabilities.tools).toBeDefined();
    expect(json.result.capabilities.resources).toBeDefined();
  });

  test('an unsupported Mcp-Protocol-Version header is refused, naming the supported ones', async () => {
    const { status, json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token, headers: { 'mcp-protocol-version': '1999-01-01' } });
    expect(status).toBe(400);
    expect(json.error).toEqual({
      code: -32600,
      message: `Bad Request: unsupported MCP-Protocol-Version "1999-01-01". Send the version negotiated at initialize, one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    });
  });

  test('an unknown tool is a JSON-RPC invalid-params error', async () => {
    const { status, json } = await rpc(h.mcpUrl, toolCall('nope'), { token });
    expect(status).toBe(200);
    expect(json.error).toEqual({ code: -32602, message: 'Unknown tool "nope". Call tools/list for the available tools.' });
  });

  test('an unknown method is method-not-found', async () => {
    const { json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 4, method: 'prompts/list' }, { token });
    expect(json.error.code).toBe(-32601);
  });

  test('the SDK client lists every tool', async () => {
    const client = await h.connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'whoami',
      'list_organizations',
      'list_components',
      'get_component',
      'list_variants',
      'get_component_usage',
      'edit_component_tags',
      'upload_component',
      'confirm_upload',
      'publish_component',
      'get_release_choices',
      'get_variant_html',
      'get_experience',
      'set_experience',
      'publish_experience',
      'start_rollout',
      'get_rollout',
      'change_rollout',
      'promote_rollout',
      'stop_rollout',
      'get_component_app',
      'set_component_app',
      'remove_component_app',
      'get_service_guide',
    ]);
  });
});

describe('logs', () => {
  test('one JSON line per request with its request id; no token, no signature', async () => {
    const user = await aUser(h.domain);
    const token = await h.tokenFor(user);
    logLines.length = 0;
    const { headers } = await rpc(h.mcpUrl, toolCall('whoami'), { token, headers: { 'x-request-id': 'req-abc-123' } });
    expect(headers.get('x-request-id')).toBe('req-abc-123');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = entries.find((entry) => entry.requestId === 'req-abc-123' && entry.msg === 'request');
    expect(line).toMatchObject({ method: 'POST', path: '/mcp', status: 200, userId: user.id, rpc: ['tools/call'], tools: ['whoami'] });
    expect(logLines.join('\n')).not.toContain(token);
    expect(logLines.join('\n')).not.toContain(token.split('.')[2]);
  });

  test('an unsafe X-Request-Id is replaced by a fresh one', async () => {
    const { headers } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
