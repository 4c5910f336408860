export {
  createTestDatabase,
  type TestDatabase,
  type TestDatabaseOptions,
} from './test-database.js';
export {
  aComponent,
  anUploadSession,
  aUserWithOrganization,
  aVariant,
  aVariantInput,
  uniqueName,
  type Owner,
} from './builders.js';
