import { randomBytes } from 'node:crypto';

/** One thing that happened on the change feed: a changed id, or `null` for "changes may have been missed". */
export interface ChangeRecord {
  readonly seq: number;
  readonly id: string | null;
}

/** Recent changes kept for resuming a stream; older ones are forgotten (a resume from before them gets a reset). */
export const RING_CAPACITY = 1024;

/**
 * The last `capacity` change records of this process, numbered from 1. Event ids
 * are `<epoch>-<seq>`: the epoch is drawn at start, so an id from another process
 * (or from before a restart) is recognised as foreign rather than misread.
 */
export class EventRing {
  readonly epoch: string;
  private readonly records: (ChangeRecord | undefined)[];
  private last = 0;

  constructor(
    private readonly capacity = RING_CAPACITY,
    epoch: string = randomBytes(6).toString('hex'),
  ) {
    this.epoch = epoch;
    this.records = new Array<ChangeRecord | undefined>(capacity);
  }

  /** Sequence number of the newest record (0 before the first). */
  get lastSeq(): number {
    return this.last;
  }

  append(id: string | null): ChangeRecord {
    this.last += 1;
    const record = { seq: this.last, id };
    this.records[this.last % this.capacity] = record;
    return record;
  }

  eventId(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  /**
   * The records after the one `eventId` names, oldest first; `null` when that point
   * cannot be resumed from: malformed, another epoch, in the future, or so old that
   * records after it were already forgotten.
   */
  after(eventId: string): ChangeRecord[] | null {
    const dash = eventId.lastIndexOf('-');
    if (dash === -1 || eventId.slice(0, dash) !== this.epoch) return null;
    const digits = eventId.slice(dash + 1);
    if (!/^\d{1,15}$/.test(digits)) return null;
    const seq = Number(digits);
    if (seq > this.last || seq < this.last - this.capacity) return null;
    const out: ChangeRecord[] = [];
    for (let next = seq + 1; next <= this.last; next += 1) out.push(this.records[next % this.capacity]!);
    return out;
  }
}
