export * from './limits.js';
export * from './tags.js';
export * from './names.js';
export * from './curl-command.js';
