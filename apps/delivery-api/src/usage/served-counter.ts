import type { ConsumeTarget, LoadedConsume } from '@cp/consume';
import { PREVIEW_ENVIRONMENT, type ServedCount, type UsageWriter } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import type { UsagePolicy } from '../config.js';
import { failureOf, type UsageMetrics } from './usage-metrics.js';

/** What a cached `/consume` response counts itself with, each time it is sent (200 or 304). */
export interface ServedSlot {
  count(): void;
}

/** Where /consume responses are counted: a ServedCounter. */
export interface ServedSlots {
  slot(componentId: string, environment: string, variantId: string): ServedSlot;
}

/** The served count a /consume response carries, built once with it. */
export const servedSlotOf = (slots: ServedSlots, target: ConsumeTarget, loaded: LoadedConsume): ServedSlot =>
  slots.slot(target.componentId, target.environment ?? PREVIEW_ENVIRONMENT, loaded.response.item.consume_variant[0]!.id);

const MINUTE_MS = 60_000;

/** One component, environment and variant: built with the cached response, so sending it allocates nothing. */
class Slot implements ServedSlot {
  n = 0;
  constructor(
    private readonly active: Set<Slot>,
    readonly componentId: string,
    readonly environment: string,
    readonly variantId: string,
  ) {}

  count(): void {
    if (this.n++ === 0) this.active.add(this);
  }
}

/**
 * `/consume` responses per component, environment and variant, counted in memory and written
 * with `addServed` every `servedFlushIntervalMs`. Periods start on multiples of the interval
 * (which divides a minute), so each lies within one minute and is counted in it. A failed write
 * keeps its counts for the next one, up to `maxBufferedRows` rows (then the oldest are dropped).
 */
export class ServedCounter implements ServedSlots {
  private readonly active = new Set<Slot>();
  /** Taken from the slots, not written yet; insertion order is oldest first. */
  private pending = new Map<string, { -readonly [K in keyof ServedCount]: ServedCount[K] }>();
  private periodStart = Date.now();
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly writer: Pick<UsageWriter, 'addServed'>,
    private readonly policy: Pick<UsagePolicy, 'servedFlushIntervalMs' | 'maxBufferedRows'>,
    private readonly metrics: UsageMetrics,
    private readonly log: Logger,
  ) {
    this.schedule();
  }

  slot(componentId: string, environment: string, variantId: string): ServedSlot {
    return new Slot(this.active, componentId, environment, variantId);
  }

  /** Takes the counts so far and writes them with what earlier writes left. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    this.take(Date.now());
    this.writing = this.write().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
    if (this.pending.size > 0) this.log.warn({ rows: this.pending.size }, 'served counts not written at shutdown: the database did not take them');
  }

  private schedule(): void {
    const interval = this.policy.servedFlushIntervalMs;
    if (interval <= 0 || this.closed) return;
    this.timer = setTimeout(() => {
      void this.flush();
      this.schedule();
    }, interval - (Date.now() % interval));
    this.timer.unref();
  }

  private take(now: number): void {
    const minute = new Date(Math.floor(this.periodStart / MINUTE_MS) * MINUTE_MS);
    this.periodStart = now;
    for (const slot of this.active) {
      const key = `${slot.componentId}\u0000${slot.environment}\u0000${slot.variantId}\u0000${minute.getTime()}`;
      const row = this.pending.get(key);
      if (row) row.count += slot.n;
      else this.pending.set(key, { minute, componentId: slot.componentId, environment: slot.environment, variantId: slot.variantId, count: slot.n });
      slot.n = 0;
    }
    this.active.clear();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = this.pending;
    this.pending = new Map();
    const end = this.metrics.flushSeconds.startTimer({ kind: 'served' });
    try {
      await this.writer.addServed([...rows.values()]);
      end({ outcome: 'ok' });
      this.metrics.written.inc({ kind: 'served' }, rows.size);
    } catch (error) {
      end({ outcome: 'failed' });
      // Counted meanwhile comes after (newer): the failed rows go first again.
      for (const [key, row] of this.pending) {
        const earlier = rows.get(key);
        if (earlier) earlier.count += row.count;
        else rows.set(key, row);
      }
      this.pending = rows;
      let excess = this.pending.size - this.policy.maxBufferedRows;
      if (excess > 0) this.metrics.dropped.inc({ kind: 'served' }, excess);
      for (const key of this.pending.keys()) {
        if (excess-- <= 0) break;
        this.pending.delete(key);
      }
      this.log.warn({ failure: failureOf(error), rows: this.pending.size }, 'served counts not written; kept for the next attempt');
    }
  }
}
