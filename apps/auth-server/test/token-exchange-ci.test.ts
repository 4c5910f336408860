import { createCiPolicy, deleteCiPolicy, type CiTrustPolicy } from '@cp/domain';
import { aUserWithOrganization, createTestDatabase, type Owner, type TestDatabase } from '@cp/db/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { PRODUCTION_CI_ISSUERS } from '../src/ci/issuers.js';
import { defaultExchange } from '../src/config.js';
import { CiIssuerStandIn, githubClaims, gitlabClaims, hmacToken, unsignedToken } from './support/ci-issuer.js';
import { ACCESS_TOKEN_TYPE, exchangeCiToken, TOKEN_EXCHANGE_GRANT, uniqueNumericId } from './support/exchange.js';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, decodeJwt, register, tokenRequest } from './support/oauth-client.js';

// The exchange over real HTTP, on a real database (PGlite, or PostgreSQL with DATABASE_URL), with local CI issuers.
let db: TestDatabase;
let auth: AuthHarness;
let github: CiIssuerStandIn;
let gitlab: CiIssuerStandIn;
let stranger: CiIssuerStandIn;
let down: CiIssuerStandIn;
let owner: Owner;
let policy: CiTrustPolicy;

const ids = { owner: uniqueNumericId(), repository: uniqueNumericId(), namespace: uniqueNumericId(), project: uniqueNumericId() };

const aPolicy = (overrides: Record<string, unknown> = {}) =>
  createCiPolicy(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      name: 'web-release',
      provider: 'github',
      ownerId: ids.owner,
      repositoryId: ids.repository,
      repositoryName: 'acme/web',
      workflow: '.github/workflows/release.yml',
      environment: 'staging',
      refPatterns: ['refs/heads/main', 'refs/tags/v*'],
      scope: { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
      ...overrides,
    },
    auth.domain,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  [github, gitlab, stranger, down] = await Promise.all([CiIssuerStandIn.start(), CiIssuerStandIn.start(), CiIssuerStandIn.start(), CiIssuerStandIn.start()]);
  down.available = false;
  auth = await startAuthServer({
    ...databaseStorage(db),
    config: {
      exchange: {
        ...defaultExchange,
        ciIssuers: [
          ...PRODUCTION_CI_ISSUERS,
          { issuer: github.issuer, provider: 'github' },
          { issuer: gitlab.issuer, provider: 'gitlab' },
          { issuer: down.issuer, provider: 'github' },
        ],
      },
    },
  });
  owner = await aUserWithOrganization(db.repos);
  policy = await aPolicy();
}, 120_000);
afterAll(async () => {
  await auth?.close();
  await Promise.all([github, gitlab, stranger, down].map((stand) => stand?.close()));
  await db?.close();
});

/** The claims of a job the policy matches. */
const jobClaims = (overrides: Record<string, unknown> = {}) =>
  githubClaims({ repository_owner_id: ids.owner, repository_id: ids.repository, aud: auth.issuer, ...overrides });

const now = () => Math.floor(Date.now() / 1000);

/** Asserts `400 invalid_grant` whose description names `claim`; answers the description. */
async function expectRefused(response: Promise<{ status: number; json: { error?: string; error_description?: string } }>, claim: string): Promise<string> {
  const { status, json } = await response;
  expect({ status, error: json.error }).toEqual({ status: 400, error: 'invalid_grant' });
  expect(json.error_description).toContain(claim);
  return json.error_description!;
}

