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

/** The views the server offers: the fixed ones by URI (the preview view), built once at start. */
export interface UiResources {
  readonly fixed: ReadonlyMap<string, UiResource>;
}

export const uiResourcesOf = (resources: readonly UiResource[]): UiResources => ({
  fixed: new Map(resources.map((resource) => [resource.uri, resource])),
});

/** Every resource the caller may read (resources/list). */
export async function listUiResources(resources: UiResources, _ctx: ToolContext): Promise<UiResource[]> {
  return [...resources.fixed.values()];
}

/**
 * The one lookup of a URI (resources/read): a fixed view, else null (the caller answers
 * InvalidParams). Resources per organization join here by their URI prefix.
 */
export async function findUiResource(resources: UiResources, uri: string, _ctx: ToolContext): Promise<UiResource | null> {
  return resources.fixed.get(uri) ?? null;
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
