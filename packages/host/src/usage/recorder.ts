import type { Isolation, MountOptions } from '../types.js';
import type { UsageEvent } from './event.js';
import { enqueue } from './queue.js';

/** The SDK's version, fixed by the build (package.json). */
declare const CP_SDK_VERSION: string;

/** Records one event of the mount: its type, name, the variant shown (null before one is known), and the type's fields. */
export type Record = (type: UsageEvent['type'], name: string, variant: string | null, fields?: Pick<UsageEvent, 'ms' | 'cache' | 'error'>) => void;

/*
 * The session: random per page load, only in memory, renewed when the UTC day changes,
 * so no two days of one visitor can be joined. Nothing the host knows of its user goes in.
 */
let session = '';
let day = -1;
let seq = 0;

function sessionId(): string {
  const today = Math.floor(Date.now() / 86_400_000);
  if (today !== day) {
    day = today;
    seq = 0;
    // 128 random bits, base64url without padding (22 characters).
    session = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16)))).replace(/\+/g, '-').replace(/\//g, '_').slice(0, 22);
  }
  return session;
}

/**
 * The usage recorder of one mount (options checked), or undefined when it sends nothing:
 * analytics "off", not sampled (decided here, once), or a static export without `eventsUrl`.
 */
export function usageRecorder(o: MountOptions, base: string, isolation: Isolation): Record | undefined {
  const rate = o.sampleRate ?? 1;
  const to = o.eventsUrl?.replace(/\/+$/, '') ?? (o.source === 'export' ? '' : base);
  if (o.analytics === 'off' || !to || !(Math.random() < rate)) return;
  const common = {
    component: o.componentId.toLowerCase(),
    env: o.preview || o.flowId ? null : (o.env ?? null),
    isolation,
    sdk: CP_SDK_VERSION,
    host: location.hostname,
    rate,
  };
  return (type, name, variant, fields) =>
    enqueue(`${to}/v1/events`, { type, name, ...common, variant, session: sessionId(), seq: seq++, ...fields }, o.analytics === 'consent');
}
