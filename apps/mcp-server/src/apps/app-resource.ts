import {
  getAppVersion,
  isDomainError,
  ErrorCode as DomainErrorCode,
  listMemberAppTools,
  type AppTool,
} from '@cp/domain';
import {
  ErrorCode,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tools/define.js';
import { bridgeScript } from './bridge-script.js';
import { withHeadScript } from './inject-bridge.js';

export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * How hosts frame an app: with a border, and a policy that allows no origin at all. A component
 * is one self-contained file (docs/component-contract.md), and the bridge talks to the host by
 * `postMessage` only, so the view needs no network: declaring nothing keeps the host's strictest
 * policy, and a component's linked `https://` files do not load inside a conversation.
 */
export const APP_RESOURCE_META = { ui: { prefersBorder: true, csp: {} } } as const;

const APP_URI = /^ui:\/\/apps\/([^/]{1,100})\/v([1-9]\d{0,8})\.html$/;

/** `ui://apps/<componentId>/v<version>.html` → its parts, or null for any other URI. */
export function parseAppUri(uri: string): { componentId: string; version: number } | null {
  const match = APP_URI.exec(uri);
  return match === null ? null : { componentId: match[1]!, version: Number(match[2]) };
}

/**
 * resources/read of an app's view: the version's HTML with the bridge as its first script, for a
 * member of the app's organization while the component is an app. Null for any other URI, and
 * for one the caller may not read (a stranger's, no longer an app, no such version), so the
 * answer is the unknown URI's and ids never leak.
 */
export async function readAppResource(
  uri: string,
  ctx: ToolContext,
): Promise<ReadResourceResult | null> {
  const parts = parseAppUri(uri);
  if (parts === null || ctx.principal === null) return null;
  try {
    const { app, content } = await getAppVersion(
      { actor: { userId: ctx.principal.userId }, ...parts },
      ctx.domain,
    );
    const html = withHeadScript(
      new TextDecoder().decode(content),
      bridgeScript({ title: app.title, actionTools: app.actionTools }),
    );
    return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: html, _meta: APP_RESOURCE_META }] };
  } catch (error) {
    if (isDomainError(error) && error.code === DomainErrorCode.NotFound) return null;
    throw error;
  }
}

const resourceOf = ({ name, resourceUri, live }: AppTool): Resource => ({
  uri: resourceUri,
  name,
  title: live.app.title,
  description: `The view of ${name}: ${live.app.componentName} version ${live.release.version} (${live.app.environmentName}).`,
  mimeType: APP_MIME_TYPE,
  _meta: APP_RESOURCE_META,
});

/** The views of the caller's app tools, their current releases (one query). */
export async function listAppResources(ctx: ToolContext): Promise<Resource[]> {
  if (ctx.principal === null) return [];
  return (await listMemberAppTools({ actor: { userId: ctx.principal.userId } }, ctx.domain)).map(
    resourceOf,
  );
}

/** Characters of the asked URI quoted back, and URIs named in the answer. */
const URI_CHARS = 200;
const URIS_NAMED = 20;

/**
 * The JSON-RPC error for a URI that is not there (or not the caller's): invalid params, naming
 * the URIs that are. A plain error with a code: McpError would prefix "MCP error -32602:".
 */
export function unknownResource(uri: string, known: readonly string[]): Error {
  const named =
    known.length === 0
      ? 'none'
      : known.slice(0, URIS_NAMED).join(', ') + (known.length > URIS_NAMED ? ', …' : '');
  return Object.assign(
    new Error(
      `Unknown resource "${uri.slice(0, URI_CHARS)}". The resources you can read: ${named} (resources/list lists them).`,
    ),
    {
      code: ErrorCode.InvalidParams,
    },
  );
}
