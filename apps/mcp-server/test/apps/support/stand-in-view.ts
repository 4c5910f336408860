import type { McpConversation } from './app-host.js';

/*
 * A stand-in for the preview view (ui://components/preview-v1.html) until the server serves it:
 * a few lines speaking the view protocol by hand (initialize, initialized, tool result, size,
 * tools/call, teardown) that render get_component's component through the host SDK from the
 * delivery API. The conversation it wraps links it from get_component and answers its resource
 * read; every tool call still goes to the real server.
 */

export const STAND_IN_URI = 'ui://components/preview-v1.html';

const standInHtml = (deliveryUrl: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><style>
body{margin:0;padding:12px 16px;font:14px system-ui,sans-serif}header{font-weight:600;margin-bottom:8px}#slot{min-height:40px}
</style></head><body>
<header id="title">Loading</header><div id="slot"></div>
<p><button id="release" type="button">Release to staging</button> <span id="outcome" role="status"></span></p>
<script type="module">
import { mount } from '${deliveryUrl}/host/v1.js';
let next = 0;
let componentId;
let reported = 0;
const waiting = new Map();
const post = (message) => parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
const request = (method, params) => new Promise((resolve) => { waiting.set(++next, resolve); post({ id: next, method, params }); });
const reportSize = () => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== reported) post({ method: 'ui/notifications/size-changed', params: { height: (reported = height) } });
};
addEventListener('message', ({ source, data }) => {
  if (source !== parent) return;
  if (waiting.has(data.id)) { waiting.get(data.id)(data); waiting.delete(data.id); return; }
  if (data.method === 'ui/notifications/tool-result') {
    const { component, latestVariant } = data.params.structuredContent;
    componentId = component.id;
    document.getElementById('title').textContent = component.name + ' · version ' + latestVariant.sequence;
    mount(document.getElementById('slot'), { componentId, preview: true, isolation: 'iframe', autoHeight: true });
  } else if (data.method === 'ui/resource-teardown') post({ id: data.id, result: {} });
});
document.getElementById('release').addEventListener('click', async () => {
  const { result, error } = await request('tools/call', { name: 'publish_component', arguments: { componentId, environment: 'staging' } });
  document.getElementById('outcome').textContent = error ? error.message : result.isError ? result.structuredContent.error.message : 'Released to staging';
});
await request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'stand-in', version: '0.0.0' }, appCapabilities: {} });
post({ method: 'ui/notifications/initialized', params: {} });
new ResizeObserver(reportSize).observe(document.body);
</script></body></html>`;

export function withStandInView(conversation: McpConversation, deliveryUrl: string): McpConversation {
  const origin = new URL(deliveryUrl).origin;
  return {
    callTool: (params, ...rest) => conversation.callTool(params, ...rest),
    async listTools(params, options) {
      const listed = await conversation.listTools(params, options);
      return {
        ...listed,
        tools: listed.tools.map((tool) => (tool.name === 'get_component' ? { ...tool, _meta: { ...tool._meta, ui: { resourceUri: STAND_IN_URI } } } : tool)),
      };
    },
    async readResource(params, options) {
      if (params.uri !== STAND_IN_URI) return conversation.readResource(params, options);
      return {
        contents: [
          {
            uri: STAND_IN_URI,
            mimeType: 'text/html;profile=mcp-app',
            text: standInHtml(deliveryUrl),
            _meta: { ui: { csp: { connectDomains: [origin], resourceDomains: [origin], frameDomains: [origin] }, prefersBorder: true } },
          },
        ],
      };
    },
  };
}
