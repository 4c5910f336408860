import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditKind, createApiToken, createCiPolicy, createWebhookEndpoint, hashApiToken, revokeApiToken, type CiTrustPolicy, type CredentialScopeInput } from '@cp/domain';
import { aUserWithOrganization, type Owner } from '@cp/db/testing';
import { PRODUCTION_CI_ISSUERS } from '../../../apps/auth-server/src/ci/issuers.js';
import { defaultExchange } from '../../../apps/auth-server/src/config.js';
import { CiIssuerStandIn, githubClaims } from '../../../apps/auth-server/test/support/ci-issuer.js';
import { startCliStack, type CliStack } from './support/stack.js';
import { aConfigDir, aProject, componentHtml, runCpc, type CpcRun } from './support/run-cpc.js';

// Trusted publishing end to end, without the internet: the built cpc in a "GitHub Actions job" gets its
// OIDC token from a local stand-in for the Actions token endpoint (a local CI issuer the auth server is
// given in its registry), exchanges it, uploads and releases; /consume serves it and the audit row says via: ci.
// Then the other credential of CI, an API token in CPC_TOKEN, on the same stack and organization: its
// narrowing, revocation and expiry as the CLI's exit codes, and no token anywhere the CLI writes.
let stack: CliStack;
let github: CiIssuerStandIn;
let owner: Owner;
let policy: CiTrustPolicy;
/** Subscribed to releases: the message the worker would send is written with the release. */
let webhookEndpointId: string;

