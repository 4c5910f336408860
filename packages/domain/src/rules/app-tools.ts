import type { LiveApp } from '../entities/component-app.js';

/** How a released app appears to MCP clients: its tool and its view resource, both naming the release. */
export interface AppTool {
  readonly name: string;
  readonly resourceUri: string;
  readonly live: LiveApp & { readonly release: NonNullable<LiveApp['release']> };
}

/** Lower-case letters, digits and single `_`: what every MCP client accepts in a tool name. */
const slug = (text: string, max: number): string =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max)
    .replace(/_+$/, '') || 'component';

export const appResourceUri = (componentId: string, version: number): string => `ui://apps/${componentId}/v${version}.html`;

/**
 * The member's app tools: `show_<component>_v<version>`, or `show_<organization>_<component>_v<version>`
 * for a name two of the member's organizations share, so every name is unique and stable. An app
 * whose environment has no release has no tool (nothing to show).
 */
export function appTools(apps: readonly LiveApp[]): AppTool[] {
  const released = apps.filter((live): live is AppTool['live'] => live.release !== null);
  const count = new Map<string, number>();
  for (const { app } of released) count.set(slug(app.componentName, 48), (count.get(slug(app.componentName, 48)) ?? 0) + 1);
  return released.map((live) => {
    const component = slug(live.app.componentName, 48);
    const owner = count.get(component)! > 1 ? `${slug(live.organizationName, 40)}_` : '';
    return { name: `show_${owner}${component}_v${live.release.version}`, resourceUri: appResourceUri(live.app.componentId, live.release.version), live };
  });
}
