export * from './domain-error.js';
export * from './factories.js';
