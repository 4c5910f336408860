import { randomUUID } from 'node:crypto';
import { aComponent, anAuditEvent, recordAuditEvents } from '@cp/db/testing';
import { released } from '@cp/domain/testing';
import { createApiToken, createCiPolicy, createFlow, createEnvironment, createInvitation, createOrganization, createPreviewKey, createWebhookEndpoint, publishVariant, saveExperienceDraft, setFlowComponents, startRollout, type User } from '@cp/domain';
import { outboundUrlPolicy } from '@cp/http-runtime';
import { aConnectedApplication } from '../support/applications.js';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { routePatterns } from '../support/routes.js';
import { FormBrowser, csrfOf, headline, signInThrough, type Page } from '../support/sign-in.js';

/*
 * Authorization over real HTTP: Bob, signed in, sends every page and action of the dashboard with the
 * ids of Alice's organization. Each answer must be 404 "Not found" (POSTs carry Bob's valid CSRF token,
 * so the 404 is the organization check, not CSRF), exactly what an unknown id gets, show nothing of
 * Alice's, and change nothing. Then Bob sends the same request with his own ids and it works, so the
 * request itself was a valid one. The table is checked against the app's router: a new route fails
 * this file until it is added here.
 */

/** The ids a request is built from: Alice's, Bob's own, or ids that exist nowhere. */
interface Ids {
  readonly org: string;
  readonly component: string;
  readonly variant: string;
  /** Renamed by the rename probe. */
  readonly environment: string;
  /** Nothing released to it: removable. */
  readonly spareEnvironment: string;
  readonly flow: string;
  /** An event of the component's release history. */
  readonly releaseEvent: string;
  /** In no flow: addable to one. */
  readonly spareComponent: string;
  readonly grant: string;
  readonly previewKey: string;
  /** An event of the organization's audit trail. */
  readonly auditEvent: string;
  /** A pending invitation of the organization. */
  readonly invitation: string;
  /** An organization the visitor owns with another owner (so leaving works); Alice's: her own. */
  readonly spareOrg: string;
  /** A member of `spareOrg` (and of the visitor's own organization): role change, removal, transfer. */
  readonly spareMember: string;
  /** Pending release requests: one to approve, one to decline. */
  readonly releaseRequest: string;
  readonly declinableRequest: string;
  /** A webhook endpoint of the organization, and a message it was sent. */
  readonly webhook: string;
  readonly webhookMessage: string;
  readonly apiToken: string;
  readonly ciPolicy: string;
}

interface Probe {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: (ids: Ids) => string;
  readonly form?: (ids: Ids) => Record<string, string> | Promise<Record<string, string>>;
  /** What Bob gets with Alice's ids, when it is not NOT_FOUND (always the same as with unknown ids). */
  readonly expected?: { status: number; title: string; message: string } | 'his own page';
}

const NOT_FOUND = { status: 404, title: 'Not found', message: 'There is nothing here, or it is not in one of your organizations.' };

let stack: DashboardStack;
let alice: User;
let bob: User;
let aliceIds: Ids;
let bobIds: Ids;
let bobBrowser: FormBrowser;
let bobCsrf: string;
/** Text of Alice's that must never appear on Bob's pages. */
let secrets: string[];

/** Bob's own ids, for the probes that mix his things with Alice's ids. */
const own = () => bobIds;

