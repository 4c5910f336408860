/** Everything the dashboard reads from its environment, already validated (see env.ts). */
export interface DashboardConfig {
  /** The dashboard's public origin (no trailing slash): `dashboardUrl` links start with it. */
  readonly publicUrl: string;
  /** The auth server (OpenID provider) issuer. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Keys that sign the session, login and CSRF cookies; the first signs, all verify. */
  readonly sessionKeys: readonly string[];
  /** Production: cookies are `Secure` (CSRF cookie `__Host-`). */
  readonly secureCookies: boolean;
  /** Session lifetime in seconds. */
  readonly sessionSeconds: number;
  /** Shown in the empty states: the MCP server's endpoint for `claude mcp add`. */
  readonly mcpUrl: string;
  /** Shown beside releases: where hosts fetch them (`/consume`). */
  readonly deliveryUrl: string;
  readonly trustProxy: boolean | number | string;
  /** How many variants and release events the component page shows at a time ("Older" / "Newer" for the rest). */
  readonly componentPageSizes: ComponentPageSizes;
  /** Changes per page of the audit trail; unset: 50 (tests set fewer). */
  readonly auditPageSize?: number;
  /** How long an invitation link works (INVITATION_TTL_HOURS; 7 days by default). */
  readonly invitationTtlSeconds: number;
  /** EXPORT_PREFIX and EXPORT_PUBLIC_URL: where each organization's static export is served (null: not given). */
  readonly staticExport: { readonly prefix: string; readonly publicUrl: string | null };
  /** SMTP_URL and MAIL_FROM: invitations are also sent by email; null: the link is only shown to copy. */
  readonly mail: MailSettings | null;
  /** WEBHOOKS_ALLOW_LOOPBACK (development only): webhook endpoints on loopback, http too, are accepted. */
  readonly webhooksAllowLoopback: boolean;
}

export interface MailSettings {
  /** smtp:// or smtps://, credentials included: never logged. */
  readonly smtpUrl: string;
  readonly from: string;
}

export interface ComponentPageSizes {
  readonly variants: number;
  readonly releaseEvents: number;
}

/** Not a setting: fixed here, smaller only in tests (a page of 100 variants is what a person can scan). */
export const COMPONENT_PAGE_SIZES: ComponentPageSizes = { variants: 100, releaseEvents: 50 };

/** Tests only (makeConfig): a running dashboard signs with DASHBOARD_SESSION_KEYS or its installation's generated key. */
export const DEVELOPMENT_SESSION_KEY = 'development-dashboard-session-key-not-for-production';

/** Test convenience. */
export function makeConfig(overrides: Partial<DashboardConfig> & Pick<DashboardConfig, 'publicUrl' | 'issuer'>): DashboardConfig {
  return {
    clientId: 'dashboard',
    clientSecret: 'development-dashboard-secret-not-for-production-use',
    sessionKeys: [DEVELOPMENT_SESSION_KEY],
    secureCookies: false,
    sessionSeconds: 12 * 60 * 60,
    mcpUrl: 'http://localhost:4100/mcp',
    deliveryUrl: 'http://localhost:4200',
    trustProxy: false,
    componentPageSizes: COMPONENT_PAGE_SIZES,
    invitationTtlSeconds: 7 * 24 * 3600,
    mail: null,
    staticExport: { prefix: '', publicUrl: null },
    // As `pnpm start`: the tests' webhook receivers listen on loopback.
    webhooksAllowLoopback: true,
    ...overrides,
  };
}
