import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/** The authorization server could not be reached or described itself wrongly: answer 503, not 401. */
export class AuthServerUnavailableError extends Error {
  override readonly name = 'AuthServerUnavailableError';
}

export interface JwksOptions {
  readonly issuer: string;
  /** When null, found through the issuer's discovery document. */
  readonly jwksUrl: string | null;
  /** Minimum time between refetches caused by an unknown `kid`. */
  readonly cooldownMs: number;
  /** The keys are fetched again once they are this old, so a key the issuer removed stops verifying. */
  readonly maxAgeMs: number;
  readonly fetchTimeoutMs?: number;
}

/** RFC 8414 §3: the well-known segment goes between the issuer's origin and its path. */
const discoveryUrls = (issuer: string): string[] => {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
};

async function discoverJwksUrl(issuer: string, timeoutMs: number): Promise<string> {
  let lastProblem = 'no discovery document';
  for (const url of discoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    } catch (error) {
      lastProblem = `${url}: ${(error as Error).message}`;
      continue;
    }
    if (!response.ok) {
      lastProblem = `${url}: HTTP ${response.status}`;
      continue;
    }
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // A discovery document for another issuer means a misconfiguration (or an attack):
    // tokens it signs would carry an `iss` we then refuse anyway, so say so clearly.
    if (document.issuer !== issuer) {
      throw new AuthServerUnavailableError(
        `AUTH_ISSUER is "${issuer}" but ${url} names issuer "${String(document.issuer)}"; set AUTH_ISSUER to the exact issuer.`,
      );
    }
    if (typeof document.jwks_uri !== 'string') {
      throw new AuthServerUnavailableError(`${url} has no jwks_uri`);
    }
    return document.jwks_uri;
  }
  throw new AuthServerUnavailableError(`authorization server discovery failed (${lastProblem})`);
}

/**
 * The issuer's signing keys, fetched on first use (the auth server may start after
 * this one), cached by jose for `maxAgeMs` and refetched sooner when a token names an unknown `kid`.
 * A failed discovery is retried on a later request, not cached forever.
 */
export function createJwks(options: JwksOptions): JWTVerifyGetKey {
  const timeoutMs = options.fetchTimeoutMs ?? 5000;
  let resolved: Promise<JWTVerifyGetKey> | null = null;
  const resolve = (): Promise<JWTVerifyGetKey> => {
    resolved ??= (options.jwksUrl !== null ? Promise.resolve(options.jwksUrl) : discoverJwksUrl(options.issuer, timeoutMs))
      .then((url) => createRemoteJWKSet(new URL(url), { cooldownDuration: options.cooldownMs, cacheMaxAge: options.maxAgeMs, timeoutDuration: timeoutMs }))
      .catch((error: unknown) => {
        resolved = null;
        throw error;
      });
    return resolved;
  };
  return async (header, token) => {
    const getKey = await resolve();
    return getKey(header, token);
  };
}
