import { defaultCimd } from '../src/config.js';
import { aDocument, authorize, fakeResolver, refusedWith } from './support/cimd.js';
import { DocumentServer } from './support/document-server.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';

/*
 * Client ID Metadata Documents against the real auth server: documents are served by a
 * real HTTP server on loopback, which the auth server may fetch from only because these
 * servers run with the development setting (allowLoopback). The "private address"
 * refusals run a server without it, and a fake resolver (injected through deps, standing
 * in for DNS) makes public-looking names resolve to the addresses under test.
 */

let documents: DocumentServer;
let dev: AuthHarness;
let strict: AuthHarness;
const strictResolver = fakeResolver({
  'ten.example.com': ['10.0.0.7'],
  'loopback.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'cgnat.example.com': ['100.64.1.1'],
  'ula.example.com': ['fd00::1'],
  'mapped.example.com': ['::ffff:192.168.1.1'],
  'mixed.example.com': ['93.184.215.14', '10.0.0.8'],
  'multicast.example.com': ['224.0.0.1'],
  'unspecified.example.com': ['0.0.0.0'],
});

beforeAll(async () => {
  documents = await DocumentServer.start();
  dev = await startAuthServer({ config: { cimd: { ...defaultCimd, allowLoopback: true } } });
  strict = await startAuthServer({ cimd: { resolveHost: strictResolver } });
});
afterAll(async () => {
  await dev?.close();
  await strict?.close();
  await documents?.close();
});

let counter = 0;
/** A fresh path, so no test sees another's cache. */
const path = (name: string): string => `/${name}-${++counter}.json`;

