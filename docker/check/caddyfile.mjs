// The Caddyfile: every {$VAR} placeholder reaches the proxy, and each of the four services has
// a public site that proxies to it and keeps /metrics and /ready inside. The delivery API's
// site carries Server-Sent Events (GET /changes): nothing on it may buffer, compress or time
// out a stream (see the comment above that site).

// Directives that would buffer, compress or cut a long-lived event stream.
const STREAM_BREAKERS = [
  'encode',
  'flush_interval',
  'read_timeout',
  'write_timeout',
  'stream_timeout',
  'response_header_timeout',
  'timeouts',
];

export function checkCaddyfile({ compose, caddyfileText, report }) {
  const services = compose.services ?? {};
  // Caddyfile placeholders must reach the proxy.
  const caddyfile = caddyfileText.replace(/^\s*#.*$/gm, '');
  const caddyEnv = services.caddy?.environment ?? {};
  for (const [, name] of caddyfile.matchAll(/\{\$([A-Z0-9_]+)(?::[^}]*)?\}/g)) {
    if (!(name in caddyEnv))
      report.fail('Caddyfile', `{$${name}} is not in services.caddy.environment`);
  }
  // Each service has a public site that proxies to it and keeps /metrics and /ready inside.
  const sites = [...caddyfile.matchAll(/^\{\$([A-Z0-9_]+)\}\s*\{([\s\S]*?)^\}/gm)];
  for (const [upstream, port] of [
    ['auth-server', 4000],
    ['mcp-server', 4100],
    ['delivery-api', 4200],
    ['dashboard', 4300],
  ]) {
    const site = sites.find(([, , body]) =>
      new RegExp(
        `reverse_proxy\\s+${upstream}:${port}\\b|name\\s+${upstream}\\s+port\\s+${port}\\b`,
      ).test(body),
    );
    if (!site) report.fail('Caddyfile', `no site proxies to ${upstream}:${port}`);
    else if (!/import\s+internal-only/.test(site[2]))
      report.fail(
        'Caddyfile',
        `the {$${site[1]}} site must \`import internal-only\` (/metrics, /ready)`,
      );
  }
  const delivery = sites.find(([, , body]) => /name\s+delivery-api\s+port\s+4200\b/.test(body));
  for (const directive of STREAM_BREAKERS) {
    if (delivery && new RegExp(`^\\s*${directive}\\b`, 'm').test(delivery[2]))
      report.fail(
        'Caddyfile',
        `the {$${delivery[1]}} site must not use \`${directive}\`: it would buffer, compress or cut GET /changes streams`,
      );
  }
  // Global server timeouts would cut streams on every site.
  const globalOptions = /^\{([\s\S]*?)^\}/m.exec(caddyfile)?.[1] ?? '';
  if (/\btimeouts\b/.test(globalOptions))
    report.fail('Caddyfile', 'no global `timeouts`: they would cut GET /changes streams');
  if (!/\.\/Caddyfile:\/etc\/caddy\/Caddyfile/.test(JSON.stringify(services.caddy?.volumes ?? [])))
    report.fail('compose.yml services.caddy', 'must mount ./Caddyfile');
  report.pass(
    'Caddyfile: every variable reaches the proxy; a site for each service, /metrics and /ready kept inside; the delivery site neither buffers, compresses nor times out event streams',
  );
}
