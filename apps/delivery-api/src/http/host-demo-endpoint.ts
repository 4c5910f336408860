import type { IncomingMessage, ServerResponse } from 'node:http';
import { formValuesOf, renderHostDemoPage, type FormValues, type SdkUrls } from '../examples/host-demo-page.js';
import { parseHostDemoQuery } from '../examples/host-demo-query.js';
import { type HostSdkFile, hostSdkPaths } from '../host-sdk/host-sdk-file.js';

/**
 * The page's Content-Security-Policy. A shadow-isolated component is part of the page
 * as far as CSP goes (its scripts run in the page), so scripts and styles may be inline
 * or come from any https origin, as a component's own may; an iframe-isolated one runs
 * under the frame document's own policy (framed from this API, `frame-src 'self'`).
 * Everything else is closed: no plugins, no <base>, forms only to this API, no framing
 * of the page.
 */
export function hostDemoCsp(publicUrl: string): string {
  const api = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${api} 'unsafe-inline' https:`,
    `style-src 'self' ${api} 'unsafe-inline' https:`,
    `connect-src 'self' ${api} https:`,
    "img-src 'self' https: data: blob:",
    "font-src 'self' https: data:",
    "media-src 'self' https: data: blob:",
    "frame-src 'self' https:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * GET /examples/host?component=<id>&env=prod (also preview, isolation, live): the
 * demo host page (README "Demo host page"). A refused query answers 400 with the
 * form and the reason; no query answers the form alone.
 */
export function createHostDemoEndpoint(publicUrl: string, hostSdk: HostSdkFile) {
  const paths = hostSdkPaths(hostSdk);
  const sdk: SdkUrls = { page: `..${paths.stable}`, stable: `${publicUrl}${paths.stable}`, pinned: `${publicUrl}${paths.immutable}`, integrity: hostSdk.integrity };
  const headers = [
    'Content-Security-Policy', hostDemoCsp(publicUrl),
    // The page reflects its query: never stored by a shared cache.
    'Cache-Control', 'no-store',
    'X-Content-Type-Options', 'nosniff',
    'Referrer-Policy', 'no-referrer',
  ];
  return (req: IncomingMessage, res: ServerResponse, rawQuery: string): void => {
    const params = new URLSearchParams(rawQuery);
    const parsed = parseHostDemoQuery(params);
    const submitted: FormValues = {
      component: (params.get('component') ?? '').slice(0, 100),
      env: (params.get('env') ?? '').slice(0, 100),
      preview: params.get('preview') === 'true',
      isolation: params.get('isolation') ?? '',
      live: params.get('live') === 'true',
    };
    const body = Buffer.from(
      parsed.ok
        ? renderHostDemoPage({ sdk, demo: parsed.demo, form: formValuesOf(parsed.demo), error: null })
        : renderHostDemoPage({ sdk, demo: null, form: submitted, error: parsed.message }),
    );
    res.writeHead(parsed.ok ? 200 : 400, [...headers, 'Content-Type', 'text/html; charset=utf-8', 'Content-Length', String(body.length)]);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
