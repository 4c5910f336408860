import { generateKeyPairSync, randomBytes, randomUUID, createHash } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { freePort, startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createObjectStore, DEFAULT_REGION } from '@cp/storage';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FormBrowser } from '../../../auth-server/test/support/form-browser.js';
import { RecordingProvider } from '../../../auth-server/test/support/sdk-provider.js';
import { startS3Target, type S3Target } from '../../../../packages/storage/test/support/s3-target.js';
import { ServiceProcess } from './processes.js';

/*
 * The production topology without Docker (issue 6): each service its own process, as
 * production runs it, against PostgreSQL (a fresh database), an S3 server (the one
 * S3_ENDPOINT names, e.g. the Ceph RADOS Gateway of packages/storage/scripts/rgw.sh,
 * else the embedded one) and, when REDIS_URL is set, Redis. The outage tests (issue 24)
 * put a fault proxy between the services and PostgreSQL or S3.
 */

export interface TopologyOptions {
  /** PostgreSQL, e.g. postgresql://postgres@127.0.0.1:5432/postgres: a fresh database is created on it. */
  readonly databaseUrl: string;
  readonly redisUrl?: string;
  /** How many delivery instances (default 2). */
  readonly deliveries?: number;
  /** Also start the dashboard and the worker. */
  readonly dashboard?: boolean;
  readonly worker?: boolean;
  /** Services reach PostgreSQL through a fault proxy (`topology.databaseProxy`). */
  readonly databaseProxy?: boolean;
  /** Services reach S3 through a fault proxy (`topology.s3Proxy`); presigned URLs still name the S3 server. */
  readonly s3Proxy?: boolean;
  /** Extra settings for every service (after the defaults). */
  readonly env?: Record<string, string>;
}

export interface Topology {
  readonly db: TestDatabase;
  readonly s3: S3Target;
  readonly bucket: string;
  readonly auth: ServiceProcess;
  readonly mcp: ServiceProcess;
  readonly deliveries: readonly ServiceProcess[];
  readonly dashboard: ServiceProcess | null;
  readonly worker: ServiceProcess | null;
  /** Every service started, in start order. */
  readonly services: readonly ServiceProcess[];
  readonly mcpUrl: string;
  readonly databaseProxy: FaultProxy | null;
  readonly s3Proxy: FaultProxy | null;
  /** The account signed up (its password is `PASSWORD`). */
  readonly email: string;
  /** The form browser that signed in (its cookies: /account, consent). */
  readonly browser: FormBrowser;
  /** The OAuth client's provider, holding the tokens of the signed-in account. */
  readonly provider: RecordingProvider;
  /** A connected MCP SDK client for the signed-in account. */
  mcpClient(): Promise<Client>;
  /** SIGTERM to every service (their exit codes, in `services` order), then the proxies, S3 and the database. */
  close(): Promise<(number | null)[]>;
}

export const PASSWORD = 'correct horse battery staple';

function signingKeys(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');
  return JSON.stringify({ keys: [{ ...jwk, kid, alg: 'ES256', use: 'sig' }] });
}

const through = (url: string, proxy: FaultProxy | null): string => {
  if (proxy === null) return url;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.href;
};

const proxyFor = async (url: string): Promise<FaultProxy> => {
  const target = new URL(url);
  const port = target.port === '' ? (target.protocol === 'https:' ? 443 : target.protocol === 'http:' ? 80 : 5432) : Number(target.port);
  return startFaultProxy({ host: target.hostname, port });
};

