/**
 * Each OAuth scope in plain words: the one wording the auth server's consent and
 * account pages and the dashboard's connected applications show.
 */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'mcp:read': 'See your organizations, components, their versions and releases',
  'mcp:write': 'Upload components, change their tags and publish releases',
  openid: 'Know which account you signed in with',
  offline_access: 'Stay connected until you revoke its access',
};

export const describeScope = (scope: string): string => DESCRIPTIONS[scope] ?? `Use the permission "${scope}"`;

/** Known scopes first, in a stable order, so the pages read the same every time. */
export function orderScopes(scopes: Iterable<string>): string[] {
  const order = Object.keys(DESCRIPTIONS);
  const rank = (scope: string) => (order.includes(scope) ? order.indexOf(scope) : order.length);
  return [...new Set(scopes)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
