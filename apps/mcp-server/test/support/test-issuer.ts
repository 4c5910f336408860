import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GrantOwner } from '@cp/domain';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/*
 * A stand-in for the authorization server until apps/auth-server exists: an ES256
 * key whose JWKS and RFC 8414 discovery document are served over real HTTP, and a
 * signer for access tokens shaped like oidc-provider's JWT access tokens
 * (`typ: at+jwt`, `client_id`, `scope`, plus the `grantId` claim the auth server adds).
 * The MCP server verifies them with its production code.
 */
interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export interface TokenOptions {
  readonly sub?: string;
  readonly scope?: string;
  readonly aud?: string | string[];
  readonly iss?: string;
  readonly grantId?: string | null;
  readonly clientId?: string;
  /** Seconds from now; negative for an expired token. */
  readonly expiresIn?: number;
  readonly typ?: string;
  readonly key?: SigningKey;
  readonly claims?: Record<string, unknown>;
}

export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Grants that exist, with their owner; delete one to revoke it. */
  readonly grants: Map<string, GrantOwner>;
  /** Signs an access token for `audience` (default claims: all scopes, a fresh grant of its subject and client). */
  sign(options?: TokenOptions): Promise<string>;
  /** A new key, published in the JWKS; later tokens are signed with it. */
  rotateKey(): Promise<void>;
  /** Takes the key with this kid out of the published JWKS, as an issuer retiring a key does. */
  removeKey(kid: string): void;
  /** The kid tokens are signed with now. */
  readonly currentKid: string;
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  /** A key that is never published (for "bad signature"). */
  foreignKey(): Promise<SigningKey>;
  close(): Promise<void>;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

export async function startTestIssuer(options: { audience: string; port?: number }): Promise<TestIssuer> {
  const keys: SigningKey[] = [await newKey()];
  const grants = new Map<string, GrantOwner>();
  let issuer = '';
  let jwksFetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks') jwksFetches += 1;
    const body =
      req.url === '/jwks'
        ? { keys: keys.map((key) => key.publicJwk) }
        : req.url === '/.well-known/oauth-authorization-server'
          ? { issuer, jwks_uri: `${issuer}/jwks`, scopes_supported: ['mcp:read', 'mcp:write'] }
          : null;
    res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    grants,
    async sign(token: TokenOptions = {}) {
      const key = token.key ?? keys[keys.length - 1]!;
      const grantId = token.grantId === undefined ? randomUUID() : token.grantId;
      const sub = token.sub ?? randomUUID();
      const clientId = token.clientId ?? 'test-client';
      if (grantId !== null && token.grantId === undefined) grants.set(grantId, { accountId: sub, clientId });
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({
        scope: token.scope ?? 'mcp:read mcp:write',
        client_id: clientId,
        ...(grantId === null ? {} : { grantId }),
        ...token.claims,
      })
        .setProtectedHeader({ alg: 'ES256', typ: token.typ ?? 'at+jwt', kid: key.kid })
        .setIssuer(token.iss ?? issuer)
        .setAudience(token.aud ?? options.audience)
        .setSubject(sub)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + (token.expiresIn ?? 3600));
      return jwt.sign(key.privateKey);
    },
    async rotateKey() {
      keys.push(await newKey());
    },
    removeKey(kid) {
      const index = keys.findIndex((key) => key.kid === kid);
      if (index >= 0) keys.splice(index, 1);
    },
    get currentKid() {
      return keys[keys.length - 1]!.kid;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    foreignKey: newKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
