import { sandboxProxyResponse } from './support/sandbox-proxy.js';
import { viewCsp } from './support/view-csp.js';

/* The harness's own security: the CSP a view runs under is exactly what its resource declared. */

const HOST = 'http://127.0.0.1:4100';

test("a resource's declared origins map to the directives of the extension, and nothing else is allowed", () => {
  expect(viewCsp({ connectDomains: ['https://api.test'], resourceDomains: ['https://cdn.test', 'https://*.cdn.test'], frameDomains: ['https://frames.test'] }).split('; ')).toEqual([
    "default-src 'none'",
    "script-src 'unsafe-inline' https://cdn.test https://*.cdn.test",
    "style-src 'unsafe-inline' https://cdn.test https://*.cdn.test",
    'img-src data: https://cdn.test https://*.cdn.test',
    'font-src https://cdn.test https://*.cdn.test',
    'media-src https://cdn.test https://*.cdn.test',
    'connect-src https://api.test',
    'frame-src https://frames.test',
    "base-uri 'none'",
    "object-src 'none'",
    "form-action 'none'",
  ]);
  expect(viewCsp(undefined)).toContain("connect-src 'none'; frame-src 'none'");
});

test('an entry that is not an origin cannot add a source, a keyword or a directive', () => {
  const csp = viewCsp({
    connectDomains: ["https://api.test; script-src 'unsafe-eval'", "'unsafe-eval'", '*', 'https://a.test https://b.test'],
    resourceDomains: 'https://cdn.test' as unknown as string[],
  });
  expect(csp).toContain("connect-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("script-src 'unsafe-inline'; ");
});

test('the proxy page carries the CSP as a header, framed by the host only; a csp that is not a JSON object is refused', () => {
  const page = sandboxProxyResponse(new URLSearchParams({ csp: JSON.stringify({ connectDomains: ['https://api.test'] }) }), HOST);
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toBe(`${viewCsp({ connectDomains: ['https://api.test'] })}; frame-ancestors ${HOST}`);
  expect(page.body).toContain(JSON.stringify(HOST));
  for (const csp of ['not json', '[]', 'null', '"x"']) {
    expect(sandboxProxyResponse(new URLSearchParams({ csp }), HOST)).toMatchObject({ status: 400, body: expect.stringContaining('JSON object') });
  }
});
