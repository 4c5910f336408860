import { DriverAdapterError } from '@prisma/driver-adapter-utils';

interface PostgresErrorFields {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  detail?: unknown;
  column?: unknown;
  hint?: unknown;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * A failed migration script, in the shape the schema engine reports to the user
 * (code, message, detail). Errors without a SQLSTATE (I/O) are passed on as they are.
 */
export function scriptError(error: unknown): unknown {
  const fields = (error ?? {}) as PostgresErrorFields;
  const code = text(fields.code);
  if (code === undefined || !/^[0-9A-Z]{5}$/.test(code)) return error;
  return new DriverAdapterError({
    kind: 'postgres',
    code,
    severity: text(fields.severity) ?? 'ERROR',
    message: text(fields.message) ?? 'migration script failed',
    detail: text(fields.detail),
    column: text(fields.column),
    hint: text(fields.hint),
  });
}
