// REPLACE-ME placeholders (the services refuse them too: packages/http-runtime's
// settings/placeholders.ts; this catches the compose-only ones, POSTGRES_PASSWORD,
// MINIO_ROOT_PASSWORD, REDIS_PASSWORD, before anything starts):
// - every placeholder in .env.example is a value docker/generate-secrets.mjs prints, so
//   the documented `>> docker/.env` leaves none;
// - docker/.env (or the file in CP_ENV_FILE), when there is one, holds none (later lines
//   win, as in compose).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvExample } from './env-example.mjs';

export const PLACEHOLDER = 'REPLACE-ME';

export const namesWithPlaceholder = (values) =>
  [...values].filter(([, value]) => value.includes(PLACEHOLDER)).map(([name]) => name);

export function checkEnvFile({ dockerDir, exampleValues, report }) {
  const generated = parseEnvExample(
    execFileSync(process.execPath, [join(dockerDir, 'generate-secrets.mjs')], { encoding: 'utf8' }),
  ).values;
  const example = namesWithPlaceholder(exampleValues);
  const notGenerated = example.filter((name) => !generated.has(name));
  if (notGenerated.length > 0) {
    report.fail(
      '.env.example',
      `${notGenerated.join(', ')}: REPLACE-ME but not printed by generate-secrets.mjs`,
    );
  } else {
    report.pass(
      `.env.example: its ${example.length} REPLACE-ME values are all printed by generate-secrets.mjs`,
    );
  }

  const path = process.env.CP_ENV_FILE || join(dockerDir, '.env');
  const shown = process.env.CP_ENV_FILE || 'docker/.env';
  if (!existsSync(path)) {
    report.pass(`${shown}: absent, no placeholders to refuse`);
    return;
  }
  const left = namesWithPlaceholder(parseEnvExample(readFileSync(path, 'utf8')).values);
  if (left.length > 0) {
    report.fail(
      shown,
      `${left.join(', ')} still hold${left.length === 1 ? 's' : ''} ${PLACEHOLDER}: run \`node docker/generate-secrets.mjs >> ${shown}\` (later lines win), or set real values`,
    );
  } else report.pass(`${shown}: no ${PLACEHOLDER} value left`);
}

// The containers that take a secret straight from docker/.env (no service of ours reads
// it) refuse a placeholder themselves: their entrypoint (or the job's script) checks it.
const GUARDED = {
  postgres: ['POSTGRES_PASSWORD'],
  minio: ['MINIO_ROOT_PASSWORD'],
  'minio-init': ['MINIO_ROOT_PASSWORD', 'S3_SECRET_KEY'],
  redis: ['REDISCLI_AUTH'],
};

export function checkPlaceholderGuards({ compose, report }) {
  const missing = [];
  for (const [service, names] of Object.entries(GUARDED)) {
    const definition = compose.services?.[service] ?? {};
    const script = [definition.entrypoint, definition.command]
      .flat()
      .filter((part) => typeof part === 'string')
      .join('\n');
    for (const name of names) {
      const guarded =
        new RegExp(`case "\\$\\$${name}" in \\*${PLACEHOLDER}\\*\\)[^;]*; exit 1;;`).test(script) ||
        (script.includes(`for name in`) &&
          new RegExp(`for name in[^;\\n]*\\b${name}\\b`).test(script) &&
          script.includes(`*${PLACEHOLDER}*) `));
      if (!guarded) missing.push(`${service} (${name})`);
    }
  }
  if (missing.length > 0)
    report.fail('compose.yml', `no ${PLACEHOLDER} guard in ${missing.join(', ')}`);
  else
    report.pass(
      `compose.yml: postgres, minio, minio-init and redis refuse ${PLACEHOLDER} passwords at start`,
    );
}
