import type { AppSettings, ComponentApp } from '../../entities/component-app.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { checkAppSettings } from '../../rules/app-definition.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';
import { loadExperienceTarget } from '../experiences/experience-target.js';

/**
 * Offers the component to AI assistants as an app (docs/mcp-apps.md), or changes how: owners and
 * admins only, since every member's assistant then lists it. The environment must serve a
 * release now, so the tool has something to show from the first call.
 */
export async function saveComponentApp(
  input: { actor: Actor; componentId: string; settings: AppSettings },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<ComponentApp> {
  const { settings } = input;
  checkAppSettings(settings);
  const { component, environment } = await loadExperienceTarget({ ...input, environment: settings.environment }, deps);
  await requirePermission(input.actor, component.organizationId, Permission.ManageSetup, 'offer components as apps', deps);
  if (!(await deps.repos.releases.findCurrent(component.id, environment.id))) {
    throw new DomainError(
      ErrorCode.Conflict,
      `${component.name} has no release in ${environment.name}: an app shows what is released there. Publish a variant to ${environment.name} first.`,
    );
  }
  return deps.repos.apps.save({
    componentId: component.id,
    environmentId: environment.id,
    settings: { title: settings.title.trim(), description: settings.description.trim(), inputSchema: settings.inputSchema, actionTools: settings.actionTools },
    savedBy: input.actor.userId,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
}
