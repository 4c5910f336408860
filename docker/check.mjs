// Static checks of docker/ (no Docker engine runs on our machines). Run by docker/check.sh.
//
//  1. compose.yml against the Compose Specification JSON schema (the copy the npm package
//     `dclint` ships, validated with Ajv), as written and after interpolating it with the values
//     of .env.example the way `docker compose --env-file` would (so a `${VAR:?}` that
//     .env.example leaves out, or a value of the wrong type after substitution, fails).
//  2. What the schema cannot say: depends_on targets exist, the services wait for the
//     migration job to complete successfully, two delivery-api replicas, a healthcheck and
//     a restart policy on every long-running service, only the proxy publishes ports, no
//     secret written inline, build targets that exist in the Dockerfile, every Caddyfile
//     {$VAR} given to the proxy, the dashboard's OAuth client configured identically on the
//     auth server and the dashboard, a public site for each of the four services.
//  3. .env.example documents every variable compose.yml interpolates and every variable
//     the services read (the keys of each apps/*/src/env.ts schema).
//  4. Dockerfile: `dockerfile-utils` (the linter behind VS Code's Docker support: syntax,
//     flags, durations, ports, signals, stage names, every rule raised to an error), plus
//     this repository's rules: base images pinned to a version, non-root USER, HEALTHCHECK,
//     EXPOSE, STOPSIGNAL and an exec-form CMD in every service image.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { validate as lintDockerfile, ValidationSeverity } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';

const dockerDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = dirname(dockerDir);
const read = (path) => readFileSync(join(dockerDir, path), 'utf8');
const require = createRequire(import.meta.url);

const problems = [];
const fail = (where, message) => problems.push(`${where}: ${message}`);
const passed = [];

// ---------------------------------------------------------------------------------------
// .env.example, parsed like compose's env file (enough of it for our own file).
const envExample = read('.env.example');
const exampleValues = new Map();
const documented = new Set();
for (const line of envExample.split('\n')) {
  const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (set) {
    let value = set[2];
    if (/^'.*'$/.test(value) || /^".*"$/.test(value)) value = value.slice(1, -1);
    exampleValues.set(set[1], value);
    documented.add(set[1]);
    continue;
  }
  const commented = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
  if (commented) documented.add(commented[1]);
}

