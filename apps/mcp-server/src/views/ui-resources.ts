import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tools/define.js';

/** The MIME type MCP Apps hosts render (`text/html;profile=mcp-app`). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** What a view asks of the host's sandbox (`_meta.ui` of the resource; docs/mcp-apps.md). */
export interface UiResourceMeta {
  readonly csp: {
    /** Origins the view may fetch from (CSP `connect-src`). */
    readonly connectDomains: readonly string[];
    /** Origins of its scripts, styles and images. */
    readonly resourceDomains: readonly string[];
    /** Origins of the frames it nests. */
    readonly frameDomains: readonly string[];
  };
  readonly prefersBorder: boolean;
}

/** One `ui://` resource: its listing, and its HTML for a caller. */
export interface UiResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: typeof MCP_APP_MIME_TYPE;
  readonly meta: UiResourceMeta;
  /** The HTML for this caller (the principal decides what an organization's resource shows). */
  read(ctx: ToolContext): Promise<string>;
}

/** Views that exist per caller (the apps of their organizations): listed and found with the caller's context. */
export interface UiResourceSource {
  list(ctx: ToolContext): Promise<UiResource[]>;
  /** The resource at `uri` if this source has it and the caller may read it, else null. */
  find(uri: string, ctx: ToolContext): Promise<UiResource | null>;
}

/** The views the server offers: the fixed ones by URI (the preview view), built once at start, then the per-caller ones. */
export interface UiResources {
  readonly fixed: ReadonlyMap<string, UiResource>;
  readonly perCaller: readonly UiResourceSource[];
}

export const uiResourcesOf = (resources: readonly UiResource[], perCaller: readonly UiResourceSource[] = []): UiResources => ({
  fixed: new Map(resources.map((resource) => [resource.uri, resource])),
  perCaller,
});

/** Every resource the caller may read (resources/list). */
export async function listUiResources(resources: UiResources, ctx: ToolContext): Promise<UiResource[]> {
  const perCaller = await Promise.all(resources.perCaller.map((source) => source.list(ctx)));
  return [...resources.fixed.values(), ...perCaller.flat()];
}

/**
 * The one lookup of a URI (resources/read): a fixed view, else one of the caller's, else null
 * (the caller answers InvalidParams).
 */
export async function findUiResource(resources: UiResources, uri: string, ctx: ToolContext): Promise<UiResource | null> {
  const fixed = resources.fixed.get(uri);
  if (fixed !== undefined) return fixed;
  for (const source of resources.perCaller) {
    const found = await source.find(uri, ctx);
    if (found !== null) return found;
  }
  return null;
}

const metaOf = (resource: UiResource) => ({ ui: resource.meta });

/** The resources/list entry: the same `_meta.ui` as the content, for hosts that read it there. */
export const listEntryOf = (resource: UiResource): Resource => ({
  uri: resource.uri,
  name: resource.name,
  title: resource.title,
  description: resource.description,
  mimeType: resource.mimeType,
  _meta: metaOf(resource),
});

/** The resources/read result: one text content carrying `_meta.ui`. */
export async function readResult(resource: UiResource, ctx: ToolContext) {
  return {
    contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read(ctx), _meta: metaOf(resource) }],
  };
}

/** The InvalidParams message of an unknown URI: what exists, and what to do. */
export function unknownUriMessage(uri: string, known: readonly UiResource[]): string {
  const names = known.map((resource) => resource.uri).join(', ') || 'none';
  return `Unknown resource "${uri.slice(0, 200)}". Resources of this server: ${names}. Call resources/list, or take the URI from a tool's _meta.ui.resourceUri in tools/list.`;
}
