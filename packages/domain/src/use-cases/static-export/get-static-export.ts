import type { StaticExport } from '../../entities/static-export.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';

/** The organization's static export as its settings show it: owners and admins only, like the switch. */
export async function getStaticExport(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<StaticExport> {
  await requirePermission(
    input.actor,
    input.organizationId,
    Permission.ManageSetup,
    'see the static export',
    deps,
  );
  return deps.repos.staticExports.find(input.organizationId);
}
