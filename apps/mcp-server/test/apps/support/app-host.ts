/// <reference lib="dom" />
import type { Browser, BrowserContext, Frame, Page } from '@cp/browser-testing';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HostPageApi, RecordedMessage, ServerAnswer, ViewOpening } from './host-page.browser.js';
import { hostPageHtml } from './host-page.js';
import { hostPageScript } from './host-script.js';
import { startHostServers, type HostServers } from './host-servers.js';
import { sandboxProxyUrl } from './sandbox-proxy.js';
import type { HostContext, ResourceUiMeta } from './view-protocol.js';

/*
 * A web host for MCP Apps views, in Chromium: the conversation's MCP client (SDK, Node side, the
 * conversation's token) lists the tools, reads the view's resource and calls the tool; the host page
 * (origin A) runs the extension's AppBridge; the sandbox proxy (origin B) holds the view under the
 * CSP built from the resource's `_meta.ui.csp`. Works for any tool whose `_meta.ui.resourceUri`
 * names a view (the preview view, the apps' views).
 */

/** What the harness needs of the conversation's MCP client. */
export type McpConversation = Pick<Client, 'listTools' | 'readResource' | 'callTool'>;

export interface OpenViewOptions {
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  /** The conversation's access token: the tool call and every call from the view use it. */
  readonly token: string;
  /** The user's message shown above the tool call. */
  readonly prompt?: string;
  readonly theme?: 'light' | 'dark';
}

export interface OpenedView {
  readonly page: Page;
  /** The view's resource, from the tool's `_meta.ui.resourceUri`. */
  readonly uri: string;
  /** The view's document (the proxy's inner frame). */
  readonly frame: Frame;
  /** The tool's answer, as the server sent it and the view received it. */
  readonly result: CallToolResult;
  /** When the host handed the result to the view (same clock as RecordedMessage.at). */
  readonly resultSentAt: number;
  messages(): Promise<RecordedMessage[]>;
  links(): Promise<string[]>;
  /** The view's ui/message requests, as the host received them. */
  posts(): Promise<unknown[]>;
  sizes(): Promise<{ width?: number; height?: number }[]>;
  /** The host's ui/resource-teardown, resolved with the view's answer. */
  teardown(): Promise<Record<string, unknown>>;
}

export interface AppHost {
  readonly servers: HostServers;
  /** The one page every view opens in (each openView loads the host page again). */
  readonly page: Page;
  /** Console errors, page errors, CSP violations and the bridge's protocol warnings, from every frame. */
  readonly problems: string[];
  openView(options: OpenViewOptions): Promise<OpenedView>;
  close(): Promise<void>;
}

type WithHost = Window & { cpHost: HostPageApi };

/** Reports CSP violations of every frame on the console, where the harness collects them. */
const REPORT_CSP_VIOLATIONS = `addEventListener('securitypolicyviolation', (event) => {
  console.error('CSP violation in ' + self.origin + ': ' + event.effectiveDirective + ' blocked ' + event.blockedURI);
});`;

const DEFAULT_PROMPT = 'Show me the component.';

/** The host's look, which a view follows (hostContext.styles). */
const STYLE_VARIABLES = {
  light: { '--color-background-primary': '#ffffff', '--color-text-primary': '#1f1f1f', '--color-border-primary': '#d8d5cc' },
  dark: { '--color-background-primary': '#262624', '--color-text-primary': '#f0eee6', '--color-border-primary': '#4a4944' },
} as const;
const FONT_SANS = 'system-ui, sans-serif';