// ---------------------------------------------------------------------------------------
// compose.yml: schema, as written and interpolated.
const composeText = read('compose.yml');
const compose = parseYaml(composeText, { merge: true });
// The schema dclint ships (schemas/compose.schema.json, the Compose Specification's own
// compose-spec.json, draft-07); dclint itself also runs in check.sh.
const schemaPath = join(
  dirname(require.resolve('dclint/package.json')),
  'schemas',
  'compose.schema.json',
);
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
// Its "$schema" says https://json-schema.org/draft-07/schema, which Ajv registers as http://...;
// the dialect is the one the default Ajv class implements.
delete schema.$schema;
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const validateCompose = ajv.compile(schema);
const schemaErrors = (document) =>
  (validateCompose(document) ? [] : validateCompose.errors).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message}${error.params?.additionalProperty ? ` (${error.params.additionalProperty})` : ''}`,
  );
for (const error of schemaErrors(compose))
  fail('compose.yml (as written) does not match the Compose schema', error);

/** Compose interpolation: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+r}, nested. */
const interpolationUses = new Set();
function interpolate(text, values, where) {
  let out = '';
  for (let i = 0; i < text.length;) {
    if (text[i] !== '$') {
      out += text[i++];
      continue;
    }
    if (text[i + 1] === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (text[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') depth--;
      }
      if (depth !== 0) {
        fail(where, `unclosed \${ in ${JSON.stringify(text)}`);
        return out + text.slice(i);
      }
      const body = text.slice(i + 2, j - 1);
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(body);
      if (!match) {
        fail(where, `cannot interpolate \${${body}}`);
      } else {
        const [, name, op, arg = ''] = match;
        interpolationUses.add(name);
        const value = values.get(name);
        const unsetOrEmpty = value === undefined || value === '';
        const missing = op?.startsWith(':') ? unsetOrEmpty : value === undefined;
        if (op === undefined) out += value ?? '';
        else if (op.endsWith('-')) out += missing ? interpolate(arg, values, where) : value;
        else if (op.endsWith('+')) out += missing ? '' : interpolate(arg, values, where);
        else if (missing)
          fail(where, `required variable ${name} has no value in .env.example (${arg})`);
        else out += value;
      }
      i = j;
      continue;
    }
    const bare = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
    if (bare) {
      interpolationUses.add(bare[1]);
      out += values.get(bare[1]) ?? '';
      i += bare[0].length;
    } else out += text[i++];
  }
  return out;
}
const interpolateTree = (node, path) => {
  if (typeof node === 'string') return interpolate(node, exampleValues, `compose.yml ${path}`);
  if (Array.isArray(node))
    return node.map((item, index) => interpolateTree(item, `${path}[${index}]`));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, interpolateTree(value, `${path}.${key}`)]),
    );
  }
  return node;
};
const resolved = interpolateTree(compose, '');
for (const error of schemaErrors(resolved))
  fail('compose.yml (interpolated with .env.example) does not match the Compose schema', error);
passed.push(
  `compose.yml matches the Compose Specification schema (${schema.title ?? 'compose-spec'}), as written and interpolated`,
);

// ---------------------------------------------------------------------------------------
// compose.yml: what the deployment needs beyond the schema.
const services = compose.services ?? {};
const jobs = new Set(['migrate', 'minio-init']);
const apps = ['auth-server', 'mcp-server', 'delivery-api', 'dashboard'];
const required = ['postgres', 'minio', 'minio-init', 'redis', 'migrate', ...apps, 'caddy'];
for (const name of required) if (!services[name]) fail('compose.yml', `service ${name} is missing`);

const dependencies = (service) =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, { condition: 'service_started' }]))
    : (service.depends_on ?? {});
for (const [name, service] of Object.entries(services)) {
  const where = `compose.yml services.${name}`;
  for (const [target, { condition }] of Object.entries(dependencies(service))) {
    if (!services[target]) fail(where, `depends on unknown service ${target}`);
    if (condition === 'service_completed_successfully' && !jobs.has(target))
      fail(where, `waits for ${target} to complete, but it is not a job`);
    if (condition === 'service_healthy' && services[target]?.healthcheck?.disable)
      fail(where, `waits for ${target} to be healthy, but its healthcheck is disabled`);
  }
  if (jobs.has(name)) {
    if (service.restart !== 'no') fail(where, 'a one-shot job must have restart: "no"');
    continue;
  }
  if (!service.restart || service.restart === 'no') fail(where, 'needs a restart policy');
  if (!service.healthcheck?.test || service.healthcheck.disable) fail(where, 'needs a healthcheck');
  if (service.ports && name !== 'caddy') fail(where, 'publishes ports: only the proxy (caddy) may');
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
      fail(where, `${key} is written inline; take it from the env file (\${${key}})`);
    }
  }
}
for (const name of apps) {
  const condition = dependencies(services[name] ?? {}).migrate?.condition;
  if (condition !== 'service_completed_successfully')
    fail(
      `compose.yml services.${name}`,
      'must depend on migrate with condition service_completed_successfully',
    );
  if (!services[name]?.build?.target)
    fail(`compose.yml services.${name}`, 'must build its Dockerfile target');
}
if (services['delivery-api']?.deploy?.replicas !== 2)
  fail('compose.yml services.delivery-api', 'deploy.replicas must be 2');
if (
  !/service_completed_successfully/.test(
    JSON.stringify(dependencies(services['mcp-server'] ?? {})['minio-init'] ?? {}),
  )
) {
  fail(
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
    fail('compose.yml', `${key} must be given to both auth-server and dashboard`);
  else if (auth !== dashboard)
    fail(
      'compose.yml',
      `${key} differs between auth-server (${auth}) and dashboard (${dashboard})`,
    );
}
if (environmentOf('mcp-server').DASHBOARD_URL !== environmentOf('dashboard').DASHBOARD_URL)
  fail('compose.yml', 'DASHBOARD_URL differs between mcp-server and dashboard');
// One Redis for the MCP server's rate limits and the auth server's throttles.
if (environmentOf('auth-server').REDIS_URL === undefined)
  fail('compose.yml services.auth-server', 'needs REDIS_URL (shared sign-in throttles)');
else if (environmentOf('auth-server').REDIS_URL !== environmentOf('mcp-server').REDIS_URL)
  fail('compose.yml', 'REDIS_URL differs between auth-server and mcp-server');
if (dependencies(services['auth-server'] ?? {}).redis?.condition !== 'service_healthy')
  fail('compose.yml services.auth-server', 'must depend on redis with condition service_healthy');
const dashboardDeps = dependencies(services.dashboard ?? {});
if (dashboardDeps['auth-server']?.condition !== 'service_healthy')
  fail(
    'compose.yml services.dashboard',
    'must depend on auth-server with condition service_healthy',
  );

// Caddyfile placeholders must reach the proxy.
const caddyfile = read('Caddyfile').replace(/^\s*#.*$/gm, '');
const caddyEnv = services.caddy?.environment ?? {};
for (const [, name] of caddyfile.matchAll(/\{\$([A-Z0-9_]+)(?::[^}]*)?\}/g)) {
  if (!(name in caddyEnv)) fail('Caddyfile', `{$${name}} is not in services.caddy.environment`);
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
  if (!site) fail('Caddyfile', `no site proxies to ${upstream}:${port}`);
  else if (!/import\s+internal-only/.test(site[2]))
    fail('Caddyfile', `the {$${site[1]}} site must \`import internal-only\` (/metrics, /ready)`);
}
if (!/\.\/Caddyfile:\/etc\/caddy\/Caddyfile/.test(JSON.stringify(services.caddy?.volumes ?? [])))
  fail('compose.yml services.caddy', 'must mount ./Caddyfile');
