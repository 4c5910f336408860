import { invalidInput } from '../../errors/factories.js';
import { USAGE_WINDOWS, type UsageWindow } from './usage-report.js';

const HOUR = 3600;
const MINUTE_MS = 60_000;

/** Each window's length and bucket width, in seconds, chosen so every chart has about as many points. */
const WINDOWS: Readonly<Record<UsageWindow, { seconds: number; bucketSeconds: number }>> = {
  '24h': { seconds: 24 * HOUR, bucketSeconds: HOUR },
  '7d': { seconds: 7 * 24 * HOUR, bucketSeconds: 6 * HOUR },
  '30d': { seconds: 30 * 24 * HOUR, bucketSeconds: 24 * HOUR },
};

export interface UsageRange {
  readonly window: UsageWindow;
  readonly from: Date;
  readonly to: Date;
  readonly bucketSeconds: number;
}

export function isUsageWindow(value: unknown): value is UsageWindow {
  return typeof value === 'string' && (USAGE_WINDOWS as readonly string[]).includes(value);
}

/** The window ending with the current minute (included), or INVALID_INPUT naming the windows there are. */
export function usageRange(window: unknown, now: Date): UsageRange {
  if (!isUsageWindow(window)) {
    throw invalidInput('window', `must be one of ${USAGE_WINDOWS.join(', ')}.`);
  }
  const { seconds, bucketSeconds } = WINDOWS[window];
  const to = new Date((Math.floor(now.getTime() / MINUTE_MS) + 1) * MINUTE_MS);
  return { window, from: new Date(to.getTime() - seconds * 1000), to, bucketSeconds };
}
