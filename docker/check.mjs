// Static checks of docker/ (compose cannot be started here; docker/smoke.sh runs the images). Run by docker/check.sh,
// under tsx (the apps' lists of settings are TypeScript). Each check is a module of check/:
//
//  1. compose-schema: compose.yml against the Compose Specification JSON schema, as written
//     and interpolated with .env.example.
//  2. compose-rules, caddyfile: what the schema cannot say (depends_on conditions, replicas,
//     healthchecks, restart policies, ports, inline secrets, the dashboard's OAuth client
//     configured identically on both sides, the proxy's variables and sites).
//  3. settings-documented: .env.example documents every variable compose.yml interpolates and
//     every variable the services read (each app's list of settings).
//  4. dockerfile: dockerfile-utils' lint plus this repository's rules for every image.
//  5. env-file, placeholder-guards: no REPLACE-ME placeholder left in docker/.env (when there
//     is one), generate-secrets.mjs replaces every placeholder of .env.example, and the
//     containers that take a password straight from it refuse a placeholder.
//  6. staging-lifecycle: the bucket rule expiring staged uploads covers their prefix.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { mcpSettings } from '../apps/mcp-server/src/settings.ts';
import { checkCaddyfile, checkObjectStoreSite } from './check/caddyfile.mjs';
import { checkComposeRules } from './check/compose-rules.mjs';
import { checkComposeSchema } from './check/compose-schema.mjs';
import { checkDockerfile } from './check/dockerfile.mjs';
import { parseEnvExample } from './check/env-example.mjs';
import { checkEnvFile } from './check/env-file.mjs';
import { checkPlaceholderGuards } from './check/placeholder-guards.mjs';
import { checkStagingLifecycle } from './check/staging-lifecycle.mjs';
import { stagingKey } from '../packages/domain/src/use-cases/uploads/upload-keys.ts';
import { createReport } from './check/report.mjs';
import { checkSettingsDocumented } from './check/settings-documented.mjs';

const dockerDir = dirname(fileURLToPath(import.meta.url));
const read = (path) => readFileSync(join(dockerDir, path), 'utf8');

const report = createReport();
const { values, documented } = parseEnvExample(read('.env.example'));
const compose = parseYaml(read('compose.yml'), { merge: true });

const composeVariables = checkComposeSchema({ compose, envValues: values, report });
checkComposeRules({ compose, report });
checkCaddyfile({ compose, caddyfileText: read('Caddyfile'), report });
checkObjectStoreSite({
  compose,
  caddyfileText: read('Caddyfile'),
  maxUploadBytes: mcpSettings.parse({}).MAX_UPLOAD_BYTES,
  report,
});
checkSettingsDocumented({ documented, composeVariables, report });
checkDockerfile({ compose, dockerfile: read('Dockerfile'), report });
checkEnvFile({ dockerDir, exampleValues: values, report });
checkPlaceholderGuards({ compose, report });
// Where the domain stages an upload: the prefix of stagingKey's keys.
checkStagingLifecycle({ compose, stagingPrefix: stagingKey('x').split('/')[0] + '/', report });
report.finish();