describe('a GitHub Actions job that matches its policy', () => {
  test('gets a 15-minute access token for the MCP resource, without a refresh token, acting as the policy creator through the policy', async () => {
    const { status, json } = await exchangeCiToken(auth.issuer, await github.mint(jobClaims()));
    expect(status).toBe(200);
    expect(json).toEqual({
      access_token: expect.any(String),
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'mcp:read mcp:write',
    });
    const { payload } = await jwtVerify(json.access_token, createRemoteJWKSet(new URL(`${auth.issuer}/jwks`)), {
      issuer: auth.issuer,
      audience: auth.config.mcpResourceUrl,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({ sub: owner.user.id, client_id: 'cpc', scope: 'mcp:read mcp:write', grantId: expect.any(String) });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.cp_credential).toEqual({
      scope: { organizationId: owner.organization.id, componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
      via: {
        via: 'ci',
        policyId: policy.id,
        policyName: 'web-release',
        provider: 'github',
        repository: 'acme/web',
        workflow: 'acme/web/.github/workflows/release.yml@refs/heads/main',
        runId: '8812',
        commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      },
    });
  });

  test('one grant per policy: every exchange (also in parallel, at the first exchange) uses the grant recorded on the policy', async () => {
    const fresh = await aPolicy({ name: 'parallel-first', repositoryId: uniqueNumericId(), environment: null, refPatterns: [] });
    const tokens = await Promise.all(Array.from({ length: 8 }, () => github.mint(jobClaims({ repository_id: fresh.repositoryId }))));
    // Every Grant row of the creator, credential grants included (connected applications leave those out).
    const storedGrants = () => db.prisma.oidcPayload.findMany({ where: { type: 'Grant', payload: { path: ['accountId'], equals: owner.user.id } }, select: { id: true } });
    const grantsBefore = (await storedGrants()).length;
    const answers = await Promise.all(tokens.map((token) => exchangeCiToken(auth.issuer, token)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const grantIds = new Set(answers.map((answer) => decodeJwt(answer.json.access_token).payload.grantId as string));
    expect(grantIds.size).toBe(1);
    const [grantId] = [...grantIds] as [string];
    const recorded = (await db.repos.ciTrustPolicies.listForOrganization(owner.organization.id)).find((entry) => entry.id === fresh.id);
    expect(recorded?.grantId).toBe(grantId);
    // The losers' grants were destroyed: the creator holds one grant more, the recorded one.
    const grants = await storedGrants();
    expect(grants).toHaveLength(grantsBefore + 1);
    expect(grants.map((grant) => grant.id)).toContain(grantId);
    expect(await auth.oidc.adapterFor('Grant').find(grantId)).toMatchObject({ accountId: owner.user.id, clientId: 'cpc' });
    // A credential's grant is not a connected application of its creator.
    expect((await auth.oidc.listGrants(owner.user.id)).map((grant) => grant.grantId)).not.toContain(grantId);
  });

  test('a read-only policy gets mcp:read only', async () => {
    const reader = await aPolicy({
      name: 'docs-read',
      repositoryId: uniqueNumericId(),
      environment: null,
      refPatterns: [],
      scope: { componentIds: null, environments: [], access: 'read', protectedEnvironments: false },
    });
    const { status, json } = await exchangeCiToken(auth.issuer, await github.mint(jobClaims({ repository_id: reader.repositoryId })));
    expect(status).toBe(200);
    expect(json.scope).toBe('mcp:read');
    expect(decodeJwt(json.access_token).payload.scope).toBe('mcp:read');
  });

  test('the token a job gets from the Actions token endpoint stand-in (audience = our issuer) is exchanged', async () => {
    github.jobClaims = jobClaims({ aud: undefined });
    const { ACTIONS_ID_TOKEN_REQUEST_URL: url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken } = github.actionsEnvironment;
    const refused = await fetch(`${url}&audience=${encodeURIComponent(auth.issuer)}`, { headers: { authorization: 'Bearer not-the-request-token' } });
    expect(refused.status).toBe(401);
    const response = await fetch(`${url}&audience=${encodeURIComponent(auth.issuer)}`, { headers: { authorization: `bearer ${requestToken}` } });
    const { value } = (await response.json()) as { value: string };
    expect((await exchangeCiToken(auth.issuer, value)).status).toBe(200);
  });
});

test('a gitlab.com job that matches its policy is exchanged (project_id, namespace_id, ci_config_ref_uri)', async () => {
  const gitlabPolicy = await aPolicy({
    name: 'gitlab-release',
    provider: 'gitlab',
    ownerId: ids.namespace,
    repositoryId: ids.project,
    workflow: '.gitlab-ci.yml',
  });
  const token = await gitlab.mint(gitlabClaims({ namespace_id: ids.namespace, project_id: ids.project, aud: auth.issuer }));
  const { status, json } = await exchangeCiToken(auth.issuer, token);
  expect(status).toBe(200);
  expect(decodeJwt(json.access_token).payload.cp_credential.via).toMatchObject({ via: 'ci', policyId: gitlabPolicy.id, provider: 'gitlab', runId: '99001' });
  await expectRefused(exchangeCiToken(auth.issuer, await gitlab.mint(gitlabClaims({ namespace_id: ids.namespace, project_id: uniqueNumericId(), aud: auth.issuer }))), 'project_id');
});

describe('the negative matrix: each answers invalid_grant naming its claim', () => {
  test('wrong aud', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ aud: auth.config.mcpResourceUrl }))), 'aud');
  });

  test('two audiences, ours among them', async () => {
    const description = await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ aud: [auth.issuer, 'https://other.example'] }))), 'aud');
    expect(description).toContain('single audience');
  });

  test('an unknown issuer with valid keys (its keys are never fetched)', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await stranger.mint(jobClaims())), 'iss');
    expect(stranger.requests('/.well-known/openid-configuration') + stranger.requests('/.well-known/jwks')).toBe(0);
  });

  test('expired', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ iat: now() - 900, exp: now() - 300 }))), 'exp');
  });

  test('not yet valid', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ nbf: now() + 600, exp: now() + 900 }))), 'nbf');
  });

  test('HS256 signed with the public key', async () => {
    const payload = { ...jobClaims(), iss: github.issuer, iat: now(), exp: now() + 300, jti: 'hs256' };
    await expectRefused(exchangeCiToken(auth.issuer, await hmacToken(payload, await github.publicKeyPem(), github.kid)), 'alg');
  });

  test('alg none', async () => {
    const payload = { ...jobClaims(), iss: github.issuer, iat: now(), exp: now() + 300, jti: 'none' };
    await expectRefused(exchangeCiToken(auth.issuer, unsignedToken(payload)), 'alg');
  });

  test('unknown kid', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims(), { kid: 'not-a-published-kid' })), 'kid');
  });

  test('a recreated repository: same name, new id', async () => {
    const description = await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ repository_id: uniqueNumericId() }))), 'repository_id');
    expect(description).toContain("policy 'web-release'");
  });

  test('another owner id', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ repository_owner_id: uniqueNumericId() }))), 'repository_owner_id');
  });

  test('another workflow (job_workflow_ref)', async () => {
    const workflow = 'acme/web/.github/workflows/other.yml@refs/heads/main';
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ job_workflow_ref: workflow, workflow_ref: workflow }))), 'job_workflow_ref');
  });

  test('a missing environment', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ environment: undefined }))), 'environment');
  });

  test('a ref that does not match', async () => {
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ ref: 'refs/heads/feature' }))), 'ref');
  });

  test('a replayed jti', async () => {
    const token = await github.mint(jobClaims());
    expect((await exchangeCiToken(auth.issuer, token)).status).toBe(200);
    await expectRefused(exchangeCiToken(auth.issuer, token), 'jti');
  });

  test('a replayed jti under Promise.all: exactly one exchange succeeds', async () => {
    const token = await github.mint(jobClaims());
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchangeCiToken(auth.issuer, token)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused).toMatchObject({ status: 400, json: { error: 'invalid_grant', error_description: expect.stringContaining('jti') } });
    }
  });

  test('a refused token does not use up its jti', async () => {
    const jti = `kept-${uniqueNumericId()}`;
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(jobClaims({ jti, ref: 'refs/heads/feature' }))), 'ref');
    expect((await exchangeCiToken(auth.issuer, await github.mint(jobClaims({ jti })))).status).toBe(200);
  });

  test('a deleted policy: refused, and its grant is gone', async () => {
    const doomed = await aPolicy({ name: 'doomed', repositoryId: uniqueNumericId(), ownerId: uniqueNumericId(), environment: null, refPatterns: [] });
    const claims = () => jobClaims({ repository_owner_id: doomed.ownerId, repository_id: doomed.repositoryId });
    const first = await exchangeCiToken(auth.issuer, await github.mint(claims()));
    expect(first.status).toBe(200);
    const grantId = decodeJwt(first.json.access_token).payload.grantId as string;
    await deleteCiPolicy({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, policyId: doomed.id }, auth.domain);
    expect(await auth.oidc.adapterFor('Grant').find(grantId)).toBeUndefined();
    await expectRefused(exchangeCiToken(auth.issuer, await github.mint(claims())), 'repository_owner_id');
  });
});