test('both metadata documents advertise client_id_metadata_document_supported (the MCP SDK reads oauth-authorization-server first)', async () => {
  for (const wellKnown of ['oauth-authorization-server', 'openid-configuration']) {
    const metadata = (await (
      await fetch(`${dev.issuer}/.well-known/${wellKnown}`)
    ).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${dev.issuer}/register`);
  }
});

test('a valid document: the authorization request goes on to sign-in, and any loopback port of its redirect URI matches', async () => {
  const url = documents.serveJson(path('valid'), (self) => aDocument(self));
  const answer = await authorize(dev.issuer, url);
  expect(answer.status).toBe(303);
  expect(answer.location).toMatch(/^\/interaction\/[\w-]+$/);
  const otherPort = await authorize(dev.issuer, url, {
    redirect_uri: 'http://127.0.0.1:40001/callback',
  });
  expect(otherPort.location).toMatch(/^\/interaction\//);
});

test('with the development setting, an http document on localhost (resolved by the system) is accepted', async () => {
  const url = documents
    .serveJson(path('localhost'), (self) => aDocument(self.replace('127.0.0.1', 'localhost')))
    .replace('127.0.0.1', 'localhost');
  expect((await authorize(dev.issuer, url)).location).toMatch(/^\/interaction\//);
});

describe('refusals: each one an error page naming what is wrong (never a redirect to the client, never a 500)', () => {
  test('an http URL without the development setting', async () => {
    const url = documents.serveJson(path('http'), (self) => aDocument(self));
    const answer = await authorize(strict.issuer, url);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(
      refusedWith(
        `client_id ${url} uses http: a client metadata document must be served over https`,
      ),
    );
    expect(documents.requests(new URL(url).pathname)).toBe(0);
  });

  test('an http URL to a host other than loopback, even with the development setting', async () => {
    const answer = await authorize(dev.issuer, 'http://client.example.com/client.json');
    expect(answer.message).toBe(
      refusedWith(
        'client_id http://client.example.com/client.json uses http: a client metadata document must be served over https',
      ),
    );
  });

  test.each([
    ['no path', 'https://client.example.com'],
    ['the root path', 'https://client.example.com/'],
    ['a fragment', 'https://client.example.com/client.json#x'],
    ['user info', 'https://user@client.example.com/client.json'],
    ['a dot segment', 'https://client.example.com/a/../client.json'],
  ])('a client_id URL with %s', async (_what, clientId) => {
    const answer = await authorize(strict.issuer, clientId);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(
      refusedWith(
        `client_id ${clientId} is not a usable client metadata document URL: it must be an https URL with a path, and no user name, fragment or "." / ".." segments`,
      ),
    );
  });

  test.each([
    ['a private (10/8) address', 'ten.example.com'],
    ['a loopback address', 'loopback.example.com'],
    ['the link-local cloud metadata address', 'metadata.example.com'],
    ['a carrier-grade NAT address', 'cgnat.example.com'],
    ['an IPv6 unique-local address', 'ula.example.com'],
    ['an IPv4-mapped private address', 'mapped.example.com'],
    ['a public and a private address', 'mixed.example.com'],
    ['a multicast address', 'multicast.example.com'],
    ['the unspecified address', 'unspecified.example.com'],
  ])('a host resolving to %s (fake resolver)', async (_what, host) => {
    const answer = await authorize(strict.issuer, `https://${host}/client.json`);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(
      refusedWith(
        `the host of the client metadata document (${host}) resolves to a private, loopback or otherwise non-public address, which this server does not fetch from; serve the document from a public address`,
      ),
    );
  });

  test('an IP literal in the URL is checked the same way (loopback, without the development setting)', async () => {
    const clientId = `https://127.0.0.1:${documents.port}/client.json`;
    const answer = await authorize(strict.issuer, clientId);
    expect(answer.message).toBe(
      refusedWith(
        `the host of the client metadata document (127.0.0.1:${documents.port}) resolves to a private, loopback or otherwise non-public address, which this server does not fetch from; serve the document from a public address`,
      ),
    );
  });

  test('a name that does not resolve', async () => {
    const answer = await authorize(strict.issuer, 'https://nowhere.example.com/client.json');
    expect(answer.message).toBe(
      refusedWith(
        'the host of the client metadata document (nowhere.example.com) could not be resolved; check the client_id URL',
      ),
    );
  });

  test('a redirect (not followed)', async () => {
    const target = documents.serveJson(path('target'), (self) => aDocument(self));
    const url = documents.serve(path('redirect'), (_req, res) =>
      res.writeHead(302, { location: target }).end(),
    );
    const answer = await authorize(dev.issuer, url);
    expect(answer.message).toBe(
      refusedWith(
        `the client metadata document at ${url} answered with a redirect (302); redirects are not followed, so serve the document at the client_id URL itself`,
      ),
    );
    expect(documents.requests(new URL(target).pathname)).toBe(0);
  });

  test('another status than 200', async () => {
    const url = `${documents.origin}${path('missing')}`;
    const answer = await authorize(dev.issuer, url);
    expect(answer.message).toBe(
      refusedWith(
        `the client metadata document at ${url} answered 404; it must answer 200 with the document`,
      ),
    );
  });

  test('a document larger than 5 KiB, announced (Content-Length) or not (chunked)', async () => {
    const big = (self: string) =>
      JSON.stringify(aDocument(self, { client_name: 'x'.repeat(defaultCimd.maxBytes) }));
    const announced = documents.serve(path('big'), (_req, res) => {
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(big(announced))),
        })
        .end(big(announced));
    });
    const chunked = documents.serve(path('big-chunked'), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = big(chunked);
      res.write(body.slice(0, 3000));
      res.end(body.slice(3000));
    });
    for (const url of [announced, chunked]) {
      expect((await authorize(dev.issuer, url)).message).toBe(
        refusedWith(
          `the client metadata document at ${url} is larger than 5120 bytes, the most this server reads; make it smaller`,
        ),
      );
    }
  });

  test('malformed JSON, and JSON that is not an object', async () => {
    const malformed = documents.serve(path('malformed'), (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"client_id": '),
    );
    expect((await authorize(dev.issuer, malformed)).message).toBe(
      refusedWith(
        `the client metadata document at ${malformed} is not valid JSON; serve the client metadata as a JSON object`,
      ),
    );
    const array = documents.serve(path('array'), (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    expect((await authorize(dev.issuer, array)).message).toBe(
      refusedWith(
        `the client metadata document at ${array} is not a JSON object; serve the client metadata as a JSON object`,
      ),
    );
  });

  test('a content type other than JSON', async () => {
    const url = documents.serve(path('html'), (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('{}'),
    );
    expect((await authorize(dev.issuer, url)).message).toBe(
      refusedWith(
        `the client metadata document at ${url} is served as "text/html"; serve it as application/json`,
      ),
    );
  });

  test('a slow server: one deadline for the whole fetch, even while the body trickles in', async () => {
    const url = documents.serve(path('slow'), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"client_id":');
      // ... and the rest never comes.
    });
    const started = Date.now();
    const answer = await authorize(dev.issuer, url);
    expect(answer.message).toBe(
      refusedWith(
        `the client metadata document at ${url} did not arrive within 3 seconds; serve it faster`,
      ),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(defaultCimd.timeoutMs - 50);
    expect(Date.now() - started).toBeLessThan(defaultCimd.timeoutMs + 1500);
  });

  test('a client_id in the document that is not exactly its URL', async () => {
    const url = documents.serveJson(path('mismatch'), (self) =>
      aDocument(self, { client_id: `${self}?` }),
    );
    expect((await authorize(dev.issuer, url)).message).toBe(
      refusedWith(
        `the client metadata document at ${url} has a client_id that is not exactly its URL; set "client_id" to "${url}", character for character`,
      ),
    );
  });

  test('a redirect URI the document does not list', async () => {
    const url = documents.serveJson(path('redirects'), (self) => aDocument(self));
    const answer = await authorize(dev.issuer, url, {
      redirect_uri: 'https://evil.example.com/callback',
    });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.message).toBe(
      refusedWith(
        `redirect_uri is not one of the redirect_uris listed in the client metadata document at ${url}; list it there, or use one that is listed`,
        'invalid_redirect_uri',
      ),
    );
  });

  test('no redirect URIs', async () => {
    for (const redirects of [undefined, [], [42]]) {
      const url = documents.serveJson(path('no-redirects'), (self) =>
        aDocument(self, { redirect_uris: redirects }),
      );
      expect((await authorize(dev.issuer, url)).message).toBe(
        refusedWith(
          `the client metadata document at ${url} has no "redirect_uris"; list every redirect URI the client uses, as strings`,
        ),
      );
    }
  });

  test('redirect URIs the registration rules refuse (plain http off loopback): the same rule as for registered clients', async () => {
    const url = documents.serveJson(path('http-redirect'), (self) =>
      aDocument(self, { redirect_uris: ['http://client.example.com/callback'] }),
    );
    expect(
      (await authorize(dev.issuer, url, { redirect_uri: 'http://client.example.com/callback' }))
        .message,
    ).toBe(
      refusedWith(
        `the client metadata document at ${url} is not valid client metadata: redirect_uris must use https, except for loopback addresses (localhost, 127.0.0.1, [::1])`,
      ),
    );
  });

  test('a client secret in the document', async () => {
    for (const secret of [{ client_secret: 'hunter2' }, { client_secret_expires_at: 0 }]) {
      const url = documents.serveJson(path('secret'), (self) => aDocument(self, secret));
      expect((await authorize(dev.issuer, url)).message).toBe(
        refusedWith(
          `the client metadata document at ${url} contains client_secret or client_secret_expires_at; a metadata document is public, so remove them (the client authenticates with PKCE)`,
        ),
      );
    }
  });

  test.each(['client_secret_basic', 'client_secret_post', 'private_key_jwt'])(
    'token_endpoint_auth_method %s',
    async (method) => {
      const url = documents.serveJson(path('method'), (self) =>
        aDocument(self, { token_endpoint_auth_method: method }),
      );
      expect((await authorize(dev.issuer, url)).message).toBe(
        refusedWith(
          `the client metadata document at ${url} declares token_endpoint_auth_method "${method}"; this server accepts only "none" (a public client using PKCE) for metadata documents`,
        ),
      );
    },
  );

  test('grant types a public client may not use, and response types other than code', async () => {
    const grants = documents.serveJson(path('grants'), (self) =>
      aDocument(self, { grant_types: ['authorization_code', 'client_credentials'] }),
    );
    expect((await authorize(dev.issuer, grants)).message).toBe(
      refusedWith(
        `the client metadata document at ${grants} asks for grant_types ["client_credentials"]; clients identified by a metadata document may use only "authorization_code" and "refresh_token"`,
      ),
    );
    const responses = documents.serveJson(path('responses'), (self) =>
      aDocument(self, { response_types: ['code', 'token'] }),
    );
    expect((await authorize(dev.issuer, responses)).message).toBe(
      refusedWith(
        `the client metadata document at ${responses} asks for response_types other than "code"; only "code" is supported`,
      ),
    );
  });

  test('no token_endpoint_auth_method means none: the document is accepted', async () => {
    const url = documents.serveJson(path('no-method'), (self) => {
      const document = aDocument(self);
      delete document.token_endpoint_auth_method;
      return document;
    });
    expect((await authorize(dev.issuer, url)).location).toMatch(/^\/interaction\//);
  });
});

test('the token endpoint answers invalid_client (JSON) for a refused document', async () => {
  const url = documents.serveJson(path('token'), (self) => aDocument(self, { client_secret: 'x' }));
  const res = await fetch(`${dev.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: url,
      refresh_token: 'nope',
    }).toString(),
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    error: 'invalid_client',
    error_description: `the client metadata document at ${url} contains client_secret or client_secret_expires_at; a metadata document is public, so remove them (the client authenticates with PKCE)`,
  });
});
