import { newApiTokenSecret, UnavailableError } from '@cp/domain';
import { PRODUCTION_CI_ISSUERS } from '../src/ci/issuers.js';
import { defaultExchange } from '../src/config.js';
import { CiIssuerStandIn, githubClaims } from './support/ci-issuer.js';
import { SubjectTokenType, TOKEN_EXCHANGE_GRANT } from './support/exchange.js';
import { memoryDomain, startAuthServer, type AuthHarness } from './support/harness.js';

// A database that stops answering during an exchange: 503 temporarily_unavailable with Retry-After, as
// every other oidc-provider route answers it (provider-errors.ts), never a 500.
let auth: AuthHarness;
let github: CiIssuerStandIn;

beforeAll(async () => {
  github = await CiIssuerStandIn.start();
  const memory = memoryDomain();
  const down = async (): Promise<never> => {
    throw new UnavailableError('database');
  };
  const repos = {
    ...memory.repos,
    ciTrustPolicies: { ...memory.repos.ciTrustPolicies, findCandidates: down },
    apiTokens: { ...memory.repos.apiTokens, findBySecretHash: down },
  };
  auth = await startAuthServer({
    domain: { ...memory, repos },
    config: { exchange: { ...defaultExchange, ciIssuers: [...PRODUCTION_CI_ISSUERS, { issuer: github.issuer, provider: 'github' }] } },
  });
});
afterAll(async () => {
  await auth?.close();
  await github?.close();
});

const exchange = (subjectToken: string, type: string) =>
  fetch(`${auth.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE_GRANT, client_id: 'cpc', subject_token: subjectToken, subject_token_type: type }).toString(),
  });

test.each([
  ['a CI token', async () => github.mint(githubClaims({ aud: auth.issuer })), SubjectTokenType.IdToken],
  ['an API token', async () => newApiTokenSecret(), SubjectTokenType.ApiToken],
])('%s while the database is unavailable: 503 temporarily_unavailable with Retry-After', async (_name, subjectToken, type) => {
  const res = await exchange(await subjectToken(), type);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
  expect(await res.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('database') });
});
