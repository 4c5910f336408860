import type { ErrorDigest } from './error-digest.js';

/** One usage event, wire format v1 (`POST <eventsUrl>/v1/events`, body `{"v":1,"events":[...]}`), docs/host-sdk.md "Usage analytics". */
export interface UsageEvent {
  readonly type: 'load' | 'render' | 'error' | 'interaction' | 'vital';
  readonly name: string;
  readonly component: string;
  /** Null for a preview (and a legacy flow). */
  readonly env: string | null;
  /** Null until a variant is known (an SDK error before the first answer). */
  readonly variant: string | null;
  readonly isolation: 'iframe' | 'shadow';
  readonly sdk: string;
  readonly host: string;
  readonly session: string;
  readonly seq: number;
  readonly rate: number;
  readonly ms?: number;
  readonly cache?: boolean;
  readonly error?: ErrorDigest;
}
