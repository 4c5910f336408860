import { type CiIssuer, PRODUCTION_CI_ISSUERS } from './ci/issuers.js';

/** Everything the auth server reads from its environment, already validated (see env.ts). */

type Budget = { readonly attempts: number; readonly windowSeconds: number };

/**
 * Sign-in attempts and anonymous writes allowed per window before requests are
 * refused (README "Throttling"). A client network is `clientNetwork` of its
 * address: an IPv4 address, or an IPv6 /64.
 */
export interface ThrottleConfig {
  /** Sign-in attempts for one email address (account or not) from one client network. */
  readonly loginPerAccountNetwork: Budget;
  /** Failed sign-ins for one email address from every network; once spent, only networks that have not failed for it may try. */
  readonly loginPerAccount: Budget;
  /** Failed sign-ins from one client network, across all email addresses. */
  readonly loginPerNetwork: Budget;
  /** Accounts created from one client network (sign-ups carrying a pending invitation for their email aside). */
  readonly signupPerNetwork: Budget;
  /** Sign-ups one invitation exempts from `signupPerNetwork` (README "Throttling": invitations). */
  readonly signupPerInvitation: Budget;
  /** Dynamic client registrations from one client network. */
  readonly registrationPerNetwork: Budget;
  /** Device login forms sent (code entered, confirmed or denied) from one client network: user codes are short, guessing them must be slow. */
  readonly deviceCodeEntryPerNetwork: Budget;
}

/** Lifetimes in seconds (see README "Tokens"). */
export interface Lifetimes {
  /** The tool contract's 30 days, cut short when the grant expires sooner. */
  readonly accessToken: number;
  /** Renewed on every rotation, never beyond the grant. */
  readonly refreshToken: number;
  /** How long one consent lasts before the user is asked again. */
  readonly grant: number;
  readonly session: number;
  readonly interaction: number;
  readonly authorizationCode: number;
}

/** The dashboard (apps/dashboard): a configured, confidential, first-party client that never sees a consent page. */
export interface DashboardClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The dashboard's public origin; its redirect URI is `<url>/auth/callback`. */
  readonly url: string;
}

export const DASHBOARD_CLIENT_NAME = 'Component dashboard';

export const dashboardRedirectUri = (dashboard: DashboardClient): string => new URL('/auth/callback', dashboard.url).href;

/** Client ID Metadata Documents (README "Client ID Metadata Documents"). */
export interface CimdConfig {
  /** Development only (env.ts refuses it in production): documents on loopback addresses, over http or https. */
  readonly allowLoopback: boolean;
  /** The most of a document read; the draft recommends 5 KB. */
  readonly maxBytes: number;
  /** One deadline for resolving, connecting and reading. */
  readonly timeoutMs: number;
  /** A document's Cache-Control max-age is held within these bounds. */
  readonly cacheSeconds: { readonly min: number; readonly max: number };
  /** How long a refusal is remembered before the URL is fetched again. */
  readonly failureCacheSeconds: number;
  /** Documents (and refusals) kept at once; the least recently used go first. */
  readonly maxCachedDocuments: number;
}

export const defaultCimd: CimdConfig = {
  allowLoopback: false,
  maxBytes: 5 * 1024,
  timeoutMs: 3000,
  cacheSeconds: { min: 60, max: 24 * 60 * 60 },
  failureCacheSeconds: 10,
  maxCachedDocuments: 1000,
};

/** The token exchange (docs/cli-and-ci.md "The exchange"). */
export interface ExchangeConfig {
  /** The CI issuers whose OIDC tokens are accepted: production's registry, plus development's (env.ts). */
  readonly ciIssuers: readonly CiIssuer[];
  /** Leeway on a CI token's `exp`, `nbf` and `iat`. */
  readonly clockToleranceSeconds: number;
  /** The longest a CI token may live (`exp - iat`). */
  readonly maxCiTokenLifetimeSeconds: number;
  /** The exchanged access token's lifetime, cut short by an API token's expiry. */
  readonly accessTokenSeconds: number;
  /** One deadline for each discovery or key-set request to a CI issuer. */
  readonly issuerTimeoutMs: number;
  /** A CI issuer's keys are fetched again once this old, so a key it removed stops verifying. */
  readonly issuerKeysMaxAgeMs: number;
  /** The least time between two refetches of an issuer's keys caused by an unknown `kid`. */
  readonly issuerKeysCooldownMs: number;
}

