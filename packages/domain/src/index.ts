export * from './entities/index.js';
export * from './errors/index.js';
export * from './ports/index.js';
export * from './rules/index.js';
export * from './use-cases/index.js';
