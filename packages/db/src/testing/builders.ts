import { createHash, randomUUID } from 'node:crypto';
import {
  DEFAULT_ENVIRONMENTS,
  type AuditNote,
  type Component,
  type ConfirmUploadInput,
  type Environment,
  type Membership,
  type Organization,
  type Repositories,
  type Role,
  type UploadSession,
  type User,
  type Variant,
} from '@cp/domain';
import type { TestDatabase } from './test-database.js';

/*
 * Test data builders, named for what the test needs. They write through the
 * repositories (the same path as production code), so what they build obeys
 * every constraint. Defaults are unique per call: tests sharing one database
 * do not collide.
 */

let counter = 0;
/** `prefix-<n>-<random>`: unique within and across test files. */
export const uniqueName = (prefix: string): string =>
  `${prefix}-${++counter}-${randomUUID().slice(0, 8)}`;

/** The audit part of a write: a fresh row id, and who acts (a throw-away id unless given). */
export const anAuditNote = (actorId: string = randomUUID()): AuditNote => ({ eventId: randomUUID(), actorId });

export interface Owner {
  readonly user: User;
  readonly organization: Organization;
  readonly environments: Environment[];
}

/** A user with their own organization (environments `staging` and `prod`, protected), as sign-up creates them. */
export async function aUserWithOrganization(
  repos: Repositories,
  options: {
    email?: string;
    displayName?: string | null;
    organizationName?: string;
    now?: Date;
  } = {},
): Promise<Owner> {
  const organization = {
    id: randomUUID(),
    name: options.organizationName ?? uniqueName('org'),
    environments: DEFAULT_ENVIRONMENTS.map((env) => ({ id: randomUUID(), ...env })),
  };
  const user = await repos.users.createWithOrganization({
    user: {
      id: randomUUID(),
      email: options.email ?? `${uniqueName('user')}@example.test`,
      displayName: options.displayName ?? null,
    },
    organization,
    now: options.now ?? new Date(),
  });
  return {
    user,
    organization: (await repos.organizations.findById(organization.id))!,
    environments: await repos.environments.listForOrganization(organization.id),
  };
}

/**
 * `userId` joins the organization with `role`. Nothing in the product adds people to an
 * organization yet (the repositories write a membership only at sign-up), so this goes through Prisma.
 */
export async function aMembership(
  db: Pick<TestDatabase, 'prisma'>,
  membership: { userId: string; organizationId: string; role: Role },
): Promise<Membership> {
  await db.prisma.membership.create({ data: membership });
  return membership;
}

/** A new user (with their own organization) who is also `role` in `organizationId`. */
export async function aMemberOf(
  db: Pick<TestDatabase, 'prisma' | 'repos'>,
  organizationId: string,
  role: Role,
  options: { email?: string } = {},
): Promise<User> {
  const { user } = await aUserWithOrganization(db.repos, options);
  await aMembership(db, { userId: user.id, organizationId, role });
  return user;
}

/** A pending upload session; a new component's by default, or one for `componentId`. */
export async function anUploadSession(
  repos: Repositories,
  options: {
    userId: string;
    organizationId: string;
    componentId?: string | null;
    componentName?: string;
    expiresAt?: Date;
    now?: Date;
  },
): Promise<UploadSession> {
  const now = options.now ?? new Date();
  const id = randomUUID();
  const session: UploadSession = {
    id,
    userId: options.userId,
    organizationId: options.organizationId,
    componentId: options.componentId ?? null,
    componentName: options.componentName ?? uniqueName('component'),
    stagingKey: `staging/${id}`,
    state: 'pending',
    expiresAt: options.expiresAt ?? new Date(now.getTime() + 3_600_000),
    createdAt: now,
    result: null,
    stagingRemovedAt: null,
  };
  await repos.uploadSessions.create(session);
  return session;
}

/** The `variant` part of a confirm: unique ids and keys, plausible hashes. */
export function aVariantInput(
  createdBy: string,
  overrides: Partial<ConfirmUploadInput['variant']> = {},
) {
  const id = overrides.id ?? randomUUID();
  const digest = createHash('sha256').update(id).digest();
  return {
    id,
    objectKey: `variants/${id}/index.html`,
    size: 1024,
    sha256: digest.toString('hex'),
    integrity: `sha384-${createHash('sha384').update(id).digest('base64')}`,
    createdBy,
    ...overrides,
  };
}

/**
 * A component with one variant, created the only way components are created: an
 * upload session confirmed for a new component. Tags, when given, are then set.
 * Without `createdBy`, a throw-away user (outside the organization) is the uploader.
 */
export async function aComponent(
  repos: Repositories,
  options: {
    organizationId: string;
    createdBy?: string;
    name?: string;
    description?: string;
    tags?: string[];
    now?: Date;
  },
): Promise<Component> {
  const now = options.now ?? new Date();
  const createdBy = options.createdBy ?? (await aUserWithOrganization(repos)).user.id;
  const session = await anUploadSession(repos, {
    userId: createdBy,
    organizationId: options.organizationId,
    ...(options.name ? { componentName: options.name } : {}),
    now,
  });
  const componentId = randomUUID();
  await repos.uploadSessions.confirm({
    sessionId: session.id,
    now,
    componentId,
    newComponent: {
      id: componentId,
      organizationId: options.organizationId,
      name: session.componentName,
      description: options.description ?? '',
    },
    variant: aVariantInput(createdBy),
    audit: anAuditNote(createdBy),
  });
  if (options.tags) {
    await repos.components.editTags(
      componentId,
      { kind: 'set', tags: options.tags },
      { now, maxTags: 1000, audit: anAuditNote(createdBy) },
    );
  }
  return (await repos.components.findById(componentId))!;
}

/** One more variant of an existing component (next sequence number), through a confirmed upload. */
export async function aVariant(
  repos: Repositories,
  options: { componentId: string; createdBy: string; now?: Date },
): Promise<Variant> {
  const now = options.now ?? new Date();
  const component = await repos.components.findById(options.componentId);
  if (!component) throw new Error(`aVariant: no component ${options.componentId}`);
  const session = await anUploadSession(repos, {
    userId: options.createdBy,
    organizationId: component.organizationId,
    componentId: component.id,
    componentName: component.name,
    now,
  });
  const variant = aVariantInput(options.createdBy);
  await repos.uploadSessions.confirm({
    sessionId: session.id,
    now,
    componentId: component.id,
    newComponent: null,
    variant,
    audit: anAuditNote(options.createdBy),
  });
  return (await repos.variants.findById(variant.id))!;
}