export const defaultExchange: ExchangeConfig = {
  ciIssuers: PRODUCTION_CI_ISSUERS,
  clockToleranceSeconds: 60,
  maxCiTokenLifetimeSeconds: 60 * 60,
  accessTokenSeconds: 15 * 60,
  issuerTimeoutMs: 5000,
  issuerKeysMaxAgeMs: 10 * 60 * 1000,
  issuerKeysCooldownMs: 30 * 1000,
};

/** Device login (RFC 8628) for the CLI (README "Device login"). */
export interface DeviceFlowConfig {
  /** The `interval` the device authorization response announces: the least time between two polls of one code. */
  readonly intervalSeconds: number;
  /** What each `slow_down` adds to that code's interval (RFC 8628 section 3.5: 5 s). */
  readonly slowDownSeconds: number;
  /** How long a device_code and its user_code stay valid. */
  readonly codeLifetimeSeconds: number;
  /** Without Redis: the most device codes whose polling is tracked in memory at once (the least recently polled go first). */
  readonly maxTrackedCodes: number;
}

export const defaultDeviceFlow: DeviceFlowConfig = {
  intervalSeconds: 5,
  slowDownSeconds: 5,
  codeLifetimeSeconds: 600,
  maxTrackedCodes: 10_000,
};

export interface AuthConfig {
  /** The issuer identifier, exactly as discovery and tokens write it (no trailing slash). */
  readonly issuer: string;
  /** The MCP resource URL: the only accepted `resource`, and the access tokens' `aud`. */
  readonly mcpResourceUrl: string;
  /** Keys that sign cookies; the first signs, all verify (rotation). */
  readonly cookieKeys: readonly string[];
  /** Production: cookies are `Secure` (and the CSRF cookie uses the `__Host-` prefix). */
  readonly secureCookies: boolean;
  readonly signupEnabled: boolean;
  /** Express `trust proxy` value (also tells oidc-provider to trust X-Forwarded-*). */
  readonly trustProxy: boolean | number | string;
  readonly throttle: ThrottleConfig;
  readonly lifetimes: Lifetimes;
  /** Null: no dashboard is registered. */
  readonly dashboard: DashboardClient | null;
  readonly cimd: CimdConfig;
  readonly exchange: ExchangeConfig;
  readonly deviceFlow: DeviceFlowConfig;
}

const DAY = 24 * 60 * 60;

export const defaultLifetimes: Lifetimes = {
  accessToken: 30 * DAY,
  refreshToken: 90 * DAY,
  grant: 365 * DAY,
  session: 14 * DAY,
  interaction: 60 * 60,
  authorizationCode: 60,
};

export const defaultThrottle: ThrottleConfig = {
  loginPerAccountNetwork: { attempts: 10, windowSeconds: 15 * 60 },
  loginPerAccount: { attempts: 100, windowSeconds: DAY },
  loginPerNetwork: { attempts: 50, windowSeconds: 60 * 60 },
  signupPerNetwork: { attempts: 10, windowSeconds: 60 * 60 },
  signupPerInvitation: { attempts: 1, windowSeconds: DAY },
  registrationPerNetwork: { attempts: 30, windowSeconds: 60 * 60 },
  deviceCodeEntryPerNetwork: { attempts: 30, windowSeconds: 15 * 60 },
};

/** Test and embedded-stack convenience: a full config from the few values that vary. */
export function makeConfig(overrides: Partial<AuthConfig> & { issuer: string }): AuthConfig {
  return {
    mcpResourceUrl: 'http://localhost:4100/mcp',
    cookieKeys: ['development-cookie-key-not-for-production-use'],
    secureCookies: false,
    signupEnabled: true,
    trustProxy: false,
    throttle: defaultThrottle,
    lifetimes: defaultLifetimes,
    dashboard: null,
    cimd: defaultCimd,
    exchange: defaultExchange,
    deviceFlow: defaultDeviceFlow,
    ...overrides,
  };
}
