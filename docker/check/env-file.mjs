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
