export * from './in-memory-object-store.js';
export * from './in-memory-repositories.js';
export * from './test-deps.js';
