import type { ChangeStreamPolicy } from '../config.js';
import type { ChangeEvents } from './change-feed.js';
import { ChangeStream, sse, type StreamSink } from './change-stream.js';
import { EventRing } from './event-ring.js';

export type StreamRefusal = 'client' | 'instance';

export interface OpenedStream {
  readonly stream: ChangeStream;
  /** Unregisters the stream (idempotent): on the client's disconnect, or after `endAll`. */
  readonly release: () => void;
}

/**
 * Every open change stream of this instance, fed by the change feed (it is a
 * `ChangeEvents` subscriber): an index from watched id to streams, the ring of
 * recent records for resuming, the caps, and one heartbeat timer for them all
 * (running only while a stream is open).
 */
export class ChangeStreams implements ChangeEvents {
  private readonly streams = new Set<ChangeStream>();
  private readonly watchers = new Map<string, Set<ChangeStream>>();
  private readonly perClient = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly policy: ChangeStreamPolicy,
    readonly ring: EventRing = new EventRing(),
  ) {}

  get size(): number {
    return this.streams.size;
  }

  /**
   * Registers a stream if the caps allow it. Synchronous from check to count, so
   * parallel opens cannot overshoot a cap.
   */
  open(sink: StreamSink, client: string, ids: ReadonlySet<string>): OpenedStream | { refused: StreamRefusal } {
    if (this.streams.size >= this.policy.maxStreams) return { refused: 'instance' };
    const fromClient = this.perClient.get(client) ?? 0;
    if (fromClient >= this.policy.maxStreamsPerClient) return { refused: 'client' };

    const stream = new ChangeStream(sink, client, ids);
    this.streams.add(stream);
    this.perClient.set(client, fromClient + 1);
    for (const id of ids) {
      let set = this.watchers.get(id);
      if (set === undefined) this.watchers.set(id, (set = new Set()));
      set.add(stream);
    }
    this.heartbeat ??= setInterval(() => this.beat(), this.policy.heartbeatMs);
    let released = false;
    return {
      stream,
      release: () => {
        if (released) return;
        released = true;
        this.forget(stream);
      },
    };
  }

  /**
   * What a stream resuming from `lastEventId` must be sent first: the missed records
   * (its `send` filters them by id), or a reset when that point is unknown or too old.
   */
  resume(stream: ChangeStream, lastEventId: string | undefined): void {
    const head = this.ring.eventId(this.ring.lastSeq);
    stream.write(sse.preamble());
    if (lastEventId === undefined) {
      stream.write(sse.position(head));
      return;
    }
    const missed = this.ring.after(lastEventId);
    if (missed === null) {
      stream.write(sse.reset(head));
      return;
    }
    for (const record of missed) stream.send(record, this.ring.eventId(record.seq));
    stream.write(sse.position(head));
  }

  changed(id: string): void {
    const record = this.ring.append(id);
    const streams = this.watchers.get(id);
    if (streams === undefined) return;
    const eventId = this.ring.eventId(record.seq);
    for (const stream of streams) stream.send(record, eventId);
  }

  /** Never announced: streams are anonymous (EventSource sends no headers), and private previews are not theirs to hear of. */
  changedPrivately(): void {}

  missed(): void {
    const record = this.ring.append(null);
    const eventId = this.ring.eventId(record.seq);
    for (const stream of this.streams) stream.send(record, eventId);
  }

  /** Shutdown: ends every stream (clients reconnect, to another instance) and stops the timer. */
  endAll(): void {
    for (const stream of [...this.streams]) {
      stream.end();
      this.forget(stream);
    }
  }

  private beat(): void {
    const text = sse.heartbeat(this.ring.eventId(this.ring.lastSeq));
    for (const stream of this.streams) stream.write(text);
  }

  private forget(stream: ChangeStream): void {
    if (!this.streams.delete(stream)) return;
    const left = (this.perClient.get(stream.client) ?? 1) - 1;
    if (left === 0) this.perClient.delete(stream.client);
    else this.perClient.set(stream.client, left);
    for (const id of stream.ids) {
      const set = this.watchers.get(id);
      set?.delete(stream);
      if (set?.size === 0) this.watchers.delete(id);
    }
    if (this.streams.size === 0 && this.heartbeat !== null) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }
}
