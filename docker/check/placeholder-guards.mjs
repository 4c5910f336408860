import { PLACEHOLDER } from './env-file.mjs';

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
      const guarded = new RegExp(
        `case "\\$\\$${name}" in \\*${PLACEHOLDER}\\*\\)[^;]*; exit 1;;`,
      ).test(script);
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