export async function startAppHost(options: {
  browser: Browser;
  /** The conversation's MCP client for a token (the SDK client over HTTP). */
  connect(token: string): Promise<McpConversation>;
}): Promise<AppHost> {
  let bundle: Promise<{ html: string; script: string }> | undefined;
  const servers = await startHostServers(() => (bundle ??= hostPageScript().then((script) => ({ html: hostPageHtml(), script }))));
  const context: BrowserContext = await options.browser.newContext({ viewport: { width: 800, height: 900 } });
  // Below jest's limit, so that a view that never shows something fails with the locator that waited.
  context.setDefaultTimeout(10_000);
  await context.addInitScript(REPORT_CSP_VIOLATIONS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || (message.type() === 'warning' && message.text().startsWith('[ext-apps]'))) {
      // Chromium's text of a failed load does not name the resource: the problem does, so a test can expect one load's failure.
      const failedLoad = message.text().startsWith('Failed to load resource') ? ` (${message.location().url})` : '';
      problems.push(`${message.type()}: ${message.text()}${failedLoad}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

  // The view's tools/call requests leave the page here and reach the server through the
  // conversation's client: the page never holds the token (as a web host's backend keeps it).
  let conversation: McpConversation | undefined;
  await page.exposeFunction('cpServerCallTool', async (params: { name: string; arguments?: Record<string, unknown> }): Promise<ServerAnswer> => {
    if (!conversation) throw new Error('no conversation: openView first');
    try {
      return { result: (await conversation.callTool(params)) as CallToolResult };
    } catch (error) {
      return { error: serverError(error) };
    }
  });

  return {
    servers,
    page,
    problems,
    async openView({ toolName, args, token, prompt = DEFAULT_PROMPT, theme = 'light' }) {
      conversation = await options.connect(token);
      const { tools } = await conversation.listTools();
      const tool = tools.find((candidate) => candidate.name === toolName);
      if (!tool) throw new Error(`tools/list has no ${toolName} for this token`);
      const uri = getToolUiResourceUri(tool);
      if (!uri) throw new Error(`${toolName} links no view (_meta.ui.resourceUri)`);
      const [content] = (await conversation.readResource({ uri })).contents;
      if (!content || !('text' in content)) throw new Error(`resources/read ${uri} answered no HTML`);
      const meta = (content._meta as { ui?: ResourceUiMeta } | undefined)?.ui;

      await page.goto(`${servers.hostOrigin}/`);
      await page.waitForFunction(() => 'cpHost' in window);
      const hostContext: HostContext = {
        theme,
        platform: 'web',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        locale: 'en-US',
        toolInfo: { tool },
        containerDimensions: { width: 688, maxHeight: 2000 },
        styles: { variables: { ...STYLE_VARIABLES[theme], '--font-sans': FONT_SANS } },
      };
      const opening: ViewOpening = {
        prompt,
        toolName,
        proxyUrl: sandboxProxyUrl(servers.proxyOrigin, meta?.csp),
        proxyOrigin: servers.proxyOrigin,
        html: content.text,
        csp: meta?.csp,
        prefersBorder: meta?.prefersBorder === true,
        hostContext,
      };
      await page.evaluate((value) => (window as unknown as WithHost).cpHost.open(value), opening);
      await page.evaluate((value) => (window as unknown as WithHost).cpHost.sendToolInput(value), args);
      const result = (await conversation.callTool({ name: toolName, arguments: args })) as CallToolResult;
      const resultSentAt = await page.evaluate((value) => (window as unknown as WithHost).cpHost.sendToolResult(value), result);
      const frame = await viewFrame(page);
      return {
        page,
        uri,
        frame,
        result,
        resultSentAt,
        messages: () => page.evaluate(() => (window as unknown as WithHost).cpHost.messages),
        links: () => page.evaluate(() => (window as unknown as WithHost).cpHost.links),
        posts: () => page.evaluate(() => (window as unknown as WithHost).cpHost.posts),
        sizes: () => page.evaluate(() => (window as unknown as WithHost).cpHost.sizes),
        teardown: () => page.evaluate(() => (window as unknown as WithHost).cpHost.teardown()),
      };
    },
    async close() {
      await context.close();
      await servers.close();
    },
  };
}

/**
 * The JSON-RPC error the server answered, which the SDK client reports inside a transport error
 * when it came with an HTTP error status (a scope refusal is a 403): the host hands the view the
 * server's own code and message.
 */
function serverError(error: unknown): { code: number; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const body = JSON.parse(message.slice(message.indexOf('{'))) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'number' && typeof body.error.message === 'string') return { code: body.error.code, message: body.error.message };
  } catch {
    // Not a server's answer (the connection failed): the transport's message as an internal error.
  }
  return { code: -32603, message };
}

/** The proxy's inner frame, holding the view's document. */
async function viewFrame(page: Page): Promise<Frame> {
  const proxy = await (await page.waitForSelector('#view-slot iframe')).contentFrame();
  const inner = await (await proxy!.waitForSelector('iframe', { state: 'attached' })).contentFrame();
  if (!inner) throw new Error('the sandbox proxy holds no view frame');
  return inner;
}

/** A recorded message as the tests compare them: its direction and method (or result / error). */
export const stepOf = (message: RecordedMessage): string =>
  `${message.direction} ${message.method ?? ('error' in message.message ? 'error' : 'result')}`;

/** What the specification allows before `initialized`, from either side: the proxy's and the view's handshakes. */
export const HANDSHAKE = [
  'view→host ui/notifications/sandbox-proxy-ready',
  'host→view ui/notifications/sandbox-resource-ready',
  'view→host ui/initialize',
  'host→view result',
  'view→host ui/notifications/initialized',
];

/** The steps up to `initialized`, and the messages after it. */
export async function splitAtInitialized(view: OpenedView): Promise<{ handshake: string[]; after: RecordedMessage[] }> {
  const messages = await view.messages();
  const initialized = messages.findIndex((message) => message.method === 'ui/notifications/initialized');
  return { handshake: messages.slice(0, initialized + 1).map(stepOf), after: messages.slice(initialized + 1) };
}
