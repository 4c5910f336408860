/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerUser, type DomainDeps, type RolloutFigures, type UsageReader, type User } from '@cp/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Redis } from 'ioredis';
import { createApp } from '../../src/app.js';
import { grantLookupFromMap } from '@cp/domain/testing';
import { type AppConfig, makeConfig, type RateLimitConfig, defaultRateLimits } from '../../src/config.js';
import { silentLogger, type Logger } from '@cp/http-runtime';
import { createRateLimits } from '../../src/rate-limit/limiter.js';
import { startTestIssuer, type TestIssuer, type TokenOptions } from './test-issuer.js';

export interface Harness {
  readonly baseUrl: string;
  readonly mcpUrl: string;
  readonly issuer: TestIssuer;
  readonly config: AppConfig;
  readonly domain: DomainDeps;
  /** A token for `user` (default: all scopes). */
  tokenFor(user: User, options?: TokenOptions): Promise<string>;
  /** An SDK client connected with `Authorization: Bearer <token>`. */
  connect(token: string | null): Promise<Client>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly domain: DomainDeps;
  /** Only get_component_usage reads it; without it, that tool fails as a server error would. */
  readonly usage?: UsageReader;
  /** Only get_rollout reads it; without it, that tool fails as a server error would. */
  readonly figures?: RolloutFigures;
  readonly rateLimit?: Partial<RateLimitConfig>;
  readonly redis?: Redis | null;
  readonly rateLimitPrefix?: string;
  readonly grantCacheSeconds?: number;
  readonly jwksCooldownMs?: number;
  readonly tokenCacheSeconds?: number;
  readonly jwksMaxAgeMs?: number;
  /** The verified-token cache's clock (AppDeps.now). */
  readonly now?: () => number;
  readonly log?: Logger;
  readonly config?: Partial<AppConfig>;
}

const missing = (): never => {
  throw new Error('this harness was started without a usage reader (HarnessOptions.usage)');
};
const noUsageReader: UsageReader = { series: missing, topErrors: missing, organizationTotals: missing };
const noRolloutFigures: RolloutFigures = {
  sessions: () => {
    throw new Error('this harness was started without rollout figures (HarnessOptions.figures)');
  },
};

/** The MCP server on a real port (0), wired by createApp, with a test issuer beside it. */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const issuer = await startTestIssuer({ audience: mcpUrl });
  const config = makeConfig({
    port,
    publicUrl: mcpUrl,
    auth: {
      ...makeConfig({ port }).auth,
      issuer: issuer.issuer,
      grantCacheSeconds: options.grantCacheSeconds ?? 30,
      jwksCooldownMs: options.jwksCooldownMs ?? 30_000,
      ...(options.tokenCacheSeconds === undefined ? {} : { tokenCacheSeconds: options.tokenCacheSeconds }),
      ...(options.jwksMaxAgeMs === undefined ? {} : { jwksMaxAgeMs: options.jwksMaxAgeMs }),
    },
    rateLimit: { ...defaultRateLimits, ...options.rateLimit },
    ...options.config,
  });
  const app = createApp({
    config,
    domain: options.domain,
    usage: options.usage ?? noUsageReader,
    figures: options.figures ?? noRolloutFigures,
    grants: grantLookupFromMap(issuer.grants),
    rateLimits: createRateLimits(config.rateLimit, { redis: options.redis ?? null, keyPrefix: options.rateLimitPrefix }),
    log: options.log ?? silentLogger(),
    now: options.now,
  });
  server.on('request', app);
  const clients: Client[] = [];

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    mcpUrl,
    issuer,
    config,
    domain: options.domain,
    tokenFor: (user, token = {}) => issuer.sign({ sub: user.id, ...token }),
    async connect(token) {
      const client = new Client({ name: 'mcp-server-tests', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: token === null ? {} : { headers: { Authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await issuer.close();
    },
  };
}

let userCounter = 0;

/** A user with a personal organization (staging and prod environments). */
export async function aUser(domain: DomainDeps, email = `user${++userCounter}-${Date.now()}@example.com`): Promise<User> {
  return registerUser({ email }, domain);
}

/** Raw JSON-RPC over fetch, for what the SDK client would never send. */
export async function rpc(
  url: string,
  body: unknown,
  options: { token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