passed.push(
  'compose.yml: services, depends_on conditions, replicas, healthchecks, restart policies, ports, no inline secrets, dashboard client settings, one REDIS_URL for auth and MCP, Caddyfile variables and sites',
);

// ---------------------------------------------------------------------------------------
// .env.example documents every variable.
for (const name of interpolationUses)
  if (!documented.has(name))
    fail('.env.example', `${name} (used in compose.yml) is not documented`);
const appEnvFiles = apps.map((app) => `apps/${app}/src/env.ts`);
// The settings every service shares (DATABASE_URL, S3_*) are shapes in one file that an
// env.ts spreads into its schema (`...storageEnvShape,`): a spread counts as its keys.
const sharedShapesFile = 'packages/http-runtime/src/storage-env.ts';
const sharedShapes = new Map(
  [
    ...readFileSync(join(repoRoot, sharedShapesFile), 'utf8').matchAll(
      /^export const (\w+EnvShape) = \{([\s\S]*?)\n\};/gm,
    ),
  ].map(([, name, body]) => [name, body]),
);
/** The variables a schema's body names: its own keys and those of the shapes it spreads. */
const variablesOf = (body, where) => [
  ...[...body.matchAll(/^\s{2}([A-Z][A-Z0-9_]*):/gm)].map(([, name]) => name),
  ...[...body.matchAll(/^\s{2}\.\.\.(\w+),/gm)].flatMap(([, shape]) => {
    if (sharedShapes.has(shape)) return variablesOf(sharedShapes.get(shape), where);
    fail(
      where,
      `spreads ${shape}, which is no \`export const ${shape} = { ... };\` of ${sharedShapesFile} (update docker/check.mjs)`,
    );
    return [];
  }),
];
let appVariables = 0;
for (const file of appEnvFiles) {
  const source = readFileSync(join(repoRoot, file), 'utf8');
  const block = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(source);
  if (!block) {
    fail(
      file,
      'cannot find `const EnvSchema = z.object({ ... });` to read its variables (update docker/check.mjs)',
    );
    continue;
  }
  for (const name of variablesOf(block[1], file)) {
    appVariables++;
    if (!documented.has(name))
      fail(
        '.env.example',
        `${name} (read by ${file}) is not documented: add a line \`# ${name}=<default>\` with a comment`,
      );
  }
}
passed.push(
  `.env.example documents the ${interpolationUses.size} variables compose.yml uses and the ${appVariables} settings the services read`,
);

