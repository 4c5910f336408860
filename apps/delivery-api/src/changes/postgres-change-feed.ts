import pg from 'pg';
import type { Logger } from '@cp/http-runtime';
import { CHANGE_CHANNELS, ChangeHub, type ChangeFeed } from './change-feed.js';

const MAX_BACKOFF_MS = 5000;

/**
 * LISTEN on a dedicated connection (a pooled one cannot hold a LISTEN). When it
 * drops, it reconnects with backoff and reports `missed` once listening again:
 * whatever changed meanwhile was not announced.
 */
export function createPostgresChangeFeed(connectionString: string, log: Logger): ChangeFeed {
  const hub = new ChangeHub();
  let client: pg.Client | null = null;
  let closed = false;
  let backoffMs = 250;
  let timer: NodeJS.Timeout | null = null;
  let markListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (markListening = resolve));

  const scheduleReconnect = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    next.on('error', (error) => {
      log.warn({ err: error }, 'change notifications: connection lost; reconnecting');
      if (client === next) client = null;
      void next.end().catch(() => undefined);
      scheduleReconnect();
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
      for (const channel of CHANGE_CHANNELS) await next.query(`LISTEN ${channel}`);
    } catch (error) {
      log.warn({ err: error }, 'change notifications: cannot listen; retrying');
      await next.end().catch(() => undefined);
      scheduleReconnect();
      return;
    }
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
  return {
    listening,
    subscribe: (events) => hub.subscribe(events),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
