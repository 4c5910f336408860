/** Everything the MCP server reads from its environment, already validated (see env.ts). */
export interface RateLimitConfig {
  /** Requests per window for one signed-in user (token subject). */
  readonly userPoints: number;
  /** Requests per window for one IP address without a valid token. */
  readonly ipPoints: number;
  readonly windowSeconds: number;
  /** `upload_component` calls per upload window for one user: starting uploads costs storage. */
  readonly uploadPoints: number;
  readonly uploadWindowSeconds: number;
}

export interface AuthConfig {
  /** The authorization server's issuer, exactly as its discovery document writes it. */
  readonly issuer: string;
  /** Overrides discovery (`<issuer>/.well-known/oauth-authorization-server`). */
  readonly jwksUrl: string | null;
  /** How long a "this grant still exists" answer is trusted; at most 30 s (revocation bound). */
  readonly grantCacheSeconds: number;
  /** Minimum time between two JWKS refetches triggered by an unknown `kid`. */
  readonly jwksCooldownMs: number;
  /**
   * How long a verified token is trusted without checking its signature again (never
   * past its `exp`): with `jwksMaxAgeMs`, the bound on how long a signing key removed
   * from the issuer's JWKS keeps working.
   */
  readonly tokenCacheSeconds: number;
  /** How long the fetched JWKS is used before it is fetched again. */
  readonly jwksMaxAgeMs: number;
}

export interface AppConfig {
  readonly port: number;
  /** The canonical MCP resource URL: tokens must name it as `aud`, metadata publishes it. */
  readonly publicUrl: string;
  /** Accepted `Host` header values (host[:port], lower-case). */
  readonly allowedHosts: readonly string[];
  /** Accepted `Origin` header values, when a request carries one. */
  readonly allowedOrigins: readonly string[];
  readonly dashboardUrl: string;
  /** The delivery API browsers reach: shown in the guide; the MCP Apps view loads the host SDK from it (views/preview-view.ts). */
  readonly deliveryUrl: string;
  readonly auth: AuthConfig;
  readonly rateLimit: RateLimitConfig;
  /** Memory for immutable variant HTML read by get_component (0 disables the cache). */
  readonly contentCacheBytes: number;
  /** Largest JSON-RPC request body accepted on POST /mcp. */
  readonly maxBodyBytes: number;
  /** Express `trust proxy` value: false, or a hop count / subnet list when behind a proxy. */
  readonly trustProxy: boolean | number | string;
}

/** MCP_TOKEN_CACHE_SECONDS: minutes, not the token's lifetime (settings.ts bounds it). */
export const defaultTokenCacheSeconds = 300;

export const defaultRateLimits: RateLimitConfig = {
  userPoints: 300,
  ipPoints: 60,
  windowSeconds: 60,
  uploadPoints: 20,
  uploadWindowSeconds: 600,
};

/** host[:port] as a browser or client writes it in `Host` for this URL (default ports omitted). */
export const hostOf = (url: URL): string => url.host.toLowerCase();

/**
 * The defaults a local run needs: the public URL's host and origin, plus the
 * loopback names on the listening port (clients use localhost, 127.0.0.1 or [::1]
 * interchangeably). Anything else is refused as a possible DNS-rebinding attempt.
 */
export function deriveAllowedHosts(publicUrl: string, port: number): string[] {
  const url = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].map((name) => `${name}:${port}`);
  return [...new Set([hostOf(url), ...loopback])];
}

export function deriveAllowedOrigins(publicUrl: string, port: number): string[] {
  const url = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].map((name) => `http://${name}:${port}`);
  return [...new Set([url.origin, ...loopback])];
}

/** RFC 9728 §3.1: the metadata URL inserts the well-known path before the resource's path. */
export function protectedResourceMetadataUrl(publicUrl: string): string {
  const url = new URL(publicUrl);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** Test and embedded-stack convenience: a full config from the few values that vary. */
export function makeConfig(overrides: Partial<AppConfig> & { port: number }): AppConfig {
  const publicUrl = overrides.publicUrl ?? `http://localhost:${overrides.port}/mcp`;
  return {
    publicUrl,
    allowedHosts: deriveAllowedHosts(publicUrl, overrides.port),
    allowedOrigins: deriveAllowedOrigins(publicUrl, overrides.port),
    dashboardUrl: 'http://localhost:4300',
    deliveryUrl: 'http://localhost:4200',
    auth: {
      issuer: 'http://localhost:4000',
      jwksUrl: null,
      grantCacheSeconds: 30,
      jwksCooldownMs: 30_000,
      tokenCacheSeconds: defaultTokenCacheSeconds,
      jwksMaxAgeMs: defaultTokenCacheSeconds * 1000,
    },
    rateLimit: defaultRateLimits,
    maxBodyBytes: 1024 * 1024,
    contentCacheBytes: 64 * 1024 * 1024,
    trustProxy: false,
    ...overrides,
  };
}
