import { AuditKind, createCiPolicy, type CiTrustPolicy } from '@cp/domain';
import { aUserWithOrganization, type Owner } from '@cp/db/testing';
import { PRODUCTION_CI_ISSUERS } from '../../../apps/auth-server/src/ci/issuers.js';
import { defaultExchange } from '../../../apps/auth-server/src/config.js';
import { CiIssuerStandIn, githubClaims } from '../../../apps/auth-server/test/support/ci-issuer.js';
import { startCliStack, type CliStack } from './support/stack.js';
import { aConfigDir, aProject, buildCpc, componentHtml, runCpc } from './support/run-cpc.js';

// Trusted publishing end to end, without the internet: the built cpc in a "GitHub Actions job" gets its
// OIDC token from a local stand-in for the Actions token endpoint (a local CI issuer the auth server is
// given in its registry), exchanges it, uploads and releases; /consume serves it and the audit row says via: ci.
let stack: CliStack;
let github: CiIssuerStandIn;
let owner: Owner;
let policy: CiTrustPolicy;

beforeAll(async () => {
  await buildCpc();
  github = await CiIssuerStandIn.start();
  stack = await startCliStack({
    authConfig: { exchange: { ...defaultExchange, ciIssuers: [...PRODUCTION_CI_ISSUERS, { issuer: github.issuer, provider: 'github' }] } },
  });
  owner = await aUserWithOrganization(stack.domain.repos);
  policy = await createCiPolicy(
    {
      actor: { userId: owner.user.id },
      organizationId: owner.organization.id,
      name: 'web-release',
      provider: 'github',
      ownerId: '51001',
      repositoryId: '690001',
      repositoryName: 'acme/web',
      workflow: '.github/workflows/release.yml',
      environment: 'staging',
      refPatterns: ['refs/heads/main'],
      scope: { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
    },
    stack.domain,
  );
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await github?.close();
});

/** `cpc` as a GitHub Actions job with `permissions: id-token: write` (the stand-in is its token endpoint). */
const inActions = async (args: string[]) =>
  runCpc([...args, '--json', '--debug'], {
    CPC_SERVER: stack.mcpUrl,
    CPC_CONFIG_DIR: await aConfigDir(),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    ...github.actionsEnvironment,
  });

async function consumedVariant(componentId: string, env: string): Promise<string | undefined> {
  const response = await fetch(`${stack.deliveryUrl}/consume?id=${componentId}&env=${env}`, { headers: { 'cache-control': 'no-cache' } });
  const body = (await response.json()) as { item?: { consume_variant?: { id: string }[] } };
  return body.item?.consume_variant?.[0]?.id;
}

/** What /consume serves once the release reached it (the delivery API hears of releases through the database). */
async function eventuallyConsumed(componentId: string, env: string, variantId: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const served = await consumedVariant(componentId, env);
    if (served === variantId) return served;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return consumedVariant(componentId, env);
}

test('CI=true GITHUB_ACTIONS=true cpc push --publish --env staging: published through the policy, served, audited as via: ci', async () => {
  github.jobClaims = githubClaims({ repository_owner_id: policy.ownerId, repository_id: policy.repositoryId });
  const project = await aProject(componentHtml('from CI'));
  const run = await inActions(['push', project, '--name', 'Web banner', '--publish', '--env', 'staging']);
  expect(run.code).toBe(0);
  const { componentId, variantId } = run.envelope.data;
  expect(run.envelope.data).toMatchObject({ isNewComponent: true, release: { status: 'released', environment: 'staging', variantId } });
  expect(await eventuallyConsumed(componentId, 'staging', variantId)).toBe(variantId);

  const [released] = await stack.domain.repos.auditTrail.list(owner.organization.id, { limit: 1, componentId, kinds: [AuditKind.ReleasePublished] });
  expect(released).toMatchObject({
    actorId: owner.user.id,
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

  // Neither the job's request token nor the OIDC token it got ever appears in cpc's output.
  expect(github.issued.length).toBeGreaterThan(0);
  for (const secret of [github.requestToken, ...github.issued]) expect(run.stdout + run.stderr).not.toContain(secret);
}, 60_000);

test('a job of a recreated repository (same name, new id) is refused: exit 3, naming repository_id and the policy', async () => {
  github.jobClaims = githubClaims({ repository_owner_id: policy.ownerId, repository_id: '690002' });
  const project = await aProject(componentHtml('impostor'));
  const run = await inActions(['push', project, '--name', 'Impostor', '--publish', '--env', 'staging']);
  expect(run.code).toBe(3);
  expect(run.envelope.error).toMatchObject({ code: 'EXCHANGE_REFUSED', message: expect.stringContaining("repository_id does not match policy 'web-release'"), exitCode: 3 });
}, 60_000);
