import type { StaticExport } from '../../entities/static-export.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';

/**
 * Turns the organization's static export on (an export job of everything is queued with the
 * change; turning it on again re-exports everything) or off (a job removes its objects).
 */
export async function setStaticExport(
  input: { actor: Actor; organizationId: string; enabled: boolean },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<StaticExport> {
  const access = { permission: Permission.ManageSetup, what: 'turn the static export on or off' };
  const result = await auditedChange(input, access, deps, (stamp) =>
    deps.repos.staticExports.setEnabled({
      organizationId: input.organizationId,
      enabled: input.enabled,
      ...stamp,
    }),
  );
  if (!result) throw notFound('Organization', input.organizationId);
  return result;
}
