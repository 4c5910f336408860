import { createApiToken, createCiPolicy, createFlow, createInvitation, createOrganization, createPreviewKey, createWebhookEndpoint, publishVariant, saveComponentApp, saveExperienceDraft, startRollout, type UsageEvent, type User } from '@cp/domain';
import { aConnectedApplication } from './applications.js';
import { aComponentWithVariants, aMembership } from './builders.js';
import { anAccount, type DashboardStack } from './dashboard-server.js';
import { aUsageEvent, recordUsage, usageEvents } from './usage-rows.js';

/** A page of the dashboard to visit, and the navigation item it should mark as current (null: none). */
export interface PageToVisit {
  readonly name: string;
  readonly path: string;
  readonly current: string | null;
  readonly status?: number;
  /** Checked in the dark theme as well (the pages whose colours are their own: charts). */
  readonly dark?: boolean;
}

/**
 * An owner whose organization has something on every page (components with variants and a release,
 * a flow, a pending release request, a preview key, members and an invitation, a webhook endpoint,
 * an API token and a CI trust policy,
 * an audit trail, a connected application) and a second, empty organization; and every GET page of
 * the dashboard (src/routes) that shows the dashboard's own markup to someone signed in.
 */
export async function anOrganizationOnEveryPage(stack: DashboardStack): Promise<{ owner: User; pages: PageToVisit[] }> {
  const { domain } = stack;
  const [owner, member] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  const org = owner.defaultOrganizationId;
  const actor = { userId: owner.id };
  await aMembership(stack.db, member, org, 'member');
  const { component, variants } = await aComponentWithVariants(domain, owner, 2, { name: 'Price tag', tags: ['pricing'] });
  const { component: checkout } = await aComponentWithVariants(domain, owner, 1, { name: 'Checkout button' });
  await publishVariant({ actor, componentId: component.id, environment: 'staging', variantId: variants[0]!.id }, domain);
  await publishVariant({ actor: { userId: member.id }, componentId: component.id, environment: 'prod', variantId: variants[1]!.id }, domain);
  const now = new Date();
  const used = (variant: number, over: Partial<UsageEvent>) => aUsageEvent({ componentId: component.id, variantId: variants[variant]!.id, at: new Date(now.getTime() - 3_600_000), ...over });
  await recordUsage(stack.db, {
    now,
    events: [
      ...usageEvents(30, used(0, { environment: 'staging' })),
      ...usageEvents(40, used(1, { value: 180 })),
      ...usageEvents(3, used(1, { type: 'error', name: 'uncaught', value: null, error: { errorClass: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", stackHash: '0a1b2c3d' } })),
    ],
  });
  // A split in prod's experience draft, and a canary of v2 against staging's release.
  const germany = { name: 'germany', rules: [{ attribute: 'country', operator: 'in' as const, values: ['DE', 'AT'] }], arms: variants.map((v) => ({ variantId: v.id, weight: 50_000 })) };
  await saveExperienceDraft({ actor, componentId: component.id, environment: 'prod', definition: { segments: [germany] } }, domain);
  await saveComponentApp({ actor, componentId: component.id, settings: { environment: 'staging', title: 'Price tag', description: 'Shows a price.', inputSchema: { type: 'object' }, actionTools: { buy: 'publish_component' } } }, domain);
  await startRollout({ actor, componentId: component.id, environment: 'staging', candidateVariantId: variants[1]!.id }, domain);
  const flow = await createFlow({ actor, organizationId: org, name: 'Checkout', componentIds: [component.id] }, domain);
  await createPreviewKey({ actor, organizationId: org, name: 'Staging site' }, domain);
  const { token: invitation } = await createInvitation({ actor, organizationId: org, email: 'new.colleague@example.test', role: 'member' }, domain);
  const webhooks = { ...domain, webhookUrls: { check: () => Promise.resolve(null) } };
  const { endpoint } = await createWebhookEndpoint({ actor, organizationId: org, url: 'https://hooks.example.test/components', eventTypes: ['release.published'], enabled: true }, webhooks);
  const scope = { componentIds: [component.id], environments: ['staging', 'prod'], access: 'write' as const, protectedEnvironments: true };
  const { token } = await createApiToken({ actor, organizationId: org, name: 'nightly', scope }, domain);
  const policy = await createCiPolicy(
    { actor, organizationId: org, name: 'web-release', provider: 'github', ownerId: '1342004', repositoryId: '600213', repositoryName: 'acme/web', workflow: '.github/workflows/release.yml', environment: 'production', refPatterns: ['refs/tags/v*'], requireHostedRunner: true, scope },
    domain,
  );
  const empty = await createOrganization({ actor, name: 'Side project' }, domain);
  await aConnectedApplication(stack, owner);
  const base = `/orgs/${org}`;
  const pages: PageToVisit[] = [
    { name: 'components', path: `${base}/components`, current: 'Components' },
    { name: 'components-empty', path: `/orgs/${empty.id}/components`, current: 'Components' },
    { name: 'component', path: `/component/${component.id}`, current: 'Components' },
    { name: 'component-usage', path: `/component/${component.id}/usage?window=24h`, current: 'Components', dark: true },
    { name: 'component-usage-empty', path: `/component/${checkout.id}/usage`, current: 'Components' },
    { name: 'experience', path: `/component/${component.id}/env/prod/experience`, current: 'Components' },
    { name: 'rollout', path: `/component/${component.id}/env/staging/rollout`, current: 'Components' },
    { name: 'rollout-start', path: `/component/${component.id}/env/prod/rollout`, current: 'Components' },
    { name: 'publish', path: `/component/${component.id}/publish?environment=staging&variant=${variants[1]!.id}`, current: 'Components' },
    { name: 'flows', path: `${base}/flows`, current: 'Flows' },
    { name: 'flow', path: `/flows/${flow.id}`, current: 'Flows' },
    { name: 'environments', path: `${base}/environments`, current: 'Environments' },
    { name: 'release-requests', path: `${base}/release-requests`, current: 'Release requests' },
    { name: 'previews', path: `${base}/previews`, current: 'Previews' },
    { name: 'usage', path: `${base}/usage`, current: 'Usage', dark: true },
    { name: 'members', path: `${base}/members`, current: 'Members' },
    { name: 'invitations', path: `${base}/invitations`, current: 'Members' },
    { name: 'webhooks', path: `${base}/webhooks`, current: 'Webhooks' },
    { name: 'webhook-endpoint', path: `${base}/webhooks/${endpoint.id}`, current: 'Webhooks' },
    { name: 'api-tokens', path: `${base}/api-tokens`, current: 'API tokens' },
    { name: 'api-token-revoke', path: `${base}/api-tokens/${token.id}/revoke`, current: 'API tokens' },
    { name: 'static-export', path: `${base}/export`, current: 'Static export' },
    { name: 'audit', path: `${base}/audit`, current: 'Audit trail' },
    { name: 'settings', path: `${base}/settings`, current: 'Settings' },
    { name: 'ci-policies', path: `${base}/settings/ci-policies`, current: 'Settings' },
    { name: 'ci-policy-delete', path: `${base}/settings/ci-policies/${policy.id}/delete`, current: 'Settings' },
    { name: 'organizations', path: '/orgs', current: 'Organizations' },
    { name: 'applications', path: '/applications', current: 'Connected applications' },
    // Signed in as someone else than the invited: the invitation page refuses, and says so.
    { name: 'invitation', path: `/invitations/${invitation}`, current: null, status: 403 },
    { name: 'not-found', path: `/component/${crypto.randomUUID()}`, current: null, status: 404 },
  ];
  return { owner, pages };
}
