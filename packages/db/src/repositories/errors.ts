import { Prisma } from '../generated/prisma/client.js';

/*
 * Prisma reports constraint violations with the columns involved, both for model
 * queries (P2002/P2003) and for raw SQL (P2010), through the driver adapter's
 * error: `meta.driverAdapterError.cause`. Repositories turn the ones a user can
 * cause into DomainErrors; everything else propagates unchanged.
 */

interface AdapterCause {
  kind?: unknown;
  constraint?: { fields?: unknown; index?: unknown };
}

function adapterCause(error: unknown): AdapterCause | null {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  const meta = error.meta as { driverAdapterError?: { cause?: AdapterCause } } | undefined;
  return meta?.driverAdapterError?.cause ?? null;
}

/** True when `error` is a unique violation on exactly the columns `columns` (in any order). */
export function isUniqueViolation(error: unknown, columns: readonly string[]): boolean {
  const cause = adapterCause(error);
  if (cause?.kind !== 'UniqueConstraintViolation') return false;
  const fields = cause.constraint?.fields;
  if (!Array.isArray(fields)) return false;
  const found = fields.map((field) => String(field).replaceAll('"', '').trim());
  return found.length === columns.length && columns.every((column) => found.includes(column));
}

/** True when `error` is a foreign-key violation (a referenced row does not exist). */
export function isForeignKeyViolation(error: unknown): boolean {
  return adapterCause(error)?.kind === 'ForeignKeyConstraintViolation';
}
