import type { LiveApp } from '../entities/component-app.js';

/** How a released app appears to MCP clients: its tool and its view resource, both naming the release. */
export interface AppTool {
  readonly name: string;
  readonly resourceUri: string;
  readonly live: LiveApp & { readonly release: NonNullable<LiveApp['release']> };
}

/*
 * Lower-case ASCII letters, digits and single `_`: what every MCP client accepts in a tool name.
 * Accents are dropped (é -> e); a name with no such character at all reads `component`. The
 * lengths keep a whole name within the shortest tool-name limit among clients (docs/mcp-apps.md).
 */
const COMPONENT_CHARS = 28;
const ORGANIZATION_CHARS = 14;
const ID_CHARS = 8;

const slug = (text: string, max: number): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max)
    .replace(/_+$/, '') || 'component';

export const appResourceUri = (componentId: string, version: number): string => `ui://apps/${componentId}/v${version}.html`;

type Released = AppTool['live'];

/** How many of `apps` share each key. */
const counts = (apps: readonly Released[], key: (live: Released) => string): Map<string, number> => {
  const count = new Map<string, number>();
  for (const live of apps) count.set(key(live), (count.get(key(live)) ?? 0) + 1);
  return count;
};

/**
 * The member's app tools: `show_<component>_v<version>`, or `show_<organization>_<component>_v<version>`
 * for a name two of the member's organizations share, so every name is unique and stable. Names
 * that are still the same (two components whose names differ only in punctuation, two
 * organizations of the same name) also carry the first characters of the component's id. An
 * app whose environment has no release has no tool (nothing to show).
 */
export function appTools(apps: readonly LiveApp[]): AppTool[] {
  const released = apps.filter((live): live is Released => live.release !== null);
  const component = (live: Released) => slug(live.app.componentName, COMPONENT_CHARS);
  const byComponent = counts(released, component);
  const qualified = (live: Released) =>
    byComponent.get(component(live))! > 1 ? `${slug(live.organizationName, ORGANIZATION_CHARS)}_${component(live)}` : component(live);
  const byQualified = counts(released, qualified);
  return released.map((live) => {
    const unique = byQualified.get(qualified(live))! > 1 ? `${qualified(live)}_${live.app.componentId.replace(/-/g, '').slice(0, ID_CHARS)}` : qualified(live);
    return { name: `show_${unique}_v${live.release.version}`, resourceUri: appResourceUri(live.app.componentId, live.release.version), live };
  });
}

/** Every app tool's name starts so (appTools); the MCP server's own tools never do. */
export const APP_TOOL_PREFIX = 'show_';

/** What a `show_…` name a client calls is among the member's apps now. */
export type AppToolLookup =
  | { readonly kind: 'current'; readonly tool: AppTool }
  /** The app's tool of an earlier (or later) release: the client listed tools before a publish. */
  | { readonly kind: 'outdated'; readonly current: AppTool }
  /** The app is there, but its environment serves no release, so there is nothing to show. */
  | { readonly kind: 'unreleased'; readonly live: LiveApp }
  | { readonly kind: 'unknown' };

const VERSIONED = /^(show_.+)_v\d+$/;

/** The name without its `_v<version>`: the part that stays the same across releases. */
const baseOf = (name: string): string | null => VERSIONED.exec(name)?.[1] ?? null;

/** What an app without a release would be named: alone, or among the member's other apps. */
function namesWithoutRelease(apps: readonly LiveApp[], live: LiveApp): string[] {
  const placeholder = { variantId: '', version: 0 };
  const asReleased = (other: LiveApp): LiveApp => (other.release === null ? { ...other, release: placeholder } : other);
  const alone = appTools([asReleased(live)]);
  const among = appTools(apps.map(asReleased)).filter((tool) => tool.live.app.componentId === live.app.componentId);
  return [...alone, ...among].map((tool) => baseOf(tool.name)!);
}

/**
 * Finds a called tool name among the member's apps. A name of another release, or of an app
 * whose environment has no release any more, is told apart from a name that was never there, so
 * the caller learns what to call instead.
 */
export function lookUpAppTool(apps: readonly LiveApp[], name: string): AppToolLookup {
  const tools = appTools(apps);
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool !== undefined) return { kind: 'current', tool };
  const base = baseOf(name);
  if (base === null) return { kind: 'unknown' };
  const current = tools.find((candidate) => baseOf(candidate.name) === base);
  if (current !== undefined) return { kind: 'outdated', current };
  // An app without a release has no tool, hence no name to compare: any name it would take.
  const unreleased = apps.find((live) => live.release === null && namesWithoutRelease(apps, live).includes(base));
  return unreleased === undefined ? { kind: 'unknown' } : { kind: 'unreleased', live: unreleased };
}
