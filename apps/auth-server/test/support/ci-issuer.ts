import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';

type SigningPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface MintOptions {
  /** Default: the first key's. */
  readonly kid?: string;
  /** Signs with another (unpublished) key under the given or default kid. */
  readonly key?: SigningPair['privateKey'];
  /** Header parameters added as is (e.g. `jku`, `jwk`). */
  readonly header?: Record<string, unknown>;
}

/** The claims a GitHub Actions job's OIDC token carries (docs.github.com, "About security hardening with OpenID Connect"). */
export const githubClaims = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  sub: 'repo:acme/web:environment:staging',
  repository: 'acme/web',
  repository_id: '690001',
  repository_owner: 'acme',
  repository_owner_id: '51001',
  ref: 'refs/heads/main',
  ref_type: 'branch',
  sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  workflow: 'release',
  workflow_ref: 'acme/web/.github/workflows/release.yml@refs/heads/main',
  job_workflow_ref: 'acme/web/.github/workflows/release.yml@refs/heads/main',
  environment: 'staging',
  event_name: 'push',
  run_id: '8812',
  run_attempt: '1',
  runner_environment: 'github-hosted',
  actor: 'octocat',
  actor_id: '1',
  ...overrides,
});

/** The claims a gitlab.com job's `id_tokens` token carries (docs.gitlab.com, "OpenID Connect (OIDC) ID token"). */
export const gitlabClaims = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  sub: 'project_path:acme/web:ref_type:branch:ref:main',
  namespace_id: '72001',
  namespace_path: 'acme',
  project_id: '420001',
  project_path: 'acme/web',
  pipeline_id: '99001',
  pipeline_source: 'push',
  job_id: '77001',
  ref: 'main',
  ref_type: 'branch',
  ref_protected: 'true',
  sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  environment: 'staging',
  ci_config_ref_uri: 'gitlab.com/acme/web//.gitlab-ci.yml@refs/heads/main',
  runner_environment: 'gitlab-hosted',
  user_id: '1',
  ...overrides,
});

/**
 * A CI OIDC issuer on loopback, standing in for GitHub Actions or gitlab.com: a real HTTP server with a
 * discovery document, a JWKS of locally generated RSA keys, and (GitHub's) token endpoint a job calls
 * with `ACTIONS_ID_TOKEN_REQUEST_URL` / `ACTIONS_ID_TOKEN_REQUEST_TOKEN`. It counts the requests of each
 * path, so tests can tell whether keys were fetched.
 */
export class CiIssuerStandIn {
  private readonly keys: { kid: string; pair: SigningPair }[] = [];
  private readonly counts = new Map<string, number>();
  /** The bearer token a job presents to the token endpoint. */
  readonly requestToken = `request-${randomUUID()}`;
  /** The claims the token endpoint puts in the tokens it mints (besides iss, aud, iat, exp, jti). */
  jobClaims: Record<string, unknown> = githubClaims();
  /** When false, the discovery and JWKS paths answer 503 (an outage). */
  available = true;
  /** When true, the discovery and JWKS paths never answer (a hung issuer). */
  hung = false;
  /** Every token the token endpoint handed out, so a test can check none of them was printed. */
  readonly issued: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void this.answer(req, res);
    });
  }

  static async start(): Promise<CiIssuerStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stand = new CiIssuerStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await stand.addKey();
    return stand;
  }

  /** Generates an RSA key and publishes it (rotation: a new key appears in the JWKS); answers its kid. */
  async addKey(): Promise<string> {
    const kid = `key-${this.keys.length + 1}-${randomUUID().slice(0, 8)}`;
    this.keys.push({ kid, pair: await generateKeyPair('RS256', { extractable: true }) });
    return kid;
  }

  get kid(): string {
    return this.keys[0]!.kid;
  }

  /** The first key's public half as PEM (what a confused verifier might use as an HMAC secret). */
  async publicKeyPem(): Promise<string> {
    return exportSPKI(this.keys[0]!.pair.publicKey);
  }

  /** A token signed RS256 by this issuer: `iss`, `iat`, `exp` (5 min), `jti` unless overridden (`undefined` removes). */
  async mint(claims: Record<string, unknown>, options: MintOptions = {}): Promise<string> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const payload = withoutUndefined({ iss: this.issuer, iat: nowSeconds, exp: nowSeconds + 300, jti: randomUUID(), ...claims });
    const kid = options.kid ?? this.kid;
    const key = options.key ?? this.keys.find((entry) => entry.kid === kid)?.pair.privateKey ?? this.keys[0]!.pair.privateKey;
    return new SignJWT(payload).setProtectedHeader({ ...options.header, alg: 'RS256', kid, typ: 'JWT' }).sign(key);
  }

  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  /** What a job sets in its environment to reach this token endpoint (GitHub's variables). */
  get actionsEnvironment(): { ACTIONS_ID_TOKEN_REQUEST_URL: string; ACTIONS_ID_TOKEN_REQUEST_TOKEN: string } {
    return { ACTIONS_ID_TOKEN_REQUEST_URL: `${this.issuer}/actions/token?api-version=2.0`, ACTIONS_ID_TOKEN_REQUEST_TOKEN: this.requestToken };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    this.counts.set(url.pathname, (this.counts.get(url.pathname) ?? 0) + 1);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (this.hung && url.pathname.startsWith('/.well-known/')) return;
    if (url.pathname === '/.well-known/openid-configuration') {
      if (!this.available) return void json(503, { message: 'unavailable' });
      return void json(200, { issuer: this.issuer, jwks_uri: `${this.issuer}/.well-known/jwks`, id_token_signing_alg_values_supported: ['RS256'] });
    }
    if (url.pathname === '/.well-known/jwks') {
      if (!this.available) return void json(503, { message: 'unavailable' });
      const keys = await Promise.all(this.keys.map(async ({ kid, pair }) => ({ ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' })));
      return void json(200, { keys });
    }
    if (url.pathname === '/actions/token') {
      // GitHub's endpoint: GET with the job's request token as bearer, `audience` chosen by the caller.
      // The scheme is case-insensitive (RFC 9110 §11.1): clients send `bearer` or `Bearer`.
      const [scheme, credentials] = (req.headers.authorization ?? '').split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || credentials !== this.requestToken) return void json(401, { message: 'bad request token' });
      const audience = url.searchParams.get('audience');
      if (audience === null) return void json(400, { message: 'audience is required here' });
      const value = await this.mint({ ...this.jobClaims, aud: audience });
      this.issued.push(value);
      return void json(200, { count: 1, value });
    }
    json(404, { message: 'not found' });
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token (`alg: none`), as an attacker would send it. */
export const unsignedToken = (payload: Record<string, unknown>, header: Record<string, unknown> = { alg: 'none', typ: 'JWT' }): string =>
  `${base64url(header)}.${base64url(payload)}.`;

/** A token signed HS256 with the given secret (the algorithm-confusion attack uses the issuer's public key as the secret). */
export const hmacToken = async (payload: Record<string, unknown>, secret: string, kid: string): Promise<string> =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
