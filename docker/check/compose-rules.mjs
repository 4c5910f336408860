// What the Compose schema cannot say: depends_on targets exist, the services wait for the
// migration job to complete successfully, two delivery-api replicas, a healthcheck and a restart
// policy on every long-running service, only the proxy publishes ports, no secret written inline,
// every service built from a Dockerfile target, the dashboard's OAuth client configured
// identically on the auth server and the dashboard, one Redis for auth and MCP.

/** The long-running services built from this repository's Dockerfile (the four apps). */
export const apps = ['auth-server', 'mcp-server', 'delivery-api', 'dashboard'];
/** One-shot jobs: they run to completion, nothing restarts them. */
export const jobs = new Set(['migrate', 'minio-init']);

export const dependencies = (service) =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, { condition: 'service_started' }]))
    : (service.depends_on ?? {});

export function checkComposeRules({ compose, report }) {
  const services = compose.services ?? {};
  const required = ['postgres', 'minio', 'minio-init', 'redis', 'migrate', ...apps, 'caddy'];
  for (const name of required)
    if (!services[name]) report.fail('compose.yml', `service ${name} is missing`);

  for (const [name, service] of Object.entries(services)) {
    const where = `compose.yml services.${name}`;
    for (const [target, { condition }] of Object.entries(dependencies(service))) {
      if (!services[target]) report.fail(where, `depends on unknown service ${target}`);
      if (condition === 'service_completed_successfully' && !jobs.has(target))
        report.fail(where, `waits for ${target} to complete, but it is not a job`);
      if (condition === 'service_healthy' && services[target]?.healthcheck?.disable)
        report.fail(where, `waits for ${target} to be healthy, but its healthcheck is disabled`);
    }
    if (jobs.has(name)) {
      if (service.restart !== 'no') report.fail(where, 'a one-shot job must have restart: "no"');
      continue;
    }
    if (!service.restart || service.restart === 'no') report.fail(where, 'needs a restart policy');
    if (!service.healthcheck?.test || service.healthcheck.disable)
      report.fail(where, 'needs a healthcheck');
    if (service.ports && name !== 'caddy')
      report.fail(where, 'publishes ports: only the proxy (caddy) may');
    // Secrets only through interpolation, never literal.
    const environment = Array.isArray(service.environment)
      ? Object.fromEntries(service.environment.map((entry) => entry.split(/=(.*)/s).slice(0, 2)))
      : (service.environment ?? {});
    for (const [key, value] of Object.entries(environment)) {
      if (
        /(PASSWORD|SECRET|_KEYS?|TOKEN|AUTH)$/.test(key) &&
        typeof value === 'string' &&
        value !== '' &&
        !value.includes('${')
      ) {
        report.fail(where, `${key} is written inline; take it from the env file (\${${key}})`);
      }
    }
  }
  for (const name of apps) {
    const condition = dependencies(services[name] ?? {}).migrate?.condition;
    if (condition !== 'service_completed_successfully')
      report.fail(
        `compose.yml services.${name}`,
        'must depend on migrate with condition service_completed_successfully',
      );
    if (!services[name]?.build?.target)
      report.fail(`compose.yml services.${name}`, 'must build its Dockerfile target');
  }
  if (services['delivery-api']?.deploy?.replicas !== 2)
    report.fail('compose.yml services.delivery-api', 'deploy.replicas must be 2');
  if (
    !/service_completed_successfully/.test(
      JSON.stringify(dependencies(services['mcp-server'] ?? {})['minio-init'] ?? {}),
    )
  ) {
    report.fail(
      'compose.yml services.mcp-server',
      'must wait for minio-init (the bucket) to complete successfully',
    );
  }

  // The dashboard is a configured client of the auth server: both must get the very same
  // client id, secret and URL (the redirect URI is <DASHBOARD_URL>/auth/callback), and the
  // dashboard must talk to the issuer the auth server announces. Compared as written, so
  // two different defaults cannot slip in either.
  const environmentOf = (name) => services[name]?.environment ?? {};
  for (const key of [
    'DASHBOARD_CLIENT_ID',
    'DASHBOARD_CLIENT_SECRET',
    'DASHBOARD_URL',
    'AUTH_ISSUER',
  ]) {
    const auth = environmentOf('auth-server')[key];
    const dashboard = environmentOf('dashboard')[key];
    if (auth === undefined || dashboard === undefined)
      report.fail('compose.yml', `${key} must be given to both auth-server and dashboard`);
    else if (auth !== dashboard)
      report.fail(
        'compose.yml',
        `${key} differs between auth-server (${auth}) and dashboard (${dashboard})`,
      );
  }
  if (environmentOf('mcp-server').DASHBOARD_URL !== environmentOf('dashboard').DASHBOARD_URL)
    report.fail('compose.yml', 'DASHBOARD_URL differs between mcp-server and dashboard');
  // One Redis for the MCP server's rate limits and the auth server's throttles.
  if (environmentOf('auth-server').REDIS_URL === undefined)
    report.fail('compose.yml services.auth-server', 'needs REDIS_URL (shared sign-in throttles)');
  else if (environmentOf('auth-server').REDIS_URL !== environmentOf('mcp-server').REDIS_URL)
    report.fail('compose.yml', 'REDIS_URL differs between auth-server and mcp-server');
  if (dependencies(services['auth-server'] ?? {}).redis?.condition !== 'service_healthy')
    report.fail(
      'compose.yml services.auth-server',
      'must depend on redis with condition service_healthy',
    );
  const dashboardDeps = dependencies(services.dashboard ?? {});
  if (dashboardDeps['auth-server']?.condition !== 'service_healthy')
    report.fail(
      'compose.yml services.dashboard',
      'must depend on auth-server with condition service_healthy',
    );
  report.pass(
    'compose.yml: services, depends_on conditions, replicas, healthchecks, restart policies, ports, no inline secrets, dashboard client settings, one REDIS_URL for auth and MCP',
  );
}
