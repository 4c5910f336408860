import pg from 'pg';
import type { Logger } from '@cp/http-runtime';
import { CHANGE_CHANNELS, ChangeHub, type ChangeFeed } from './change-feed.js';

export interface ChangeFeedTiming {
  /** Longest wait between two connection attempts. */
  readonly maxBackoffMs: number;
  /** How often the listening connection is checked with a query. */
  readonly heartbeatMs: number;
  /** How long a connection attempt or a heartbeat may take before the connection counts as dead. */
  readonly deadlineMs: number;
}

/*
 * A connection that dies loudly (reset, refused) is seen at once; one that goes silent
 * (a partition, a stalled server, a half-open socket after either) is only seen by
 * asking: a heartbeat query every few seconds with a short deadline. Notifications are
 * lost while the connection is dead, so the time to notice it is the longest a change
 * can go unannounced; reconnecting at most a second apart keeps the time after recovery
 * short too, at the cost of one connection attempt a second per instance while the
 * database is down.
 */
export const defaultChangeFeedTiming: ChangeFeedTiming = { maxBackoffMs: 1000, heartbeatMs: 2000, deadlineMs: 1000 };

/** The listening connection's `application_name`: operators (and tests) find it by it in `pg_stat_activity`. */
export const CHANGE_FEED_APPLICATION_NAME = 'cp-change-feed';

export function createPostgresChangeFeed(connectionString: string, log: Logger, timing: ChangeFeedTiming = defaultChangeFeedTiming): ChangeFeed {
  const hub = new ChangeHub();
  let client: pg.Client | null = null;
  let closed = false;
  let backoffMs = 250;
  let timer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let markListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (markListening = resolve));

  let connecting = false;

  /** One connection at a time: none while one is listening or being opened. */
  const scheduleReconnect = () => {
    if (closed || timer || connecting || client !== null) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, backoffMs);
    backoffMs = Math.min(backoffMs * 2, timing.maxBackoffMs);
  };

  /** Drops a connection that stopped answering: `end()` would wait for the dead socket. */
  const drop = (dead: pg.Client) => {
    if (client === dead) client = null;
    (dead as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    void dead.end().catch(() => undefined);
    scheduleReconnect();
  };

  const beat = () => {
    const current = client;
    if (current === null) return;
    current.query({ text: 'SELECT 1', query_timeout: timing.deadlineMs } as pg.QueryConfig).then(
      () => undefined,
      (error: unknown) => {
        if (client !== current) return;
        log.warn({ err: error }, 'change notifications: the connection stopped answering; reconnecting');
        drop(current);
      },
    );
  };

  const connect = async (): Promise<void> => {
    connecting = true;
    const next = new pg.Client({
      connectionString,
      application_name: CHANGE_FEED_APPLICATION_NAME,
      connectionTimeoutMillis: timing.deadlineMs, keepAlive: true, keepAliveInitialDelayMillis: timing.heartbeatMs,
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'change notifications: connection lost; reconnecting');
      drop(next);
    });
    next.on('end', () => {
      if (client === next) {
        client = null;
        scheduleReconnect();
      }
    });
    next.on('notification', (message) => {
      if (message.payload) hub.notify(message.channel, message.payload);
    });
    try {
      await next.connect();
      for (const channel of CHANGE_CHANNELS) await next.query({ text: `LISTEN ${channel}`, query_timeout: timing.deadlineMs } as pg.QueryConfig);
    } catch (error) {
      log.warn({ err: error }, 'change notifications: cannot listen; retrying');
      connecting = false;
      drop(next);
      return;
    }
    connecting = false;
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    backoffMs = 250;
    // Also on the first connection: responses may have been cached before it listened.
    hub.missed();
    markListening();
  };

  void connect();
  heartbeat = setInterval(beat, timing.heartbeatMs);
  heartbeat.unref();
  return {
    listening,
    subscribe: (events) => hub.subscribe(events),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (heartbeat) clearInterval(heartbeat);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
