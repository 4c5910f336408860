export * from './limits.js';
export * from './tags.js';
export * from './names.js';
export * from './curl-command.js';
export * from './ids.js';
export * from './html-document.js';
export * from './scope-descriptions.js';
export * from './preview-keys.js';
