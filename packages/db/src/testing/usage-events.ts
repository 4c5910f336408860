import type { UsageEvent } from '@cp/domain';

/** A usage event as the ingest stores it; a render of 12 ms in staging unless told. */
export const aUsageEvent = (over: Partial<UsageEvent> & Pick<UsageEvent, 'componentId' | 'variantId' | 'at'>): UsageEvent => ({
  environment: 'staging',
  type: 'render',
  name: 'ready',
  value: 12,
  cacheHit: null,
  isolation: 'iframe',
  sdkVersion: '1.1.0',
  hostName: 'shop.example',
  sessionId: 'AAAAAAAAAAAAAAAAAAAAAA',
  sequence: 0,
  sampleRate: 1,
  browser: 'chrome',
  error: null,
  ...over,
});

/** `count` copies of an event, a second apart from `at`. */
export const usageEvents = (count: number, event: UsageEvent): UsageEvent[] =>
  Array.from({ length: count }, (_, i) => ({ ...event, at: new Date(event.at.getTime() + i * 1000), sequence: i }));
