export * from './domain-error.js';
export * from './factories.js';
export * from './http-status.js';
export * from './unavailable-error.js';
export * from './credential-refused.js';