/** Every route of the app: its probes, or why it takes no id of an organization. */
const ROUTES: Readonly<Record<string, Probe[] | { exempt: string }>> = {
  'GET /health': { exempt: 'liveness: no session, no id' },
  'GET /ready': { exempt: 'readiness: no session, no id' },
  'GET /metrics': { exempt: 'operators only: no session, no id' },
  'GET /assets/dashboard.css': { exempt: 'the stylesheet' },
  'GET /login': { exempt: 'starts the sign-in; takes a return path, no id' },
  'GET /auth/callback': { exempt: 'the OpenID Connect callback' },
  'POST /logout': { exempt: "ends the visitor's own session" },
  'GET /signed-out': { exempt: 'a static page' },

  'GET /': [{ name: 'home', method: 'GET', path: () => '/', expected: 'his own page' }],
  'GET /orgs': [{ name: 'organizations', method: 'GET', path: () => '/orgs', expected: 'his own page' }],
  'GET /switch': [{ name: 'switch to the organization', method: 'GET', path: (ids) => `/switch?org=${ids.org}` }],
  'GET /orgs/:orgId/components': [
    { name: 'components', method: 'GET', path: (ids) => `/orgs/${ids.org}/components` },
    { name: 'components searched, page 2', method: 'GET', path: (ids) => `/orgs/${ids.org}/components?q=price&tag=ui&page=2` },
  ],
  'GET /component/:id': [
    { name: 'component', method: 'GET', path: (ids) => `/component/${ids.component}` },
    { name: 'component with a variant preview', method: 'GET', path: (ids) => `/component/${ids.component}?variant=${ids.variant}` },
    { name: "Bob's component previewing the variant", method: 'GET', path: (ids) => `/component/${own().component}?variant=${ids.variant}` },
    { name: 'component, older variants and release events', method: 'GET', path: (ids) => `/component/${ids.component}?variants_before=2&releases_before=${ids.releaseEvent}` },
    { name: "Bob's release history older than the release event", method: 'GET', path: (ids) => `/component/${own().component}?releases_before=${ids.releaseEvent}` },
    { name: "Bob's release history newer than the release event", method: 'GET', path: (ids) => `/component/${own().component}?releases_after=${ids.releaseEvent}` },
  ],
  'POST /component/:id/tags': [{ name: 'tags', method: 'POST', path: (ids) => `/component/${ids.component}/tags`, form: () => ({ tags: 'taken-over' }) }],
  'POST /component/:id/app': [
    { name: 'offer the component as an app', method: 'POST', path: (ids) => `/component/${ids.component}/app`, form: () => ({ environment: 'prod', title: 'Taken over', description: 'Shows the component.' }) },
  ],
  // After the save probe: its control leaves Bob's component an app to stop offering.
  'POST /component/:id/app/remove': [{ name: 'stop offering the app', method: 'POST', path: (ids) => `/component/${ids.component}/app/remove` }],
  'GET /component/:id/variants/:variantId/preview': [
    { name: 'preview', method: 'GET', path: (ids) => `/component/${ids.component}/variants/${ids.variant}/preview` },
    { name: "the variant through Bob's component", method: 'GET', path: (ids) => `/component/${own().component}/variants/${ids.variant}/preview` },
  ],
  'GET /component/:id/publish': [
    { name: 'publish confirmation', method: 'GET', path: (ids) => `/component/${ids.component}/publish?variant=${ids.variant}&environment=prod` },
    { name: "the variant on Bob's confirmation", method: 'GET', path: (ids) => `/component/${own().component}/publish?variant=${ids.variant}&environment=prod` },
  ],
  'POST /component/:id/publish': [
    { name: 'publish', method: 'POST', path: (ids) => `/component/${ids.component}/publish`, form: (ids) => ({ environment: 'prod', variant: ids.variant }) },
    { name: "the variant published as Bob's component", method: 'POST', path: () => `/component/${own().component}/publish`, form: (ids) => ({ environment: 'prod', variant: ids.variant }) },
  ],
  'GET /component/:id/usage': [
    { name: 'component usage', method: 'GET', path: (ids) => `/component/${ids.component}/usage` },
    { name: 'component usage in prod over 24 hours', method: 'GET', path: (ids) => `/component/${ids.component}/usage?window=24h&environment=prod` },
  ],
  'GET /component/:id/env/:environment/experience': [{ name: 'experience', method: 'GET', path: (ids) => `/component/${ids.component}/env/prod/experience` }],
  'POST /component/:id/env/:environment/experience': [
    { name: 'save an experience draft', method: 'POST', path: (ids) => `/component/${ids.component}/env/prod/experience`, form: (ids) => ({ op: 'save', 'segments.0.name': 'everyone', 'segments.0.arms.0.variant': ids.variant, 'segments.0.arms.0.weight': '100' }) },
    { name: 'add a segment in the editor', method: 'POST', path: (ids) => `/component/${ids.component}/env/prod/experience`, form: () => ({ op: 'add-segment' }) },
  ],
  'POST /component/:id/env/:environment/experience/publish': [{ name: 'publish an experience', method: 'POST', path: (ids) => `/component/${ids.component}/env/prod/experience/publish`, form: () => ({ phase: 'new' }) }],
  'GET /component/:id/env/:environment/rollout': [{ name: 'rollout', method: 'GET', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout` }],
  'POST /component/:id/env/:environment/rollout/start': [
    { name: 'start a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/start`, form: (ids) => ({ candidate: ids.variant, 'stages.0.weight': '10', 'stages.0.hold': '60', 'stages.1.weight': '100', 'stages.1.hold': '0' }) },
  ],
  'POST /component/:id/env/:environment/rollout/advance': [{ name: 'advance a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/advance`, form: liveRolloutRevision }],
  'POST /component/:id/env/:environment/rollout/pause': [{ name: 'pause a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/pause`, form: liveRolloutRevision }],
  'POST /component/:id/env/:environment/rollout/resume': [{ name: 'resume a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/resume`, form: liveRolloutRevision }],
  'POST /component/:id/env/:environment/rollout/promote': [{ name: 'promote a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/promote`, form: liveRolloutRevision }],
  'POST /component/:id/env/:environment/rollout/stop': [{ name: 'stop a rollout', method: 'POST', path: (ids) => `/component/${ids.component}/env/${CANARY}/rollout/stop`, form: async (ids) => ({ ...(await liveRolloutRevision(ids)), reason: 'probe' }) }],
  'GET /orgs/:orgId/usage': [{ name: 'organization usage', method: 'GET', path: (ids) => `/orgs/${ids.org}/usage?window=30d` }],
  'GET /orgs/:orgId/environments': [{ name: 'environments', method: 'GET', path: (ids) => `/orgs/${ids.org}/environments` }],
  'POST /orgs/:orgId/environments': [{ name: 'add an environment', method: 'POST', path: (ids) => `/orgs/${ids.org}/environments`, form: () => ({ name: 'added' }) }],
  'POST /orgs/:orgId/environments/:envId/rename': [
    { name: 'rename an environment', method: 'POST', path: (ids) => `/orgs/${ids.org}/environments/${ids.environment}/rename`, form: () => ({ name: 'renamed' }) },
    { name: "the environment renamed through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/environments/${ids.environment}/rename`, form: () => ({ name: 'renamed' }) },
  ],
  'POST /orgs/:orgId/environments/:envId/protection': [
    { name: 'protect an environment', method: 'POST', path: (ids) => `/orgs/${ids.org}/environments/${ids.environment}/protection`, form: () => ({ protected: 'true' }) },
    { name: "the environment protected through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/environments/${ids.environment}/protection`, form: () => ({ protected: 'true' }) },
  ],
  'POST /orgs/:orgId/environments/:envId/remove': [
    { name: 'remove an environment', method: 'POST', path: (ids) => `/orgs/${ids.org}/environments/${ids.spareEnvironment}/remove` },
    { name: "the environment removed through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/environments/${ids.spareEnvironment}/remove` },
  ],
  'GET /orgs/:orgId/previews': [{ name: 'previews', method: 'GET', path: (ids) => `/orgs/${ids.org}/previews` }],
  'POST /orgs/:orgId/previews/private': [{ name: 'make previews private', method: 'POST', path: (ids) => `/orgs/${ids.org}/previews/private`, form: () => ({ private: 'on' }) }],
  'POST /orgs/:orgId/previews/keys': [{ name: 'create a preview key', method: 'POST', path: (ids) => `/orgs/${ids.org}/previews/keys`, form: () => ({ name: 'probe key' }) }],
  'POST /orgs/:orgId/previews/keys/:keyId/revoke': [
    { name: 'revoke a preview key', method: 'POST', path: (ids) => `/orgs/${ids.org}/previews/keys/${ids.previewKey}/revoke` },
    { name: "the preview key revoked through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/previews/keys/${ids.previewKey}/revoke` },
  ],
  'GET /orgs/:orgId/export': [{ name: 'static export', method: 'GET', path: (ids) => `/orgs/${ids.org}/export` }],
  'POST /orgs/:orgId/export': [{ name: 'turn the static export on', method: 'POST', path: (ids) => `/orgs/${ids.org}/export`, form: () => ({ enabled: 'on' }) }],
  'GET /orgs/:orgId/invitations': [{ name: 'invitations', method: 'GET', path: (ids) => `/orgs/${ids.org}/invitations` }],
  'POST /orgs/:orgId/invitations': [{ name: 'invite someone', method: 'POST', path: (ids) => `/orgs/${ids.org}/invitations`, form: () => ({ email: 'probe-invitee@example.test', role: 'admin' }) }],
  'POST /orgs/:orgId/invitations/:invitationId/revoke': [
    { name: 'revoke an invitation', method: 'POST', path: (ids) => `/orgs/${ids.org}/invitations/${ids.invitation}/revoke` },
    { name: "the invitation revoked through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/invitations/${ids.invitation}/revoke` },
  ],
  'GET /invitations/:token': { exempt: 'the token is the capability, not an id of an organization (test/http/invitations.test.ts: garbled, expired, revoked, used, wrong account)' },
  'POST /invitations/:token': { exempt: 'the token is the capability, not an id of an organization (test/http/invitations.test.ts)' },
  'GET /orgs/:orgId/flows': [{ name: 'flows', method: 'GET', path: (ids) => `/orgs/${ids.org}/flows` }],
  'POST /orgs/:orgId/flows': [{ name: 'create a flow', method: 'POST', path: (ids) => `/orgs/${ids.org}/flows`, form: () => ({ name: 'Added flow' }) }],
  'GET /flows/:flowId': [{ name: 'flow', method: 'GET', path: (ids) => `/flows/${ids.flow}` }],
  'POST /flows/:flowId/components': [
    { name: "remove a flow's component", method: 'POST', path: (ids) => `/flows/${ids.flow}/components`, form: (ids) => ({ op: 'remove', component: ids.component }) },
    { name: "add Bob's component to the flow", method: 'POST', path: (ids) => `/flows/${ids.flow}/components`, form: () => ({ op: 'add', component: own().component }) },
    {
      name: "the component added to Bob's flow",
      method: 'POST',
      path: () => `/flows/${own().flow}/components`,
      form: (ids) => ({ op: 'add', component: ids.spareComponent }),
      // The flow is Bob's, so this is bad input about the component, worded as for an unknown one (README "Errors").
      expected: { status: 400, title: 'That did not work', message: 'componentIds: component "<id>" was not found in this organization.' },
    },
  ],
  'POST /flows/:flowId/status': [{ name: 'publish a flow', method: 'POST', path: (ids) => `/flows/${ids.flow}/status`, form: () => ({ status: 'published' }) }],
  'GET /orgs/:orgId/audit': [
    { name: 'audit trail', method: 'GET', path: (ids) => `/orgs/${ids.org}/audit` },
    { name: "Bob's audit trail older than the event", method: 'GET', path: (ids) => `/orgs/${own().org}/audit?before=${ids.auditEvent}` },
    { name: "Bob's audit trail newer than the event", method: 'GET', path: (ids) => `/orgs/${own().org}/audit?after=${ids.auditEvent}` },
    // A filter names nothing of Alice's: an empty list, as for an unknown component.
    { name: "Bob's audit trail filtered on the component", method: 'GET', path: (ids) => `/orgs/${own().org}/audit?component=${ids.component}`, expected: 'his own page' },
  ],
  'GET /orgs/:orgId/members': [{ name: 'members', method: 'GET', path: (ids) => `/orgs/${ids.org}/members` }],
  'POST /orgs/:orgId/members/:userId/role': [
    { name: "change a member's role", method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/members/${ids.spareMember}/role`, form: () => ({ from: 'member', role: 'viewer' }) },
    { name: "the member's role changed through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/members/${ids.spareMember}/role`, form: () => ({ from: 'member', role: 'viewer' }) },
  ],
  'POST /orgs/:orgId/members/:userId/remove': [
    { name: 'remove a member', method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/members/${ids.spareMember}/remove` },
    { name: "the member removed through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/members/${ids.spareMember}/remove` },
  ],
  'POST /orgs/:orgId/members/:userId/transfer': [{ name: 'transfer ownership', method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/members/${ids.spareMember}/transfer` }],
  'POST /orgs/:orgId/leave': [{ name: 'leave the organization', method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/leave` }],
  'POST /orgs': { exempt: "creates an organization of the visitor's own; takes no id" },
  'GET /orgs/:orgId/settings': [{ name: 'organization settings', method: 'GET', path: (ids) => `/orgs/${ids.org}/settings` }],
  'POST /orgs/:orgId/rename': [{ name: 'rename the organization', method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/rename`, form: () => ({ name: 'Taken over' }) }],
  'POST /orgs/:orgId/delete': [{ name: 'delete the organization', method: 'POST', path: (ids) => `/orgs/${ids.spareOrg}/delete`, form: () => ({ name: SPARE_ORG }) }],
  'GET /orgs/:orgId/release-requests': [{ name: 'release requests', method: 'GET', path: (ids) => `/orgs/${ids.org}/release-requests` }],
  'POST /release-requests/:id/approve': [{ name: 'approve a release request', method: 'POST', path: (ids) => `/release-requests/${ids.releaseRequest}/approve` }],
  'POST /release-requests/:id/decline': [
    { name: 'decline a release request', method: 'POST', path: (ids) => `/release-requests/${ids.declinableRequest}/decline`, form: () => ({ reason: 'not now' }) },
  ],
  'GET /orgs/:orgId/webhooks': [{ name: 'webhooks', method: 'GET', path: (ids) => `/orgs/${ids.org}/webhooks` }],
  'POST /orgs/:orgId/webhooks': [
    { name: 'add a webhook endpoint', method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks`, form: () => ({ url: 'http://127.0.0.1:9/probe', eventTypes: 'component.created', enabled: 'on' }) },
  ],
  'GET /orgs/:orgId/webhooks/:endpointId': [
    { name: 'webhook endpoint', method: 'GET', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}` },
    { name: "the endpoint through Bob's organization", method: 'GET', path: (ids) => `/orgs/${own().org}/webhooks/${ids.webhook}` },
  ],
  'POST /orgs/:orgId/webhooks/:endpointId': [
    { name: 'change a webhook endpoint', method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}`, form: () => ({ eventTypes: 'release.published' }) },
    { name: "the endpoint changed through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/webhooks/${ids.webhook}`, form: () => ({ eventTypes: 'release.published', enabled: 'on' }) },
  ],
  'POST /orgs/:orgId/webhooks/:endpointId/enable': [{ name: 'enable a webhook endpoint', method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}/enable` }],
  'POST /orgs/:orgId/webhooks/:endpointId/rotate': [
    { name: "rotate a webhook endpoint's secret", method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}/rotate` },
    { name: "the secret rotated through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/webhooks/${ids.webhook}/rotate` },
  ],
  'POST /orgs/:orgId/webhooks/:endpointId/messages/:messageId/redeliver': [
    { name: 'redeliver a webhook message', method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}/messages/${ids.webhookMessage}/redeliver` },
    { name: "the message redelivered through Bob's endpoint", method: 'POST', path: (ids) => `/orgs/${own().org}/webhooks/${own().webhook}/messages/${ids.webhookMessage}/redeliver` },
  ],
  // Last of the webhook probes: its control deletes Bob's endpoint.
  'POST /orgs/:orgId/webhooks/:endpointId/delete': [{ name: 'delete a webhook endpoint', method: 'POST', path: (ids) => `/orgs/${ids.org}/webhooks/${ids.webhook}/delete` }],
  'GET /orgs/:orgId/api-tokens': [{ name: 'API tokens', method: 'GET', path: (ids) => `/orgs/${ids.org}/api-tokens` }],
  'POST /orgs/:orgId/api-tokens': [
    { name: 'create an API token', method: 'POST', path: (ids) => `/orgs/${ids.org}/api-tokens`, form: () => ({ name: 'probe token', expiresInDays: '1', access: 'read', components: 'all' }) },
  ],
  'GET /orgs/:orgId/api-tokens/:tokenId/revoke': [
    { name: 'revoking an API token, the confirmation', method: 'GET', path: (ids) => `/orgs/${ids.org}/api-tokens/${ids.apiToken}/revoke` },
    { name: "the token's confirmation through Bob's organization", method: 'GET', path: (ids) => `/orgs/${own().org}/api-tokens/${ids.apiToken}/revoke` },
  ],
  'POST /orgs/:orgId/api-tokens/:tokenId/revoke': [
    { name: 'revoke an API token', method: 'POST', path: (ids) => `/orgs/${ids.org}/api-tokens/${ids.apiToken}/revoke` },
    { name: "the token revoked through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/api-tokens/${ids.apiToken}/revoke` },
  ],
  'GET /orgs/:orgId/settings/ci-policies': [{ name: 'CI trust policies', method: 'GET', path: (ids) => `/orgs/${ids.org}/settings/ci-policies?provider=gitlab` }],
  'POST /orgs/:orgId/settings/ci-policies': [
    { name: 'create a CI trust policy', method: 'POST', path: (ids) => `/orgs/${ids.org}/settings/ci-policies`, form: () => ({ name: 'probe policy', provider: 'github', ownerId: '1', repositoryId: '2', repositoryName: 'probe/web', workflow: '.github/workflows/release.yml', access: 'read', components: 'all' }) },
  ],
  'GET /orgs/:orgId/settings/ci-policies/:policyId/delete': [
    { name: 'deleting a CI trust policy, the confirmation', method: 'GET', path: (ids) => `/orgs/${ids.org}/settings/ci-policies/${ids.ciPolicy}/delete` },
    { name: "the policy's confirmation through Bob's organization", method: 'GET', path: (ids) => `/orgs/${own().org}/settings/ci-policies/${ids.ciPolicy}/delete` },
  ],
  // After the confirmation's probes: its control deletes Bob's policy.
  'POST /orgs/:orgId/settings/ci-policies/:policyId/delete': [
    { name: 'delete a CI trust policy', method: 'POST', path: (ids) => `/orgs/${ids.org}/settings/ci-policies/${ids.ciPolicy}/delete` },
    { name: "the policy deleted through Bob's organization", method: 'POST', path: (ids) => `/orgs/${own().org}/settings/ci-policies/${ids.ciPolicy}/delete` },
  ],
  'GET /applications': [{ name: 'connected applications', method: 'GET', path: () => '/applications', expected: 'his own page' }],
  'POST /applications/:grantId/revoke': [
    { name: 'revoke an application', method: 'POST', path: (ids) => `/applications/${ids.grant}/revoke`, expected: { status: 404, title: 'Not found', message: 'That application is not connected to your account.' } },
  ],
};

beforeAll(async () => {
  stack = await startDashboardStack();
  [alice, bob] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  const idsOf = async (user: User, name: string): Promise<Ids> => {
    const actor = { userId: user.id };
    const { component, variants } = await aComponentWithVariants(stack.domain, user, 2, { name, tags: ['ui'] });
    const flow = await createFlow({ actor, organizationId: user.defaultOrganizationId, name: `${name} flow` }, stack.domain);
    // A draft in prod (the publish probe's), and an environment whose release a canary is judged against.
    await saveExperienceDraft({ actor, componentId: component.id, environment: 'prod', definition: { segments: [{ name: 'everyone', rules: [], arms: [{ variantId: variants[0]!.id, weight: 100_000 }] }] } }, stack.domain);
    await createEnvironment({ actor, organizationId: user.defaultOrganizationId, name: CANARY }, stack.domain);
    await publishVariant({ actor, componentId: component.id, environment: CANARY, variantId: variants[1]!.id }, stack.domain);
    await setFlowComponents({ actor, flowId: flow.id, componentIds: [component.id] }, stack.domain);
    return {
      org: user.defaultOrganizationId,
      component: component.id,
      variant: variants[0]!.id,
      environment: (await stack.domain.repos.environments.findByName(user.defaultOrganizationId, 'staging'))!.id,
      spareEnvironment: await aSpareEnvironment(user),
      flow: flow.id,
      releaseEvent: released(await publishVariant({ actor, componentId: component.id, environment: 'prod' }, stack.domain)).event.id,
      spareComponent: await aSpareComponent(user),
      grant: await aConnectedApplication(stack, user, `${name} assistant`),
      previewKey: (await createPreviewKey({ actor, organizationId: user.defaultOrganizationId, name: `${name} key` }, stack.domain)).key.id,
      auditEvent: await anAuditEventOf(user, component.id),
      invitation: (await createInvitation({ actor, organizationId: user.defaultOrganizationId, email: `${name.replace(/\s/g, '-')}-invitee@example.test`, role: 'member' }, stack.domain)).invitation.id,
      ...(await aSpareOrganization(user)),
      releaseRequest: await aPendingRequest(user, component.id, variants[0]!.id, 'prod'),
      declinableRequest: await aPendingRequest(user, component.id, variants[0]!.id, 'staging'),
      ...(await aWebhookWithMessage(user, component.id)),
      apiToken: (await createApiToken({ actor, organizationId: user.defaultOrganizationId, name: `${name} token`, scope: { componentIds: null, environments: [], access: 'read', protectedEnvironments: false } }, stack.domain)).token.id,
      ciPolicy: (await aCiPolicyOf(user, `${name} policy`)).id,
    };
  };
  aliceIds = await idsOf(alice, 'Alices secret component');
  const aliceMember = await anAccount(stack.auth);
  await aMembership(stack.db, aliceMember, alice.defaultOrganizationId, 'member');
  aliceIds = { ...aliceIds, spareOrg: alice.defaultOrganizationId, spareMember: aliceMember.id };
  bobIds = await idsOf(bob, 'Bobs component');
  const organization = (await stack.domain.repos.organizations.findById(alice.defaultOrganizationId))!;
  const variant = (await stack.domain.repos.variants.findById(aliceIds.variant))!;
  secrets = ['Alices secret component', (await stack.domain.repos.environments.listForOrganization(alice.defaultOrganizationId)).find((e) => e.id === aliceIds.spareEnvironment)!.name, organization.name, alice.email, variant.sha256, 'Alices secret component assistant', aliceMember.email, 'Alices secret component token', 'Alices secret component policy'];
  bobBrowser = new FormBrowser();
  const { page } = await signInThrough(bobBrowser, stack.url, '/orgs', bob);
  bobCsrf = csrfOf(page);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

let spares = 0;
/** An environment nothing was released to, so removing it would work. Named so that no name contains another (a secret of Alice's). */
const aSpareEnvironment = async (user: User): Promise<string> =>
  (await createEnvironment({ actor: { userId: user.id }, organizationId: user.defaultOrganizationId, name: `spare-${++spares}-env` }, stack.domain)).id;

/** A pending release request (made through the port: the probes need one per environment). */
const aPendingRequest = async (user: User, componentId: string, variantId: string, environment: string): Promise<string> => {
  const env = (await stack.domain.repos.environments.findByName(user.defaultOrganizationId, environment))!;
  const { request } = await stack.domain.repos.releaseRequests.create({ id: randomUUID(), componentId, environmentId: env.id, variantId, requestedBy: user.id, now: new Date(), audit: { eventId: randomUUID(), actorId: user.id } });
  return request.id;
};

/** A component in no flow, so adding it to one would work (adding one twice is refused). */
const aSpareComponent = async (user: User): Promise<string> =>
  (await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: `Spare component ${++spares}.` })).id;

/** One event in the user's audit trail (recorded as the write ports do), older than the control probes' cursor needs. */
async function anAuditEventOf(user: User, componentId: string): Promise<string> {
  const [older, event] = [0, 1].map(() => anAuditEvent({ organizationId: user.defaultOrganizationId, actorId: user.id, componentId }));
  await recordAuditEvents(stack.db!, older!, event!);
  return event!.id;
}

/** An endpoint subscribed to tag edits, and the message one tag edit queued for it (no worker runs here). */
async function aWebhookWithMessage(user: User, componentId: string): Promise<Pick<Ids, 'webhook' | 'webhookMessage'>> {
  const actor = { userId: user.id };
  const deps = { ...stack.domain, webhookUrls: outboundUrlPolicy({ allowLoopback: true }) };
  const { endpoint } = await createWebhookEndpoint({ actor, organizationId: user.defaultOrganizationId, url: `http://127.0.0.1:9/${randomUUID()}`, eventTypes: ['component.tags_changed'], enabled: true }, deps);
  await stack.domain.repos.components.editTags(componentId, { kind: 'change', add: [`hooked-${++spares}`], remove: [] }, { now: new Date(), maxTags: 50, audit: { eventId: randomUUID(), actorId: user.id } });
  const message = await stack.db!.prisma.webhookMessage.findFirstOrThrow({ where: { endpointId: endpoint.id } });
  return { webhook: endpoint.id, webhookMessage: message.id };
}

/** A CI trust policy of the user's organization (read: the rename probe renames staging); the delete probe's control removes Bob's, so each control makes one again. */
const aCiPolicyOf = (user: User, name: string) =>
  createCiPolicy(
    { actor: { userId: user.id }, organizationId: user.defaultOrganizationId, name, provider: 'github', ownerId: '1', repositoryId: String(++spares), repositoryName: 'acme/web', workflow: '.github/workflows/release.yml', environment: null, refPatterns: [], requireHostedRunner: false, scope: { componentIds: null, environments: [], access: 'read', protectedEnvironments: false } },
    stack.domain,
  );

/** Bob's policy, made again once the delete probe's control removed it. */
async function aLivePolicyOfBob(): Promise<string> {
  const live = await stack.domain.repos.ciTrustPolicies.listForOrganization(bobIds.org);
  if (live.some((p) => p.id === bobIds.ciPolicy)) return bobIds.ciPolicy;
  bobIds = { ...bobIds, ciPolicy: (await aCiPolicyOf(bob, `Bobs policy ${++spares}`)).id };
  return bobIds.ciPolicy;
}

const unknownIds = (): Ids => ({ apiToken: randomUUID(), ciPolicy: randomUUID(),  org: randomUUID(), component: randomUUID(), variant: randomUUID(), environment: randomUUID(), spareEnvironment: randomUUID(), flow: randomUUID(), releaseEvent: randomUUID(), spareComponent: randomUUID(), grant: randomUUID(), previewKey: randomUUID(), auditEvent: randomUUID(), invitation: randomUUID(), spareOrg: randomUUID(), spareMember: randomUUID(), releaseRequest: randomUUID(), declinableRequest: randomUUID(), webhook: randomUUID(), webhookMessage: `msg_${randomUUID().replaceAll('-', '')}` });
const SPARE_ORG = 'Spare organization';
/** The environment of the rollout probes (prod holds the experience: one of the two at a time). */
const CANARY = 'canary';

/**
 * The revision a change of Bob's live canary carries: his probes need one live, so one is started when
 * none is (the previous probe promoted or stopped it), its candidate whichever variant is not released.
 * Anyone else's ids (Alice's, unknown) get a revision that the organization check refuses before reading.
 */
async function liveRolloutRevision(ids: Ids): Promise<Record<string, string>> {
  if (ids.component !== bobIds.component) return { expectedRevision: '1' };
  const environment = (await stack.domain.repos.environments.findByName(bobIds.org, CANARY))!;
  const live = await stack.domain.repos.rollouts.findLive(ids.component, environment.id);
  if (live !== null) return { expectedRevision: String(live.revision) };
  const released = (await stack.domain.repos.releases.findCurrent(ids.component, environment.id))!.variantId;
  const candidate = (await stack.domain.repos.variants.listForComponent(ids.component, { limit: 10 })).find((v) => v.id !== released)!;
  const started = await startRollout({ actor: { userId: bob.id }, componentId: ids.component, environment: CANARY, candidateVariantId: candidate.id }, stack.domain);
  if (started.outcome !== 'started') throw new Error('the probe rollout became a release request');
  return { expectedRevision: String(started.rollout.revision) };
}
/** An organization `user` owns with another owner, and a member who is also in `user`'s own organization. */
async function aSpareOrganization(user: User): Promise<Pick<Ids, 'spareOrg' | 'spareMember'>> {
  const spare = await createOrganization({ actor: { userId: user.id }, name: SPARE_ORG }, stack.domain);
  const [coOwner, member] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  await aMembership(stack.db, coOwner, spare.id, 'owner');
  await aMembership(stack.db, member, spare.id, 'member');
  await aMembership(stack.db, member, user.defaultOrganizationId, 'member');
  return { spareOrg: spare.id, spareMember: member.id };
}


/** Bob sends the probe built from `ids`, as his browser would (POSTs with his CSRF token). */
const send = async (probe: Probe, ids: Ids): Promise<Page> =>
  bobBrowser.open(`${stack.url}${probe.path(ids)}`, probe.method === 'GET' ? {} : { method: 'POST', form: { csrf_token: bobCsrf, ...(await probe.form?.(ids)) } });

/** What Bob reads; ids in messages shown as <id> (an unknown id and Alice's must read the same). */
const outcome = (page: Page) => {
  const { title, message } = headline(page);
  return { status: page.status, title, message: message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>') };
};

/** Everything any probe could change, in both organizations and both accounts. */
async function everything() {
  const repos = stack.domain.repos;
  const organization = async (ids: Ids, user: User) => ({
    memberships: await repos.organizations.listForUser(user.id),
    environments: await repos.environments.listForOrganization(ids.org),
    components: await repos.components.listRecentlyUpdated({ organizationId: ids.org, limit: 100, offset: 0 }),
    variants: await repos.variants.listForComponent(ids.component, { limit: 100 }),
    releases: await repos.releases.listCurrent(ids.component),
    history: await repos.releases.history(ids.component, { limit: 100 }),
    flows: await repos.flows.listForOrganization(ids.org),
    grants: (await stack.auth.oidc.listGrants(user.id)).map((g) => g.grantId).sort(),
    previewKeys: await repos.previewKeys.listForOrganization(ids.org),
    invitations: await repos.invitations.listForOrganization(ids.org, { limit: 100 }),
    members: await repos.members.list(ids.org),
    spareMembers: await repos.members.list(ids.spareOrg),
    organization: await repos.organizations.findById(ids.spareOrg),
    webhooks: await repos.webhookEndpoints.listForOrganization(ids.org),
    apiTokens: await repos.apiTokens.listForOrganization(ids.org),
    ciPolicies: await repos.ciTrustPolicies.listForOrganization(ids.org),
    app: await repos.apps.find(ids.component),
    webhookJobs: await stack.db!.prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM jobs.job'),
  });
  return { alice: await organization(aliceIds, alice), bob: await organization(bobIds, bob) };
}

test('the table covers every route of the app, and names no route that is gone', () => {
  const routes = routePatterns(stack.app);
  expect({ uncovered: routes.filter((route) => !(route in ROUTES)), gone: Object.keys(ROUTES).filter((route) => !routes.includes(route)) }).toEqual({ uncovered: [], gone: [] });
});

const probed = Object.entries(ROUTES).flatMap(([route, probes]) => (Array.isArray(probes) ? [[route, probes] as const] : []));

test.each(probed)("%s with Alice's ids: what an unknown id gets, nothing of hers shown, nothing changed; with Bob's own ids it works", async (_route, probes) => {
  for (const probe of probes) {
    const before = await everything();
    const foreign = await send(probe, aliceIds);
    const unknown = await send(probe, unknownIds());
    expect(await everything()).toEqual(before);

    const expected = probe.expected === undefined ? NOT_FOUND : probe.expected === 'his own page' ? { status: 200 } : probe.expected;
    expect({ probe: probe.name, ...outcome(foreign) }).toMatchObject({ probe: probe.name, ...expected });
    expect({ probe: probe.name, ...outcome(foreign) }).toEqual({ probe: probe.name, ...outcome(unknown) });
    expect({ probe: probe.name, leaked: secrets.filter((secret) => foreign.html.includes(secret)) }).toEqual({ probe: probe.name, leaked: [] });

    // The same request about Bob's own things: a page, not an error (so the 404 above was the organization check).
    const control = await send(probe, { ...bobIds, spareEnvironment: await aSpareEnvironment(bob), spareComponent: await aSpareComponent(bob), ...(await aSpareOrganization(bob)), ciPolicy: await aLivePolicyOfBob() });
    expect({ probe: probe.name, status: control.status, url: control.url.startsWith(stack.url) }).toEqual({ probe: probe.name, status: 200, url: true });
  }
});