/** Starts the topology and signs an account in with the MCP SDK client (OAuth: sign-up and consent over HTTP). */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const [db, s3] = await Promise.all([createTestDatabase({ kind: 'postgres', databaseUrl: options.databaseUrl }), startS3Target()]);
  const databaseProxy = options.databaseProxy ? await proxyFor(db.url!) : null;
  const s3Proxy = options.s3Proxy ? await proxyFor(s3.config.endpoint) : null;
  // A bucket of its own, removed afterwards: the services write outside the test key prefix.
  const bucket = `cp-topology-${randomUUID()}`;
  s3.dropBucketOnClose(bucket);
  await createObjectStore({ ...s3.config, bucket }).ensureBucket();

  const deliveryCount = options.deliveries ?? 2;
  const [authPort, mcpPort, dashboardPort, workerPort, ...deliveryPorts] = await Promise.all(
    Array.from({ length: 4 + deliveryCount }, () => freePort()),
  );
  const issuer = `http://127.0.0.1:${authPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const redisEnv: Record<string, string> = options.redisUrl ? { REDIS_URL: options.redisUrl } : {};
  const common = { DATABASE_URL: through(db.url!, databaseProxy), SHUTDOWN_GRACE_SECONDS: '2' };
  const s3Env: Record<string, string> = {
    S3_ENDPOINT: through(s3.config.endpoint, s3Proxy).replace(/\/$/, ''),
    // Presigned URLs go to the S3 server itself: the client's PUT is not what the proxy cuts.
    ...(s3Proxy !== null || s3.config.publicEndpoint ? { S3_PUBLIC_ENDPOINT: s3.config.publicEndpoint ?? s3.config.endpoint } : {}),
    S3_ACCESS_KEY: s3.config.accessKey,
    S3_SECRET_KEY: s3.config.secretKey,
    S3_BUCKET: bucket,
    S3_REGION: s3.config.region || DEFAULT_REGION,
  };
  const dashboardClient: Record<string, string> = options.dashboard
    ? { DASHBOARD_CLIENT_ID: 'dashboard', DASHBOARD_CLIENT_SECRET: randomBytes(24).toString('hex'), DASHBOARD_URL: dashboardUrl }
    : {};
  const extra = options.env ?? {};

  const auth = new ServiceProcess('auth-server', 'auth-server', issuer, {
    ...common,
    AUTH_PORT: String(authPort),
    AUTH_HOST: '127.0.0.1',
    AUTH_ISSUER: issuer,
    MCP_PUBLIC_URL: mcpUrl,
    AUTH_SIGNING_KEYS: signingKeys(),
    AUTH_COOKIE_KEYS: randomBytes(32).toString('hex'),
    ...dashboardClient,
    ...redisEnv,
    ...extra,
  });
  const mcp = new ServiceProcess('mcp-server', 'mcp-server', `http://127.0.0.1:${mcpPort}`, {
    ...common,
    ...s3Env,
    MCP_PORT: String(mcpPort),
    MCP_HOST: '127.0.0.1',
    MCP_PUBLIC_URL: mcpUrl,
    AUTH_ISSUER: issuer,
    AUTH_GRANT_CACHE_SECONDS: '1',
    ...redisEnv,
    RATE_LIMIT_USER_POINTS: '100000',
    RATE_LIMIT_IP_POINTS: '100000',
    RATE_LIMIT_UPLOAD_POINTS: '100000',
    ...extra,
  });
  const deliveries = deliveryPorts.map(
    (port, i) =>
      new ServiceProcess(`delivery-${i + 1}`, 'delivery-api', `http://127.0.0.1:${port}`, {
        ...common,
        ...s3Env,
        DELIVERY_PORT: String(port),
        DELIVERY_HOST: '127.0.0.1',
        DELIVERY_PUBLIC_URL: `http://127.0.0.1:${port}`,
        ...extra,
      }),
  );
  const dashboard = options.dashboard
    ? new ServiceProcess('dashboard', 'dashboard', dashboardUrl, {
        ...common,
        ...s3Env,
        ...dashboardClient,
        DASHBOARD_PORT: String(dashboardPort),
        DASHBOARD_HOST: '127.0.0.1',
        DASHBOARD_SESSION_KEYS: randomBytes(32).toString('hex'),
        AUTH_ISSUER: issuer,
        MCP_PUBLIC_URL: mcpUrl,
        DELIVERY_PUBLIC_URL: deliveries[0]?.url ?? 'http://127.0.0.1:1',
        ...extra,
      })
    : null;
  const worker = options.worker
    ? new ServiceProcess('worker', 'worker', `http://127.0.0.1:${workerPort}`, {
        ...common,
        ...s3Env,
        WORKER_PORT: String(workerPort),
        WORKER_HOST: '127.0.0.1',
        WORKER_POLL_SECONDS: '0.5',
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        ...extra,
      })
    : null;
  const services = [auth, mcp, ...deliveries, ...(dashboard ? [dashboard] : []), ...(worker ? [worker] : [])];

  const close = async () => {
    const codes = await Promise.all(services.map((service) => service.stop()));
    await databaseProxy?.close();
    await s3Proxy?.close();
    await s3.close();
    await db.close();
    return codes;
  };

  try {
    // Several processes compile their TypeScript at once on a small machine: a generous wait.
    await Promise.all(services.map((service) => service.start(90_000)));

    // OAuth with the SDK client: 401 -> metadata -> registration -> sign-up and consent over HTTP -> code exchange.
    const provider = new RecordingProvider('http://localhost:45123/callback');
    const mcpClient = async () => {
      const client = new Client({ name: 'topology', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
      return client;
    };
    const unauthorized = await mcpClient().then(
      () => null,
      (error: unknown) => error,
    );
    if (!(unauthorized instanceof UnauthorizedError)) throw new Error(`expected the first connection to ask for OAuth, got ${String(unauthorized)}`);
    const browser = new FormBrowser();
    const login = await browser.open(provider.authorizationUrl!.href);
    const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)![1]!;
    const email = `topology-${randomUUID()}@example.com`;
    const consent = await browser.submit(await browser.open(new URL(signupHref, auth.url).href), { email, password: PASSWORD });
    const callback = new URL((await browser.submit(consent, { decision: 'allow' })).url);
    await new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }).finishAuth(callback.searchParams.get('code')!);

    return { db, s3, bucket, auth, mcp, deliveries, dashboard, worker, services, mcpUrl, databaseProxy, s3Proxy, email, browser, provider, mcpClient, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
