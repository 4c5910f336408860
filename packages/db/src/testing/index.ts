export {
  createTestDatabase,
  type TestDatabase,
  type TestDatabaseOptions,
} from './test-database.js';
export { openMigratedPglite } from './pglite-snapshot.js';
export {
  aComponent,
  aMemberOf,
  aMembership,
  anUploadSession,
  aUserWithOrganization,
  aVariant,
  aVariantInput,
  anAuditNote,
  uniqueName,
  type Owner,
} from './builders.js';
export { anAuditEvent, recordAuditEvents } from './audit-events.js';
export { aUsageEvent, usageEvents } from './usage-events.js';
