import { CHANGE_CHANNELS, ChangeHub, type ChangeFeed } from './change-feed.js';

/** The part of a PGlite instance a feed needs (PGlite delivers NOTIFY in process). */
export interface PGliteListener {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** LISTEN on the embedded database: its one connection serves every writer of this process. */
export async function createPGliteChangeFeed(db: PGliteListener): Promise<ChangeFeed> {
  const hub = new ChangeHub();
  const unlisten = await Promise.all(CHANGE_CHANNELS.map((channel) => db.listen(channel, (payload) => hub.notify(channel, payload))));
  return {
    listening: Promise.resolve(),
    subscribe: (events) => hub.subscribe(events),
    async close() {
      await Promise.all(unlisten.map((stop) => stop().catch(() => undefined)));
    },
  };
}