// ---------------------------------------------------------------------------------------
// Dockerfile.
const dockerfile = read('Dockerfile');
const all = ValidationSeverity.ERROR;
const diagnostics = lintDockerfile(dockerfile, {
  deprecatedMaintainer: all,
  directiveCasing: all,
  emptyContinuationLine: all,
  instructionCasing: all,
  instructionCmdMultiple: all,
  instructionEntrypointMultiple: all,
  instructionHealthcheckMultiple: all,
  instructionJSONInSingleQuotes: all,
  instructionWorkdirRelative: all,
});
for (const diagnostic of diagnostics)
  fail(`Dockerfile:${diagnostic.range.start.line + 1}`, diagnostic.message);

// Our rules, stage by stage (a stage inherits what its base stage set).
const lines = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim());
const args = new Map();
const stages = new Map();
let current = null;
for (const line of lines) {
  if (line === '' || line.startsWith('#')) continue;
  const [instruction, ...rest] = line.split(/\s+/);
  const argument = rest.join(' ');
  const keyword = instruction.toUpperCase();
  if (keyword === 'ARG' && current === null) {
    const [name, value] = argument.split('=');
    args.set(name, value);
  } else if (keyword === 'FROM') {
    const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(argument);
    const image = from[1].replace(/\$\{?([A-Z_]+)\}?/g, (_, name) => args.get(name) ?? '');
    const base = stages.get(image);
    current = {
      name: from[2],
      image,
      user: base?.user,
      stopsignal: base?.stopsignal,
      healthcheck: base?.healthcheck,
      expose: false,
      cmd: base?.cmd,
    };
    if (from[2]) stages.set(from[2], current);
    if (!base) {
      if (!/^[a-z0-9./-]+:[0-9][\w.-]*$/.test(image) || /:latest$/.test(image))
        fail('Dockerfile', `base image ${image} must be pinned to a version tag`);
    }
  } else if (current) {
    if (keyword === 'USER') current.user = argument;
    if (keyword === 'STOPSIGNAL') current.stopsignal = argument;
    if (keyword === 'HEALTHCHECK') current.healthcheck = argument;
    if (keyword === 'EXPOSE') current.expose = true;
    if (keyword === 'CMD') current.cmd = argument;
  }
}
const targets = Object.values(services)
  .map((service) => service.build?.target)
  .filter(Boolean);
for (const target of targets) {
  const stage = stages.get(target);
  if (!stage) {
    fail('Dockerfile', `compose.yml builds target ${target}, which has no stage`);
    continue;
  }
  const where = `Dockerfile target ${target}`;
  if (!stage.user || /^(root|0)(:|$)/.test(stage.user)) fail(where, 'must run as a non-root USER');
  if (stage.stopsignal !== 'SIGTERM') fail(where, 'must set STOPSIGNAL SIGTERM');
  if (!stage.cmd?.startsWith('['))
    fail(where, 'CMD must be in exec form (JSON array), so node gets the signals');
  const isJob = jobs.has(
    Object.keys(services).find((name) => services[name].build?.target === target),
  );
  if (!isJob) {
    if (!stage.healthcheck || /^NONE$/i.test(stage.healthcheck)) fail(where, 'needs a HEALTHCHECK');
    if (!stage.expose) fail(where, 'needs EXPOSE');
  }
}
passed.push(
  `Dockerfile: dockerfile-utils lint clean; ${targets.length} targets pinned, non-root, STOPSIGNAL, exec-form CMD, HEALTHCHECK and EXPOSE on services`,
);

// ---------------------------------------------------------------------------------------
if (problems.length > 0) {
  console.error(
    `docker static checks: ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
for (const line of passed) console.log(`ok  ${line}`);
