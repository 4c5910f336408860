import type { UploadSession } from '../../entities/upload-session.js';
import { UploadState } from '../../entities/upload-session.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { curlUploadCommand } from '../../rules/curl-command.js';
import { normalizeComponentName } from '../../rules/names.js';
import { Permission } from '../../rules/roles.js';
import { refuseNewComponentInScope } from '../access/credential-scope.js';
import { requirePermission } from '../access/require-permission.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { resolveOrganization } from '../organizations/resolve-organization.js';
import { stagingKey } from './upload-keys.js';

export interface StartUploadInput {
  readonly actor: Actor;
  /** Name of a new component (service.config.json `name`); ignored when `componentId` is given. */
  readonly name?: string | undefined;
  readonly componentId?: string | undefined;
  /** Organization id or name; defaults to the actor's default organization. */
  readonly organization?: string | undefined;
}

export interface StartedUpload {
  readonly session: UploadSession;
  readonly uploadUrl: string;
  readonly curlCommand: string;
  readonly expiresInSeconds: number;
}

/**
 * Step 1 of an upload: a session and a presigned PUT URL. A new component's name
 * must be free in its organization (case-insensitive); when it is taken, the
 * error names the existing component so the caller can pass its id instead.
 * Members and above only (Permission.Write).
 */
export async function startUpload(input: StartUploadInput, deps: DomainDeps): Promise<StartedUpload> {
  const target = input.componentId
    ? await existingTarget(input, input.componentId, deps)
    : await newTarget(input, deps);
  const now = deps.clock.now();
  const ttl = deps.config.uploadTtlSeconds;
  const id = deps.ids.newId();
  const session: UploadSession = {
    id,
    userId: input.actor.userId,
    organizationId: target.organizationId,
    componentId: target.componentId,
    componentName: target.name,
    stagingKey: stagingKey(id),
    state: UploadState.Pending,
    expiresAt: new Date(now.getTime() + ttl * 1000),
    createdAt: now,
    result: null,
    stagingRemovedAt: null,
  };
  await deps.repos.uploadSessions.create(session);
  // Signed at the session's start, so the URL expires no later than the session: the
  // sweep removes the staging object after `expiresAt`, when no PUT can land any more.
  const uploadUrl = await deps.objects.presignPut(session.stagingKey, {
    expiresInSeconds: ttl,
    contentType: 'text/html',
    signedAt: now,
  });
  return { session, uploadUrl, curlCommand: curlUploadCommand(uploadUrl), expiresInSeconds: ttl };
}

interface Target {
  organizationId: string;
  componentId: string | null;
  name: string;
}

async function existingTarget(input: StartUploadInput, componentId: string, deps: DomainDeps): Promise<Target> {
  const component = await loadAccessibleComponent(input.actor, componentId, deps);
  if (input.organization !== undefined) {
    const organization = await resolveOrganization(input.actor, input.organization, deps);
    if (organization.id !== component.organizationId) {
      throw invalidInput(
        'organization',
        `component ${component.id} belongs to another organization (${component.organizationId}). Fix "organization" in service.config.json or leave it out.`,
      );
    }
  }
  await requirePermission(input.actor, component.organizationId, Permission.Write, 'upload components', deps);
  return { organizationId: component.organizationId, componentId: component.id, name: component.name };
}

async function newTarget(input: StartUploadInput, deps: DomainDeps): Promise<Target> {
  if (input.name === undefined) {
    throw invalidInput(
      'name',
      'pass "name" (from service.config.json) to create a new component, or "componentId" to add a version to an existing one.',
    );
  }
  const name = normalizeComponentName(input.name);
  refuseNewComponentInScope(input.actor);
  const organization = await resolveOrganization(input.actor, input.organization, deps);
  await requirePermission(input.actor, organization.id, Permission.Write, 'upload components', deps);
  const existing = await deps.repos.components.findByName(organization.id, name);
  if (existing) {
    throw new DomainError(
      ErrorCode.NameTaken,
      `A component named "${existing.name}" already exists in ${organization.name} (componentId ${existing.id}). To add a new version, pass componentId "${existing.id}" (and save it in service.config.json); to create a separate component, choose another name.`,
      { componentId: existing.id },
    );
  }
  return { organizationId: organization.id, componentId: null, name };
}
