import { DomainError, ErrorCode, getComponentPage, normalizeEnvironmentName, type Variant } from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import { componentId, environmentName } from './params.js';

const versionShape = z.object({ variantId: z.string(), sequence: z.int() });
const versionOf = (variant: Variant | null) => (variant ? { variantId: variant.id, sequence: variant.sequence } : null);

/**
 * The release history the choices look through is the dashboard's (COMPONENT_PAGE_SIZES), so both find
 * the same event behind a release; the variants page does not change them (older ones are read).
 */
const PAGE_SIZES = { variants: 20, releaseEvents: 50 } as const;

/**
 * What the preview view's buttons act on (docs/mcp-apps.md, section 1): the same choices as the
 * dashboard's component page, so "Roll back" means the same in both. Only the view calls it.
 */
export const getReleaseChoices = defineTool({
  name: 'get_release_choices',
  title: 'Release choices of an environment',
  description:
    'For the component preview view: what an environment of a component serves now, the version "Roll back" releases there ' +
    '(the version the current release replaced when older, else the one before it) and the latest version. ' +
    'To roll back, publish_component with rollBack.variantId; list_variants lists every version.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  input: z.strictObject({ componentId, environment: environmentName }),
  output: z.object({
    componentId: z.string(),
    environment: z.string(),
    current: versionShape.extend({ releasedAt: z.string() }).nullable().describe('What the environment serves; null before its first release.'),
    rollBack: versionShape.nullable().describe('What "Roll back" releases; null when there is nothing older to go back to.'),
    latest: versionShape.nullable().describe('The newest version; null before the first upload.'),
  }),
  async run(args, ctx) {
    const name = normalizeEnvironmentName(args.environment);
    const page = await getComponentPage(
      { actor: actorOf(ctx), componentId: args.componentId, variantId: null, pageSizes: PAGE_SIZES },
      ctx.domain,
    );
    const choices = page.environments.find((entry) => entry.environment.name === name);
    if (choices === undefined) {
      const known = page.environments.map((entry) => entry.environment.name).join(', ') || 'none';
      throw new DomainError(ErrorCode.NotFound, `Environment "${name}" does not exist in this organization. Known environments: ${known}.`, {
        resource: 'Environment',
      });
    }
    const { current } = choices;
    const serving = current === null ? undefined : page.variantsById.get(current.variantId);
    return {
      componentId: page.component.id,
      environment: name,
      current: current !== null && serving !== undefined ? { variantId: serving.id, sequence: serving.sequence, releasedAt: isoTime(current.releasedAt) } : null,
      rollBack: versionOf(choices.rollBack),
      latest: versionOf(page.preview),
    };
  },
});