beforeAll(async () => {
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
  const { endpoint } = await createWebhookEndpoint(
    { actor: { userId: owner.user.id }, organizationId: owner.organization.id, url: 'https://hooks.example.test/cpc', eventTypes: ['release.published'], enabled: true },
    // No worker runs here: nothing is sent, so any address will do.
    { ...stack.domain, webhookUrls: { check: async () => null } },
  );
  webhookEndpointId = endpoint.id;
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

test('CI=true GITHUB_ACTIONS=true cpc push --publish --env staging: published through the policy, served, audited as via: ci', async () => {
  github.jobClaims = githubClaims({ repository_owner_id: policy.ownerId, repository_id: policy.repositoryId });
  const project = await aProject(componentHtml('from CI'));
  const run = await inActions(['push', project, '--name', 'Web banner', '--publish', '--env', 'staging']);
  expect(run.code).toBe(0);
  const { componentId, variantId } = run.envelope.data;
  expect(run.envelope.data).toMatchObject({ isNewComponent: true, release: { status: 'released', environment: 'staging', variantId } });
  expect(await stack.eventuallyConsumed(componentId, 'staging', variantId)).toBe(variantId);

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

  const messages = await stack.database.prisma.webhookMessage.findMany({ where: { endpointId: webhookEndpointId, eventType: 'release.published' } });
  expect(messages.map((message) => (JSON.parse(message.body) as { data: { actor: unknown } }).data.actor)).toEqual([{ id: owner.user.id, email: owner.user.email, via: released?.via }]);

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

describe('an API token in CPC_TOKEN', () => {
  const DAY = 24 * 60 * 60 * 1000;
  /** Every run and every folder the CLI was given here: none may hold a token. */
  const runs: CpcRun[] = [];
  const folders: string[] = [];
  const secrets: string[] = [];
  let narrowComponent: string;
  let otherComponent: string;
  let narrow: { id: string; secret: string };

  /** A token of the owner, created `daysAgo` days ago (the domain's clock set back). */
  async function aToken(name: string, scope: CredentialScopeInput, options: { expiresInDays?: number; daysAgo?: number } = {}) {
    const clock = { now: () => new Date(Date.now() - (options.daysAgo ?? 0) * DAY) };
    const { token, secret } = await createApiToken(
      { actor: { userId: owner.user.id }, organizationId: owner.organization.id, name, expiresInDays: options.expiresInDays, scope },
      { ...stack.domain, clock },
    );
    secrets.push(secret);
    return { id: token.id, secret };
  }

  /** `cpc <args> --json --debug` with the token in CPC_TOKEN, pushing a project of its own. */
  async function withToken(secret: string, args: string[]): Promise<CpcRun> {
    const project = await aProject(componentHtml(`by token ${runs.length}`));
    const configDir = await aConfigDir();
    folders.push(project, configDir);
    const run = await runCpc(['push', project, ...args, '--json', '--debug'], { CPC_SERVER: stack.mcpUrl, CPC_CONFIG_DIR: configDir, CPC_TOKEN: secret });
    runs.push(run);
    return run;
  }

  /** Table name → how many rows hold `text` anywhere (every table of the database, every column). */
  async function tablesHolding(text: string): Promise<Record<string, number>> {
    const { prisma } = stack.database;
    const tables = await prisma.$queryRawUnsafe<{ table_name: string }[]>("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'");
    const found: Record<string, number> = {};
    for (const { table_name: table } of tables) {
      const [holding] = await prisma.$queryRawUnsafe<{ n: number }[]>(`select count(*)::int as n from "${table}" as t where strpos(row_to_json(t)::text, $1) > 0`, text);
      const rows = holding?.n ?? 0;
      if (rows > 0) found[table] = rows;
    }
    return found;
  }

  beforeAll(async () => {
    const broad = await aToken('setup', { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false });
    const created = await Promise.all(['Narrowed banner', 'Other banner'].map((name) => withToken(broad.secret, ['--name', name])));
    for (const run of created) expect(run.code).toBe(0);
    narrowComponent = created[0]?.envelope.data.componentId;
    otherComponent = created[1]?.envelope.data.componentId;
    narrow = await aToken('nightly', { componentIds: [narrowComponent], environments: ['staging', 'prod'], access: 'write', protectedEnvironments: false });
  }, 60_000);

  test('narrowed to one component: pushing to another is exit 4, FORBIDDEN', async () => {
    const run = await withToken(narrow.secret, ['--component', otherComponent]);
    expect(run.code).toBe(4);
    expect(run.envelope.error).toMatchObject({ code: 'FORBIDDEN', exitCode: 4 });
  }, 60_000);

  test('prod is protected and the token may not release there: --publish --require-release is exit 6, a release request', async () => {
    const run = await withToken(narrow.secret, ['--component', narrowComponent, '--env', 'prod', '--publish', '--require-release']);
    expect(run.code).toBe(6);
    expect(run.envelope.error).toMatchObject({ code: 'PENDING_APPROVAL', exitCode: 6 });
    const [requested] = await stack.domain.repos.auditTrail.list(owner.organization.id, { limit: 1, componentId: narrowComponent, kinds: [AuditKind.ReleaseRequested] });
    expect(requested).toMatchObject({ actorId: owner.user.id, via: { via: 'api-token', tokenId: narrow.id, tokenName: 'nightly' } });
  }, 60_000);

  test('revoked: the next run is exit 3', async () => {
    const staging = await withToken(narrow.secret, ['--component', narrowComponent, '--env', 'staging', '--publish']);
    expect(staging.code).toBe(0);
    await revokeApiToken({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, tokenId: narrow.id }, stack.domain);
    const run = await withToken(narrow.secret, ['--component', narrowComponent]);
    expect(run.code).toBe(3);
    expect(run.envelope.error).toMatchObject({ code: 'EXCHANGE_REFUSED', message: expect.stringContaining('revoked'), exitCode: 3 });
  }, 60_000);

  test('expired: exit 3', async () => {
    const expired = await aToken('yesterday', { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false }, { expiresInDays: 1, daysAgo: 2 });
    const run = await withToken(expired.secret, ['--component', narrowComponent]);
    expect(run.code).toBe(3);
    expect(run.envelope.error).toMatchObject({ code: 'EXCHANGE_REFUSED', message: expect.stringContaining("'yesterday' expired"), exitCode: 3 });
  }, 60_000);

  test('no output of any run, no file in any folder it was given, and no database row holds a token; the database holds its hash', async () => {
    expect(runs.length).toBeGreaterThanOrEqual(6);
    const files = (await Promise.all(folders.map((folder) => readdir(folder, { recursive: true, withFileTypes: true }))))
      .flat()
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const written = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    for (const secret of secrets) {
      for (const run of runs) expect(run.stdout + run.stderr).not.toContain(secret);
      for (const text of written) expect(text).not.toContain(secret);
      expect(await tablesHolding(secret)).toEqual({});
      // The same search finds the hash where it belongs: it would have found the token.
      expect(await tablesHolding(hashApiToken(secret))).toEqual({ api_tokens: 1 });
    }
  });
});
