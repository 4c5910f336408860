import type { UsageEvent, UsageWriter } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import type { UsagePolicy } from '../config.js';
import { failureOf, type UsageMetrics } from './usage-metrics.js';

const WARN_EVERY_MS = 10_000;

/**
 * A failure the same rows may pass later: no SQLSTATE (a socket error, a timeout) or one of the
 * classes of an unreachable, restarting, overloaded or conflicting server (08, 40, 53, 57, 58).
 * Anything else (a data or constraint error) would fail again, and rows kept for a retry go
 * first: kept, they would hold up every later row until the bound dropped them all.
 */
function retryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || ['08', '40', '53', '57', '58'].includes(code.slice(0, 2));
}

/**
 * Accepted events, held in memory and written in batches: every `flushIntervalMs`, and as soon
 * as `flushRows` are waiting, one `append` (one statement) per at most `flushRows` rows. A
 * write that failed for a reason that passes (the database down) keeps its rows, in order, for
 * the next attempt; past `maxBufferedRows` the oldest are dropped and counted. Rows the database
 * refuses as such are dropped and counted at once. One write at a time, so rows reach the database in the order
 * they came.
 */
export class EventBuffer {
  private rows: UsageEvent[] = [];
  private writing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout | null;
  /** Drops since the last warning: one line per interval, not one per request, while the database is down. */
  private unreported = 0;
  private warnedAt = 0;

  constructor(
    private readonly writer: Pick<UsageWriter, 'append'>,
    private readonly policy: Pick<UsagePolicy, 'flushIntervalMs' | 'flushRows' | 'maxBufferedRows'>,
    private readonly metrics: UsageMetrics,
    private readonly log: Logger,
  ) {
    // A tick during a slow write is skipped rather than queued behind it.
    const tick = () => {
      if (this.writing === null) void this.flush();
    };
    this.timer = policy.flushIntervalMs > 0 ? setInterval(tick, policy.flushIntervalMs) : null;
    this.timer?.unref();
  }

  get size(): number {
    return this.rows.length;
  }

  add(events: readonly UsageEvent[]): void {
    for (const event of events) this.rows.push(event);
    this.bound();
    // A write under way goes on with the next full batch itself.
    if (this.rows.length >= this.policy.flushRows && this.writing === null) void this.flush();
  }

  /** Writes what is buffered now (after a write under way); stops at the first failure, keeping its rows. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    this.writing = this.drain().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  /** Stops the timer and writes what is left (one more attempt: what fails then is lost with the process). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    if (this.rows.length > 0) this.log.warn({ rows: this.rows.length }, 'usage events not written at shutdown: the database did not take them');
  }

  /** Writes the rows buffered when it starts; rows arriving meanwhile wait for the next interval, unless a full write's worth is waiting. */
  private async drain(): Promise<void> {
    let due = this.rows.length;
    while (this.rows.length > 0 && (due > 0 || this.rows.length >= this.policy.flushRows)) {
      const batch = this.rows.splice(0, this.policy.flushRows);
      due -= batch.length;
      const end = this.metrics.flushSeconds.startTimer({ kind: 'events' });
      try {
        await this.writer.append(batch);
        end({ outcome: 'ok' });
        this.metrics.written.inc({ kind: 'events' }, batch.length);
      } catch (error) {
        end({ outcome: 'failed' });
        if (!retryable(error)) {
          this.metrics.dropped.inc({ kind: 'events' }, batch.length);
          this.log.warn({ failure: failureOf(error), rows: batch.length }, 'usage events refused by the database: dropped');
          continue;
        }
        this.rows = batch.concat(this.rows);
        const dropped = this.bound();
        this.log.warn({ failure: failureOf(error), rows: batch.length, buffered: this.rows.length, dropped }, 'usage events not written; kept for the next attempt');
        return;
      }
    }
  }

  /** Drops the oldest rows past the bound; returns how many. */
  private bound(): number {
    const excess = this.rows.length - this.policy.maxBufferedRows;
    if (excess <= 0) return 0;
    this.rows.splice(0, excess);
    this.metrics.dropped.inc({ kind: 'events' }, excess);
    this.unreported += excess;
    const now = Date.now();
    if (now - this.warnedAt >= WARN_EVERY_MS) {
      this.log.warn({ dropped: this.unreported, buffered: this.rows.length }, 'usage buffer full: oldest events dropped');
      this.unreported = 0;
      this.warnedAt = now;
    }
    return excess;
  }
}
