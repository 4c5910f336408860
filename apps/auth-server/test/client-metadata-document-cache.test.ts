import { createLogger } from '@cp/http-runtime';
import { defaultCimd } from '../src/config.js';
import { aDocument, authorize, refusedWith, fakeResolver } from './support/cimd.js';
import { DOCUMENT_HOST_NAME, DocumentServer } from './support/document-server.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';

/*
 * The document cache, over real HTTP (documents on loopback, allowed by the development
 * setting). The cache's clock is injected (`now`) so hours pass at once; oidc-provider
 * itself keeps real time.
 */

let documents: DocumentServer;
let tlsDocuments: DocumentServer;
let auth: AuthHarness;
let pinned: AuthHarness;
let offsetMs = 0;
const logLines: string[] = [];
const resolver = fakeResolver({ [DOCUMENT_HOST_NAME]: ['127.0.0.1'] });

beforeAll(async () => {
  documents = await DocumentServer.start();
  tlsDocuments = await DocumentServer.start({ tls: true });
  const cimd = { ...defaultCimd, allowLoopback: true };
  auth = await startAuthServer({
    config: { cimd },
    cimd: { now: () => Date.now() + offsetMs },
    log: createLogger({
      service: 'auth-server',
      level: 'info',
      destination: { write: (line: string) => void logLines.push(line) },
    }),
  });
  pinned = await startAuthServer({
    config: { cimd },
    cimd: { resolveHost: resolver, tlsCa: tlsDocuments.ca! },
  });
});
afterAll(async () => {
  await auth?.close();
  await pinned?.close();
  await documents?.close();
  await tlsDocuments?.close();
});
beforeEach(() => {
  offsetMs = 0;
});

let counter = 0;
const path = (name: string): string => `/${name}-${++counter}.json`;
const SECOND = 1000;
const accepted = (answer: { location: string | null }) =>
  expect(answer.location).toMatch(/^\/interaction\//);

test.each([
  ['max-age within the bounds is kept as is', 'max-age=120', 120],
  ['max-age below the floor is raised to 60 s', 'max-age=5', 60],
  ['no-store means the floor', 'no-store', 60],
  ['no Cache-Control means the floor', undefined, 60],
  ['max-age above the ceiling is cut to 24 h', 'public, max-age=99999999', 24 * 60 * 60],
])('Cache-Control: %s', async (_what, cacheControl, seconds) => {
  const url = documents.serveJson(
    path('cached'),
    (self) => aDocument(self),
    cacheControl === undefined ? {} : { 'cache-control': cacheControl },
  );
  const pathname = new URL(url).pathname;
  accepted(await authorize(auth.issuer, url));
  offsetMs = seconds * SECOND - SECOND;
  accepted(await authorize(auth.issuer, url));
  expect(documents.requests(pathname)).toBe(1);
  offsetMs = seconds * SECOND + SECOND;
  accepted(await authorize(auth.issuer, url));
  expect(documents.requests(pathname)).toBe(2);
});

test('a refusal is remembered for 10 seconds, then the URL is fetched again (a fixed document is then accepted)', async () => {
  let broken = true;
  const url = documents.serve(path('flaky'), (_req, res) => {
    if (broken) res.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
    else
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(aDocument(url)));
  });
  const pathname = new URL(url).pathname;
  const refusal = refusedWith(
    `the client metadata document at ${url} answered 500; it must answer 200 with the document`,
  );
  expect((await authorize(auth.issuer, url)).message).toBe(refusal);
  broken = false;
  offsetMs = 9 * SECOND;
  expect((await authorize(auth.issuer, url)).message).toBe(refusal);
  expect(documents.requests(pathname)).toBe(1);
  offsetMs = 11 * SECOND;
  accepted(await authorize(auth.issuer, url));
  expect(documents.requests(pathname)).toBe(2);
});

test('40 parallel authorization requests for one new document: one fetch, all 40 go on to sign-in', async () => {
  const url = documents.serve(path('parallel'), (_req, res) => {
    setTimeout(
      () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(aDocument(url))),
      200,
    );
  });
  const answers = await Promise.all(Array.from({ length: 40 }, () => authorize(auth.issuer, url)));
  for (const answer of answers) accepted(answer);
  expect(documents.requests(new URL(url).pathname)).toBe(1);
});

test('40 parallel authorization requests for one failing document: one fetch, all 40 refused the same way', async () => {
  const url = documents.serve(path('parallel-failing'), (_req, res) => {
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('not json'),
      200,
    );
  });
  const answers = await Promise.all(Array.from({ length: 40 }, () => authorize(auth.issuer, url)));
  const refusal = refusedWith(
    `the client metadata document at ${url} is not valid JSON; serve the client metadata as a JSON object`,
  );
  expect(answers.map((answer) => answer.message)).toEqual(
    Array.from({ length: 40 }, () => refusal),
  );
  expect(documents.requests(new URL(url).pathname)).toBe(1);
});

test('the fetch connects to the address it checked: a name only the injected resolver knows, resolved once, over https', async () => {
  const url = tlsDocuments.serveJson('/pinned.json', (self) =>
    aDocument(self.replace('127.0.0.1', DOCUMENT_HOST_NAME)),
  );
  const clientId = url.replace('127.0.0.1', DOCUMENT_HOST_NAME);
  accepted(await authorize(pinned.issuer, clientId));
  expect(resolver.calls).toEqual([DOCUMENT_HOST_NAME]);
  expect(tlsDocuments.requests('/pinned.json')).toBe(1);
});

test('an https document whose certificate the server does not trust is refused', async () => {
  const url = tlsDocuments.serveJson('/untrusted.json', (self) => aDocument(self));
  expect((await authorize(auth.issuer, url)).message).toBe(
    refusedWith(
      `the client metadata document at ${url} could not be fetched (no connection or no valid TLS certificate); check that it is served over https at that URL`,
    ),
  );
});

test('each refusal is logged once with its reason, without the document (which may hold a secret)', async () => {
  const url = documents.serveJson(path('logged'), (self) =>
    aDocument(self, { client_secret: 'hunter2-never-logged' }),
  );
  logLines.length = 0;
  await authorize(auth.issuer, url);
  await authorize(auth.issuer, url);
  const refusals = logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'client metadata document refused');
  expect(refusals).toEqual([
    expect.objectContaining({ level: 40, clientId: url, reason: 'client-secret' }),
  ]);
  expect(logLines.join('\n')).not.toContain('hunter2');
});
