export * from './system.js';
export * from './object-store.js';
export * from './repositories.js';
export * from './deps.js';