describe('requests the exchange does not serve', () => {
  test('another client: unauthorized_client; registering a client with the grant: invalid_client_metadata', async () => {
    const client = await aPublicClient(auth.issuer);
    const { status, json } = await tokenRequest(auth.issuer, {
      grant_type: TOKEN_EXCHANGE_GRANT,
      client_id: client.client_id,
      subject_token: await github.mint(jobClaims()),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    expect({ status, error: json.error }).toEqual({ status: 400, error: 'unauthorized_client' });
    const registration = await register(auth.issuer, {
      redirect_uris: ['http://localhost:33418/callback'],
      grant_types: ['authorization_code', TOKEN_EXCHANGE_GRANT],
      token_endpoint_auth_method: 'none',
    });
    expect(registration).toMatchObject({ status: 400, json: { error: 'invalid_client_metadata' } });
  });

  test('an unknown subject_token_type, a missing subject_token, another resource or token type: invalid_request / invalid_target', async () => {
    const token = await github.mint(jobClaims());
    expect((await exchangeCiToken(auth.issuer, token, { subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' })).json.error).toBe('invalid_request');
    expect((await exchangeCiToken(auth.issuer, token, { requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' })).json.error).toBe('invalid_request');
    expect((await exchangeCiToken(auth.issuer, token, { resource: 'https://elsewhere.example/mcp' })).json.error).toBe('invalid_target');
    const missing = await tokenRequest(auth.issuer, { grant_type: TOKEN_EXCHANGE_GRANT, client_id: 'cpc', subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' });
    expect(missing).toMatchObject({ status: 400, json: { error: 'invalid_request', error_description: expect.stringContaining('subject_token') } });
    // The token was not used up by the refused requests.
    expect((await exchangeCiToken(auth.issuer, token, { resource: auth.config.mcpResourceUrl })).status).toBe(200);
  });

  test('a registered CI issuer that cannot be reached: 503 temporarily_unavailable with Retry-After, never a 500', async () => {
    const res = await fetch(`${auth.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: TOKEN_EXCHANGE_GRANT,
        client_id: 'cpc',
        subject_token: await down.mint(jobClaims()),
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      }).toString(),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});
