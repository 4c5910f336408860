import type { ResourceCsp } from './view-protocol.js';
import { viewCsp } from './view-csp.js';

/*
 * The sandbox proxy of a web host: a page on its own origin between the host page and the view.
 * It announces itself (sandbox-proxy-ready), takes the view's HTML (sandbox-resource-ready) into an
 * inner frame, and relays every other message both ways. The inner frame is a srcdoc document:
 * it inherits this page's Content-Security-Policy, which is an HTTP header built from the
 * resource's `_meta.ui.csp` (the host puts it in the proxy URL), so the view cannot loosen it.
 * Messages are taken from the host's origin only, and sent to it only.
 */

export const SANDBOX_PROXY_PATH = '/sandbox.html';

/** The proxy URL for a view whose resource declared `csp`. */
export const sandboxProxyUrl = (proxyOrigin: string, csp: ResourceCsp | undefined): string =>
  `${proxyOrigin}${SANDBOX_PROXY_PATH}?csp=${encodeURIComponent(JSON.stringify(csp ?? {}))}`;

export interface SandboxProxyResponse {
  readonly status: 200 | 400;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The proxy page for a request's query; a csp parameter that is not a JSON object is refused. */
export function sandboxProxyResponse(query: URLSearchParams, hostOrigin: string): SandboxProxyResponse {
  let csp: unknown;
  try {
    csp = JSON.parse(query.get('csp') ?? '{}');
  } catch {
    csp = null;
  }
  if (typeof csp !== 'object' || csp === null || Array.isArray(csp)) {
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'csp must be the resource\'s _meta.ui.csp as a JSON object' };
  }
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `${viewCsp(csp)}; frame-ancestors ${hostOrigin}`,
      'cache-control': 'no-store',
    },
    body: proxyPage(hostOrigin),
  };
}

const proxyPage = (hostOrigin: string): string => `<!doctype html>
<html><head><meta charset="utf-8"><title>sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script>
const host = ${JSON.stringify(hostOrigin)};
const inner = document.createElement('iframe');
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
inner.title = 'view';
document.body.appendChild(inner);
addEventListener('message', (event) => {
  if (event.source === parent && event.origin === host) {
    if (event.data && event.data.method === 'ui/notifications/sandbox-resource-ready') inner.srcdoc = event.data.params.html;
    else if (inner.contentWindow) inner.contentWindow.postMessage(event.data, location.origin);
  } else if (event.source === inner.contentWindow && event.origin === location.origin) {
    parent.postMessage(event.data, host);
  }
});
parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
</script></body></html>`;
