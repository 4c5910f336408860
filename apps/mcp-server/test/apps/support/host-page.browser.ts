/// <reference lib="dom" />
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolRequest, CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HostContext, ResourceCsp } from './view-protocol.js';

/*
 * The host page's script, bundled for the browser at test time (host-script.ts): the extension's
 * AppBridge over a PostMessageTransport to the sandbox proxy frame, as a web host runs it. The page
 * has no MCP client: the bridge's tool calls go to `cpServerCallTool`, a function the test exposes
 * (Playwright's exposeFunction) that calls the real server with the conversation's token through the
 * MCP SDK client in the test process, as a web host's backend would hold the token and the session.
 * Every message between host and view is recorded in order, with a timestamp, for the tests to read.
 */

export interface RecordedMessage {
  readonly direction: 'host→view' | 'view→host';
  readonly method: string | null;
  readonly id: string | number | null;
  /** performance.timeOrigin + performance.now(): comparable with the view's frames' clocks. */
  readonly at: number;
  readonly message: JSONRPCMessage;
}

export interface ViewOpening {
  /** The conversation around the view: what the user asked, the tool the assistant called. */
  readonly prompt: string;
  readonly toolName: string;
  readonly proxyUrl: string;
  readonly proxyOrigin: string;
  readonly html: string;
  readonly csp: ResourceCsp | undefined;
  readonly prefersBorder: boolean;
  readonly hostContext: HostContext;
}

/** The server's answer to a tools/call from the view: its result, or the JSON-RPC error it sent. */
export type ServerAnswer = { readonly result: CallToolResult } | { readonly error: { readonly code: number; readonly message: string } };

export interface HostPageApi {
  readonly messages: RecordedMessage[];
  readonly links: string[];
  /** What the view posted to the conversation (ui/message): an app's action that maps to no tool. */
  readonly posts: unknown[];
  readonly sizes: { width?: number; height?: number }[];
  open(opening: ViewOpening): Promise<void>;
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  /** Resolves with the time it was handed to the transport. */
  sendToolResult(result: CallToolResult): Promise<number>;
  teardown(): Promise<Record<string, unknown>>;
}

declare global {
  interface Window {
    cpHost: HostPageApi;
    cpServerCallTool(params: CallToolRequest['params']): Promise<ServerAnswer>;
  }
}

const now = (): number => performance.timeOrigin + performance.now();
const methodOf = (message: JSONRPCMessage): string | null => ('method' in message ? message.method : null);
const idOf = (message: JSONRPCMessage): string | number | null => ('id' in message && message.id !== undefined ? message.id : null);

const messages: RecordedMessage[] = [];
const links: string[] = [];
const posts: unknown[] = [];
const sizes: { width?: number; height?: number }[] = [];
let bridge: AppBridge | undefined;

const record = (direction: RecordedMessage['direction'], message: JSONRPCMessage): void => {
  messages.push({ direction, method: methodOf(message), id: idOf(message), at: now(), message });
};

/**
 * The extension's transport, recording what it carries both ways, and sending to the proxy's
 * origin only (its own send posts to any origin the frame may have been navigated to).
 */
function recordingTransport(frame: Window, proxyOrigin: string): Transport {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-call -- typed in the package through an extensionless import NodeNext does not follow (view-protocol.ts)
  const transport: Transport = new PostMessageTransport(frame, frame);
  transport.send = async (message) => {
    record('host→view', message);
    frame.postMessage(message, proxyOrigin);
  };
  addEventListener('message', (event) => {
    if (event.source === frame && event.origin === proxyOrigin) record('view→host', event.data as JSONRPCMessage);
  });
  return transport;
}

const connected = (): AppBridge => {
  if (!bridge) throw new Error('no view is open: call cpHost.open first');
  return bridge;
};

async function open(opening: ViewOpening): Promise<void> {
  document.getElementById('user-turn')!.textContent = opening.prompt;
  document.getElementById('tool-name')!.textContent = opening.toolName;
  const slot = document.getElementById('view-slot')!;
  const frame = document.createElement('iframe');
  frame.title = 'component preview';
  frame.className = opening.prefersBorder ? 'view bordered' : 'view';
  frame.src = opening.proxyUrl;
  // Connected before the proxy loads: it announces itself as soon as its script runs.
  slot.replaceChildren(frame);

  bridge = new AppBridge(
    null,
    { name: 'cp-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, logging: {}, message: { text: {} } },
    { hostContext: opening.hostContext },
  );
  bridge.oncalltool = async (params) => {
    const answer = await window.cpServerCallTool(params);
    // The bridge answers a handler's error with its numeric `code`, so the view gets the server's own.
    if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result;
  };
  bridge.onopenlink = async ({ url }) => {
    links.push(url);
    return {};
  };
  bridge.onmessage = async (params) => {
    posts.push(params);
    return {};
  };
  bridge.onsizechange = ({ width, height }) => {
    sizes.push({ ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }) });
    // A chat column: the width is the host's, the height the view's.
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve();
  });
  bridge.onsandboxready = () => {
    void bridge!.sendSandboxResourceReady({ html: opening.html, ...(opening.csp ? { csp: opening.csp } : {}) });
  };
  await bridge.connect(recordingTransport(frame.contentWindow!, opening.proxyOrigin));
  await initialized;
}

window.cpHost = {
  messages,
  links,
  posts,
  sizes,
  open,
  sendToolInput: (args) => connected().sendToolInput({ arguments: args }),
  async sendToolResult(result) {
    const at = now();
    await connected().sendToolResult(result);
    return at;
  },
  teardown: () => connected().teardownResource({}),
};
