export { createDatabase, type Database, type DatabaseOptions } from './client.js';
export { isDatabaseUnavailable, withUnavailableAsDomainError } from './connection/unavailable.js';
export { createRepositories } from './repositories/index.js';
export { createDomainDeps } from './domain-deps.js';
export { createOidcStorage, createCredentials, createGrantLookup } from './oidc/index.js';
export {
  migrate,
  createMigration,
  type MigrateOptions,
  type MigrationTarget,
  type CreateMigrationOptions,
} from './migrations/migrate.js';
export { defaultMigrationsDir, defaultSchemaPath } from './migrations/migrations-dir.js';
export { defaultPgliteDataDir, findRepositoryRoot } from './connection/data-dir.js';
export { PGliteAdapterFactory } from './adapters/pglite.js';
export { createPglite, pgliteExtensions } from './pglite.js';
export { PostgresMigrationAdapterFactory } from './adapters/postgres.js';
export { PrismaClient, Prisma } from './generated/prisma/client.js';
export {
  JOBS_SCHEMA,
  Queue,
  createJobSender,
  createJobBoss,
  PgBoss,
  type JobSender,
  type SendJobOptions,
  type SqlExecutor,
} from './jobs/index.js';
export {
  createWebhookDeliveryStore,
  type DeliverableMessage,
  type WebhookAttemptRecord,
  type WebhookDeliveryStore,
} from './webhooks/index.js';
export { createUsageWriter, createUsageMaintenance, createUsageReader, createRolloutFigures, countRawEvents, type RawEventCount } from './usage/index.js';
