/** The coarse families the rollups keep; the User-Agent itself is never stored. */
export type BrowserFamily = 'chrome' | 'edge' | 'firefox' | 'safari' | 'other';

// Order matters: Edge and most Chromium browsers also say "Chrome", Chrome also says "Safari".
const FAMILIES: readonly (readonly [RegExp, BrowserFamily])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'edge'],
  [/\b(?:Firefox|FxiOS)\//, 'firefox'],
  [/\b(?:Chrome|Chromium|CriOS)\//, 'chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'safari'],
];

/** Pages send few distinct User-Agents: each is read once. */
const seen = new Map<string, BrowserFamily>();
const MEMO_LIMIT = 512;

/** The browser family a User-Agent header names ("other" when absent or unknown). */
export function browserFamily(userAgent: string | undefined): BrowserFamily {
  if (userAgent === undefined || userAgent === '') return 'other';
  let family = seen.get(userAgent);
  if (family === undefined) {
    family = FAMILIES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'other';
    if (seen.size >= MEMO_LIMIT) seen.clear();
    seen.set(userAgent, family);
  }
  return family;
}
