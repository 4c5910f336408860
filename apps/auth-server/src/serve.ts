import { resolve } from 'node:path';
import type { Credentials, DomainDeps, OidcStorage } from '@cp/domain';
import { createMetrics, type Metrics, type RunningService, serveHttp } from '@cp/http-runtime';
import { connectRedis, type Redis } from '@cp/http-runtime/rate-limit';
import { createApp } from './app.js';
import type { Env } from './env.js';
import { loadOrCreateLocalSecrets } from './keys/local-secrets.js';
import type { Logger } from '@cp/http-runtime';
import { createDevicePolls } from './security/device-polls.js';
import { createThrottles } from './security/throttle.js';

export interface ServeAuthOptions {
  readonly env: Env;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly credentials: Credentials;
  readonly oidc: OidcStorage;
  readonly log: Logger;
  /** Where a relative AUTH_SECRETS_FILE is resolved (the embedded stack passes the repository root). */
  readonly root?: string;
}

/**
 * Builds the app from ready dependencies and listens; purges expired OIDC rows
 * every `purgeIntervalSeconds`. Without configured keys (development only: env.ts
 * refuses that in production) the keys come from the local secrets file,
 * generated on the first start. With `redisUrl` the throttles count in Redis, which
 * must answer now: otherwise this throws a message that says what to start.
 */
export async function serveAuth(options: ServeAuthOptions): Promise<RunningService<Metrics>> {
  const { env, log } = options;
  const redis =
    env.redisUrl === null
      ? null
      : await connectRedis(env.redisUrl, { log, whileDown: 'sign-in, sign-up and client registration answer 503 until it is back' });
  if (redis === null && env.production) {
    log.warn('REDIS_URL is not set: throttles count in this process only (reset on restart, multiplied by the number of instances)');
  }
  try {
    return await listenAuth(options, redis);
  } catch (error) {
    redis?.disconnect();
    throw error;
  }
}

async function listenAuth(options: ServeAuthOptions, redis: Redis | null): Promise<RunningService<Metrics>> {
  const { env, log } = options;
  const local =
    env.signingKeys === null || env.cookieKeys === null
      ? await loadOrCreateLocalSecrets(resolve(options.root ?? process.cwd(), env.localSecretsFile))
      : null;
  const config = { ...env.config, cookieKeys: env.cookieKeys ?? local?.cookieKeys ?? [] };
  const metrics = createMetrics({ service: 'auth-server' });
  const store = { redis, keySecret: config.cookieKeys[0] ?? '' };
  const devicePolls = createDevicePolls({ config: config.deviceFlow, store, log });
  const server = await serveHttp({
    listener: (draining) =>
      createApp({
        metrics,
        draining,
        config,
        signingKeys: env.signingKeys ?? local?.signingKeys ?? [],
        domain: options.domain,
        credentials: options.credentials,
        oidc: options.oidc,
        throttles: createThrottles(config.throttle, store),
        devicePolls,
        log,
      }),
    port: env.port,
    host: env.host,
    graceSeconds: env.shutdownGraceSeconds,
    log,
  });
  log.info(
    { port: server.port, issuer: config.issuer, resource: config.mcpResourceUrl, signup: config.signupEnabled, throttles: redis === null ? 'memory' : 'redis' },
    'auth server listening',
  );

  const purge = setInterval(() => {
    options.oidc
      .purgeExpired(new Date())
      .then((count) => count > 0 && log.info({ count }, 'purged expired OIDC rows'))
      .catch((error: unknown) => log.warn({ err: error }, 'purging expired OIDC rows failed; will retry'));
  }, env.purgeIntervalSeconds * 1000);
  purge.unref();

  return {
    name: 'Auth server',
    url: config.issuer,
    notes: [
      `Create an account:  ${config.issuer}/signup${config.signupEnabled ? '' : ' (disabled: AUTH_SIGNUP_ENABLED=false)'}`,
      `Connected apps:     ${config.issuer}/account`,
    ],
    port: server.port,
    metrics,
    /** Graceful: drain (grace period), stop the purge timer, then Redis. */
    async close() {
      clearInterval(purge);
      await server.close();
      await redis?.quit().catch(() => undefined);
    },
  };
}
