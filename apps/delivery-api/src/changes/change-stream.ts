import type { ChangeRecord } from './event-ring.js';

/** Where a stream writes: the part of a ServerResponse it uses. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  destroy(): void;
  readonly writableLength: number;
}

/** The SDK's reconnection delay (`retry:`), in milliseconds. */
export const RETRY_MS = 2000;

/**
 * A client that stops reading is cut off once this much is queued for it: the
 * events are tiny, so only a stalled connection gets here.
 */
const MAX_QUEUED_BYTES = 64 * 1024;

/*
 * The text/event-stream format (WHATWG HTML, "Server-sent events"). A block with
 * an `id:` field and no `data:` updates the client's last event id without
 * dispatching an event: the stream's start and its heartbeats carry the newest
 * id so that a reconnect resumes from there.
 */
export const sse = {
  preamble: (): string => `retry: ${RETRY_MS}\n\n`,
  change: (eventId: string, id: string): string => `event: change\nid: ${eventId}\ndata: ${JSON.stringify({ id })}\n\n`,
  reset: (eventId: string): string => `event: reset\nid: ${eventId}\ndata: {}\n\n`,
  position: (eventId: string): string => `id: ${eventId}\n\n`,
  heartbeat: (eventId: string): string => `: keep-alive\nid: ${eventId}\n\n`,
};

/** One open `GET /changes` response: the ids it watches, and its writes. */
export class ChangeStream {
  private ended = false;

  constructor(
    private readonly sink: StreamSink,
    readonly client: string,
    readonly ids: ReadonlySet<string>,
  ) {}

  /** A record as its event (a reset whatever the ids; a change only for a watched id). */
  send(record: ChangeRecord, eventId: string): void {
    if (record.id === null) this.write(sse.reset(eventId));
    else if (this.ids.has(record.id)) this.write(sse.change(eventId, record.id));
  }

  write(text: string): void {
    if (this.ended) return;
    if (this.sink.writableLength > MAX_QUEUED_BYTES) {
      this.ended = true;
      this.sink.destroy();
      return;
    }
    this.sink.write(text);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.sink.end();
  }
}
