/*
 * The rules for a service's public URLs (AUTH_ISSUER, MCP_PUBLIC_URL, DASHBOARD_URL,
 * DELIVERY_PUBLIC_URL), one line a problem ("NAME: what to do"), in one place so every
 * service words them the same.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface PublicUrlRules {
  /** An origin is required (no path); the example is quoted in the message. */
  readonly origin?: string;
  /** Refuse plain http unless the host is a loopback address (production). */
  readonly https?: boolean;
}

export function publicUrlProblems(name: string, url: URL, rules: PublicUrlRules = {}): string[] {
  const problems: string[] = [];
  if (url.search !== '' || url.hash !== '') problems.push(`${name}: must not carry a query or a fragment`);
  if (rules.origin !== undefined && url.pathname !== '/') problems.push(`${name}: must be an origin without a path, e.g. ${rules.origin}`);
  if (rules.https === true && url.protocol !== 'https:' && !LOOPBACK.has(url.hostname)) {
    problems.push(`${name}: must be an https URL in production (loopback addresses excepted)`);
  }
  return problems;
}
