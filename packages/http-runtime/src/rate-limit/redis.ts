import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/** Where transitions are reported (a pino logger fits). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface ConnectRedisOptions {
  /** The setting the URL came from, named in messages. Default `REDIS_URL`. */
  readonly setting?: string;
  /** What the service does while Redis is down, logged once per outage. */
  readonly whileDown?: string;
  readonly log?: RedisLog;
  readonly connectTimeoutMs?: number;
  /** A command slower than this fails (so a hung Redis cannot hang requests). */
  readonly commandTimeoutMs?: number;
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
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    // After a failed connection, ioredis keeps a timer this long before it lets the process exit.
    disconnectTimeout: 500,
  });
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
