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

// The object store's public site: only presigned PUTs to <bucket>/uploads/, the body capped
// at MAX_UPLOAD_BYTES, everything else refused; never MinIO's console or admin API.
export function checkObjectStoreSite({ compose, caddyfileText, maxUploadBytes, report }) {
  const caddyfile = caddyfileText.replace(/^\s*#.*$/gm, '');
  const site = /^\{\$S3_DOMAIN\}\s*\{([\s\S]*?)^\}/m.exec(caddyfile)?.[1];
  const fail = (message) => report.fail('Caddyfile {$S3_DOMAIN}', message);
  if (site === undefined) return fail('no site for the object store');
  const matcher = /^\t@staged_upload\s*\{([\s\S]*?)^\t\}/m.exec(site)?.[1] ?? '';
  const lines = matcher
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .sort();
  const expected = ['method PUT', 'path /{$S3_BUCKET}/uploads/*', 'query X-Amz-Signature=*'];
  if (JSON.stringify(lines) !== JSON.stringify(expected))
    fail(`@staged_upload must be exactly: ${expected.join('; ')}`);
  const handles = [...site.matchAll(/^\thandle(\s+@\w+)?\s*\{([\s\S]*?)^\t\}/gm)];
  const upload = handles.find(([, name]) => name?.trim() === '@staged_upload')?.[2] ?? '';
  const fallback = handles.find(([, name]) => name === undefined)?.[2] ?? '';
  if (!/request_body\s*\{\s*max_size\s+\{\$MAX_UPLOAD_BYTES\}\s*\}/.test(upload))
    fail(
      'the staged upload handler must cap the body: request_body { max_size {$MAX_UPLOAD_BYTES} }',
    );
  if (
    (site.match(/reverse_proxy/g) ?? []).length !== 1 ||
    !/reverse_proxy\s+minio:9000\s*$/m.test(upload)
  )
    fail('only the staged upload handler may proxy, to minio:9000');
  if (
    !/respond\b[^\n]*\b(403|404)\s*$/m.test(fallback) ||
    /reverse_proxy|file_server/.test(fallback)
  )
    fail('everything else must be answered 403 or 404 by a catch-all `handle`');
  if (/\b9001\b|console|\/minio\b/.test(site))
    fail("must not mention MinIO's console or admin API");
  const declared = /\$\{MAX_UPLOAD_BYTES:-(\d+)\}/.exec(
    String(compose.services?.caddy?.environment?.MAX_UPLOAD_BYTES ?? ''),
  )?.[1];
  if (Number(declared) !== maxUploadBytes)
    fail(
      `services.caddy.environment.MAX_UPLOAD_BYTES must default to the MCP server's limit (\${MAX_UPLOAD_BYTES:-${maxUploadBytes}})`,
    );
  report.pass(
    `Caddyfile {$S3_DOMAIN}: only presigned PUTs to <bucket>/uploads/, body capped at MAX_UPLOAD_BYTES (${maxUploadBytes} by default), everything else 403`,
  );
}
