import {
  ErrorCode,
  getAppVersion,
  isDomainError,
  listMemberAppTools,
  type ComponentApp,
} from '@cp/domain';
import type { ToolContext } from '../tools/define.js';
import {
  MCP_APP_MIME_TYPE,
  type UiResource,
  type UiResourceMeta,
  type UiResourceSource,
} from '../views/ui-resources.js';
import { bridgeScript } from './bridge-script.js';
import { withHeadScript } from './inject-bridge.js';
import { actorOfPrincipal } from '../auth/principal.js';

/**
 * How hosts frame an app: with a border, and a policy that allows no origin at all. A component
 * is one self-contained file (docs/component-contract.md), and the bridge talks to the host by
 * `postMessage` only, so the view needs no network: declaring nothing keeps the host's strictest
 * policy, and a component's linked `https://` files do not load inside a conversation.
 */
export const APP_RESOURCE_META: UiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
  prefersBorder: true,
};

const APP_URI = /^ui:\/\/apps\/([^/]{1,100})\/v([1-9]\d{0,8})\.html$/;

type AppVersion = { componentId: string; version: number };

/** `ui://apps/<componentId>/v<version>.html` → its parts, or null for any other URI. */
export function parseAppUri(uri: string): AppVersion | null {
  const match = APP_URI.exec(uri);
  return match === null ? null : { componentId: match[1]!, version: Number(match[2]) };
}

/** The version's HTML with the bridge as its first script (docs/mcp-apps.md, section 2). */
async function appHtml(
  at: AppVersion,
  ctx: ToolContext,
): Promise<{ app: ComponentApp; html: string }> {
  if (ctx.principal === null) throw new Error('an app view read without a principal');
  const { app, content } = await getAppVersion(
    { actor: actorOfPrincipal(ctx.principal), ...at },
    ctx.domain,
  );
  const bridge = bridgeScript({ title: app.title, actionTools: app.actionTools });
  return { app, html: withHeadScript(new TextDecoder().decode(content), bridge) };
}

const appResource = (
  uri: string,
  fields: Pick<UiResource, 'name' | 'title' | 'description'>,
  read: UiResource['read'],
): UiResource => ({
  uri,
  ...fields,
  mimeType: MCP_APP_MIME_TYPE,
  meta: APP_RESOURCE_META,
  read,
});

/**
 * The app views as a per-caller source of ui-resources.ts. `find` reads the version at once:
 * for a member of the app's organization while the component is an app, any version (not only
 * the current release: versions are immutable, so a client holding an earlier template still
 * shows it). A stranger's component, one that is no app and an unknown version are null, so
 * the answer is the unknown URI's and ids never leak. `list` names the caller's current views
 * (one query).
 */
export const appResources: UiResourceSource = {
  async list(ctx) {
    if (ctx.principal === null) return [];
    const tools = await listMemberAppTools({ actor: actorOfPrincipal(ctx.principal) }, ctx.domain);
    return tools.map(({ name, resourceUri, live }) =>
      appResource(
        resourceUri,
        {
          name,
          title: live.app.title,
          description: `The view of ${name}: ${live.app.componentName} version ${live.release.version} (${live.app.environmentName}).`,
        },
        async (readCtx) => (await appHtml(parseAppUri(resourceUri)!, readCtx)).html,
      ),
    );
  },
  async find(uri, ctx) {
    const at = parseAppUri(uri);
    if (at === null || ctx.principal === null) return null;
    try {
      const { app, html } = await appHtml(at, ctx);
      const name = `${app.componentName} v${at.version}`;
      return appResource(uri, { name, title: app.title, description: `The view of ${name}.` }, () =>
        Promise.resolve(html),
      );
    } catch (error) {
      if (isDomainError(error) && error.code === ErrorCode.NotFound) return null;
      throw error;
    }
  },
};
