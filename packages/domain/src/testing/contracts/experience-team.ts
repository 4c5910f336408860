/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../entities/audit-event.js';
import type { ExperienceDefinition } from '../../entities/experience.js';
import type { Role } from '../../entities/organization.js';
import { DEFAULT_GUARD_SETTINGS, type RolloutStage } from '../../entities/rollout.js';
import { WEBHOOK_EVENT_TYPES } from '../../entities/webhook.js';
import type { Repositories } from '../../ports/repositories.js';
import type { RolloutChange } from '../../ports/rollouts.js';

/** What the experiences and rollouts contracts need from an implementation. */
export interface ExperiencesSubject {
  readonly repos: Repositories;
  /** `userId` joins the organization with `role`. */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
  /** A component of the organization with three variants (sequence 1, 2, 3), uploaded by `createdBy`. */
  readonly aComponent: (
    organizationId: string,
    createdBy: string,
  ) => Promise<{ id: string; variants: [string, string, string] }>;
  /** The component's audit rows of kinds `experience.*`, `rollout.*` and `release.*`, oldest first. */
  readonly auditOf: (
    componentId: string,
  ) => Promise<Pick<AuditEvent, 'kind' | 'actorId' | 'details'>[]>;
  /** The webhook events enqueued for the organization's endpoints (type and body `data`), oldest first. */
  readonly webhookEventsOf: (
    organizationId: string,
  ) => Promise<{ type: string; data: Record<string, unknown> }[]>;
}

export const STAGES: readonly RolloutStage[] = [
  { weight: 1_000, holdMinutes: 60 },
  { weight: 5_000, holdMinutes: 60 },
  { weight: 100_000, holdMinutes: 0 },
];

/**
 * An owner's organization (`staging` open, `prod` protected) with a member, a webhook endpoint
 * subscribed to every event, and a component of three variants whose v1 is released to both.
 */
export async function anExperienceTeam(subject: ExperiencesSubject) {
  const { repos } = subject;
  const ids = { staging: randomUUID(), prod: randomUUID() };
  const owner = randomUUID();
  const organizationId = randomUUID();
  await repos.users.createWithOrganization({
    user: { id: owner, email: `${owner}@example.test`, displayName: null },
    organization: {
      id: organizationId,
      name: `Experiments ${owner.slice(0, 8)}`,
      environments: [
        { id: ids.staging, name: 'staging', protected: false },
        { id: ids.prod, name: 'prod', protected: true },
      ],
    },
    now: new Date('2026-05-01T00:00:00.000Z'),
  });
  const member = randomUUID();
  await repos.users.createWithOrganization({
    user: { id: member, email: `${member}@example.test`, displayName: null },
    organization: { id: randomUUID(), name: `Own ${member.slice(0, 8)}`, environments: [] },
    now: new Date('2026-05-01T00:00:00.000Z'),
  });
  await subject.addMember(member, organizationId, 'member');
  const created = await repos.webhookEndpoints.create(
    {
      id: randomUUID(),
      organizationId,
      url: 'https://hooks.example.test/cp',
      eventTypes: WEBHOOK_EVENT_TYPES,
      secret: `whsec_${'a'.repeat(32)}`,
      enabled: true,
      createdBy: owner,
      createdAt: new Date(),
    },
    10,
    note(owner),
  );
  if (created === 'limit-reached') throw new Error('no webhook endpoint');
  const component = await subject.aComponent(organizationId, owner);
  const [v1, v2, v3] = component.variants;
  let clock = Date.parse('2026-05-02T10:00:00.000Z');
  const now = () => new Date((clock += 1000));
  const release = (variantId: string, environmentId = ids.staging, by = owner) =>
    repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId,
      variantId,
      releasedBy: by,
      enforceProtection: true,
      now: now(),
      audit: note(by),
    });
  await release(v1, ids.staging);
  await release(v1, ids.prod);
  const publish = (
    definition: ExperienceDefinition,
    options: {
      environmentId?: string;
      salt?: string;
      republishedFrom?: number | null;
      expectedLive?: number | null;
      by?: string;
    } = {},
  ) =>
    repos.experiences.publish({
      componentId: component.id,
      environmentId: options.environmentId ?? ids.staging,
      definition,
      salt: options.salt ?? randomUUID().slice(0, 16),
      republishedFrom: options.republishedFrom ?? null,
      ...(options.expectedLive !== undefined ? { expectedLive: options.expectedLive } : {}),
      moved: [],
      publishedBy: options.by ?? owner,
      now: now(),
      audit: note(options.by ?? owner),
    });
  const start = (
    options: {
      environmentId?: string;
      candidate?: string;
      baseline?: string;
      by?: string;
      stages?: readonly RolloutStage[];
    } = {},
  ) =>
    repos.rollouts.start({
      id: randomUUID(),
      componentId: component.id,
      environmentId: options.environmentId ?? ids.staging,
      candidateVariantId: options.candidate ?? v2,
      baselineVariantId: options.baseline ?? v1,
      salt: randomUUID().slice(0, 16),
      stages: options.stages ?? STAGES,
      guard: DEFAULT_GUARD_SETTINGS,
      startedBy: options.by ?? owner,
      now: now(),
      audit: note(options.by ?? owner),
    });
  const change = (rolloutId: string, expectedRevision: number, what: RolloutChange, by = owner) =>
    repos.rollouts.change({
      rolloutId,
      expectedRevision,
      change: what,
      now: now(),
      audit: note(by),
    });
  return {
    repos,
    organizationId,
    owner,
    member,
    ids,
    componentId: component.id,
    v1,
    v2,
    v3,
    now,
    release,
    publish,
    start,
    change,
  };
}

export const note = (actorId: string) => ({ eventId: randomUUID(), actorId });

/** A split of everyone in `country` DE between two variants, half each. */
export const aSplit = (a: string, b: string): ExperienceDefinition => ({
  segments: [
    {
      name: 'germany',
      rules: [{ attribute: 'country', operator: 'equals', values: ['DE'] }],
      arms: [
        { variantId: a, weight: 50_000 },
        { variantId: b, weight: 50_000 },
      ],
    },
  ],
});

/** Everyone gets `variantId`. */
export const everyone = (variantId: string): ExperienceDefinition => ({
  segments: [{ name: 'all', rules: [], arms: [{ variantId, weight: 100_000 }] }],
});

export const OFF: ExperienceDefinition = { segments: [] };

/** The code a promise rejects with. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? `not a coded error: ${String(error)}`;
  }
  return 'resolved';
}
