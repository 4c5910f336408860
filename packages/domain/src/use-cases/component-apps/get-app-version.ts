import type { ComponentApp } from '../../entities/component-app.js';
import type { Variant } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';

/**
 * The stored file of version `version` of an app, for its view (`ui://apps/<id>/v<version>.html`):
 * a member's read, while the component is an app. Any version reads, not only the current
 * release: versions are immutable, so a client holding the template of an earlier release still
 * shows what it showed. A stranger's component, a component that is no app and an unknown
 * version all answer "not found".
 */
export async function getAppVersion(
  input: { actor: Actor; componentId: string; version: number },
  deps: Pick<DomainDeps, 'repos' | 'objects'>,
): Promise<{ app: ComponentApp; variant: Variant; content: Uint8Array }> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const app = await deps.repos.apps.find(component.id);
  if (app === null) throw notFound('App of component', component.id);
  const [variant] =
    Number.isSafeInteger(input.version) && input.version > 0
      ? await deps.repos.variants.listForComponent(component.id, {
          limit: 1,
          beforeSequence: input.version + 1,
        })
      : [];
  if (variant === undefined || variant.sequence !== input.version)
    throw notFound('Version', `${component.id} v${input.version}`);
  return { app, variant, content: await deps.objects.read(variant.objectKey) };
}
