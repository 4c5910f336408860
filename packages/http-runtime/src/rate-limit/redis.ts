import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/** Where transitions are reported (a pino logger fits). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface ConnectRedisOptions extends Omit<RedisClientOptions, 'lazyConnect'> {
  /** The setting the URL came from, named in messages. Default `REDIS_URL`. */
  readonly setting?: string;
  /** What the service does while Redis is down, logged once per outage. */
  readonly whileDown?: string;
  readonly log?: RedisLog;
}

/**
 * How long a limiter may wait on Redis: a connection attempt, then each command. A
 * hung Redis (a partition, a stalled server) must cost a request a short, bounded wait
 * before the limiter's store-failure policy (memory or refuse) takes over (SECURITY.md,
 * "Redis down, per limiter").
 */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
export const REDIS_COMMAND_TIMEOUT_MS = 750;

/** What a limiter's Redis client is allowed to wait: bounded, in one place for every service. */
export interface RedisClientOptions {
  readonly connectTimeoutMs?: number;
  /** A command slower than this fails (so a hung Redis cannot hang requests). */
  readonly commandTimeoutMs?: number;
  /** Connect at once (default) or at the first command / `connect()`. */
  readonly lazyConnect?: boolean;
}

/**
 * A Redis client for rate limits: commands fail at once while the connection is down
 * (no offline queue), and after the timeouts above while it hangs; ioredis reconnects
 * in the background. Every service's limiter client comes from here.
 */
export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis {
  return new Redis(url, {
    lazyConnect: options.lazyConnect ?? false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    // After a failed connection, ioredis keeps a timer this long before it lets the process exit.
    disconnectTimeout: 500,
  });
}

/** `host:port` of a Redis URL: never its password. */
export function describeRedis(url: string): string {
  const parsed = URL.parse(url);
  return parsed === null ? 'an unparseable URL' : `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * Connects to Redis and checks it answers (PING), or throws an Error that names the
 * server (never the password) and says what to start. Afterwards commands fail at
 * once while the connection is down (no offline queue) and ioredis reconnects in the
 * background; with `log`, each outage and each recovery is logged once.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis> {
  const setting = options.setting ?? 'REDIS_URL';
  const redis = createRedisClient(url, { ...options, lazyConnect: true });
  let lastError: Error | null = null;
  let connected = false;
  let down = false;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (!connected || down || options.log === undefined) return;
    down = true;
    options.log.warn({ err: error, redis: describeRedis(url) }, `redis unavailable${options.whileDown ? `; ${options.whileDown}` : ''}`);
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = (lastError ?? (error as Error)).message;
    const refused = /NOAUTH|WRONGPASS|invalid password|invalid username/i.test(reason);
    throw new Error(
      refused
        ? `Redis at ${describeRedis(url)} (${setting}) refused the connection: ${reason}. Check the password in ${setting}.`
        : `Cannot reach Redis at ${describeRedis(url)} (${setting}): ${reason}. ` +
            `Start Redis there (\`redis-server\`, or \`docker compose -f docker/compose.yml up -d redis\`) or fix ${setting}; ` +
            `or unset ${setting} to count in this process's memory (one instance only).`,
      { cause: error },
    );
  }
  connected = true;
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    options.log?.info({ redis: describeRedis(url) }, 'redis reachable again');
  });
  return redis;
}
