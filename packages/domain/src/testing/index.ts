export * from './in-memory-object-store.js';
export * from './in-memory-repositories.js';
export * from './in-memory-oidc-storage.js';
export * from './in-memory-credentials.js';
export * from './in-memory-grant-lookup.js';
export * from './test-deps.js';
export * from './contracts/index.js';
export * from './publish-outcomes.js';
