import { AuditKind, GUARD_ACTOR_ID, type AuditEntry, type AuditEvent } from '@cp/domain';
import { actorName, auditSummary, kindLabel } from '../src/pages/audit-summary.js';
import { viaLabel } from '../src/pages/audit-via.js';

/* src/pages/audit-summary.ts for experiences, rollouts, apps and credentials: each kind's line from the details packages/db writes, and the guard named as who acted. */

const entry = (kind: AuditEvent['kind'], details: AuditEvent['details'], actorId = 'u1'): AuditEntry => ({
  event: { id: 'e', organizationId: 'o', actorId, kind, componentId: 'c', subjectUserId: null, details, createdAt: new Date(0), via: null },
  actorEmail: actorId === 'u1' ? 'ann@acme.test' : null,
  subjectEmail: null,
  componentName: 'Price tag',
});

test.each([
  [AuditKind.ExperiencePublished, { environment: 'prod', revision: 3, republishedFrom: 1, saltKept: true }, 'Experience published', 'revision 3 · in prod · re-published from revision 1 · users kept their buckets'],
  [AuditKind.RolloutStarted, { environment: 'prod', candidate: { id: 'v', sequence: 7 }, stageIndex: 0, weight: 1_000, by: 'person' }, 'Rollout started', 'variant 7 · in prod · stage 1 · 1%'],
  [AuditKind.RolloutAdvanced, { environment: 'prod', candidate: { id: 'v', sequence: 7 }, stageIndex: 1, weight: 5_000, by: 'guard' }, 'Rollout advanced', 'variant 7 · in prod · stage 2 · 5% · by the guard'],
  [AuditKind.RolloutStopped, { environment: 'prod', candidate: { id: 'v', sequence: 7 }, weight: 0, by: 'person', reason: 'checkout errors' }, 'Rollout stopped', 'variant 7 · in prod · checkout errors'],
  [AuditKind.RolloutRolledBack, { environment: 'prod', candidate: { id: 'v', sequence: 7 }, by: 'guard', reason: 'Rolled back after 2 regressed windows' }, 'Rollout rolled back by the guard', 'variant 7 · in prod · by the guard · Rolled back after 2 regressed windows'],
  [AuditKind.AppSaved, { created: true, environment: 'prod', title: 'Price tag', inputSchema: true, actionTools: 2 }, 'Offered in AI assistants', 'now an app · Price tag · shows prod · with an input schema · 2 actions call tools'],
  [AuditKind.AppSaved, { created: false, environment: 'staging', title: 'Price', inputSchema: false, actionTools: 0 }, 'Offered in AI assistants', 'settings changed · Price · shows staging'],
  [AuditKind.AppRemoved, { environment: 'prod', title: 'Price tag' }, 'No longer offered in AI assistants', 'Price tag · showed prod'],
  [AuditKind.ApiTokenCreated, { name: 'nightly', prefix: 'cpt_AbCdEfGh' }, 'API token created', 'nightly · cpt_AbCdEfGh'],
  [AuditKind.CiPolicyDeleted, { name: 'web-release', provider: 'github', repositoryName: 'acme/web' }, 'CI trust policy deleted', 'web-release · github · acme/web'],
] as const)('%s reads as a line', (kind, details, label, summary) => {
  expect([kindLabel(kind), auditSummary(entry(kind, details))]).toEqual([label, summary]);
});

test('the guard acts as no user: "the rollout guard"; a person by their email, a deleted one as a former user', () => {
  expect(actorName(entry(AuditKind.RolloutRolledBack, {}, GUARD_ACTOR_ID))).toBe('the rollout guard');
  expect(actorName(entry(AuditKind.RolloutStopped, {}))).toBe('ann@acme.test');
  expect(actorName(entry(AuditKind.RolloutStopped, {}, 'gone'))).toBe('a former user');
});

test('via: a CI job by repository, workflow file, run and short commit; an API token by its name; nothing for the others', () => {
  const ci = {
    via: 'ci',
    policyId: 'p',
    policyName: 'web-release',
    provider: 'github',
    repository: 'acme/web',
    workflow: 'acme/web/.github/workflows/release.yml@refs/heads/main',
    runId: '8812',
    commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  } as const;
  expect(viaLabel(ci)).toBe('via CI: acme/web, release.yml, run 8812, commit 9fceb02');
  expect(viaLabel({ via: 'api-token', tokenId: 't', tokenName: 'nightly' })).toBe("via API token 'nightly'");
  expect(viaLabel(null)).toBeNull();
});
