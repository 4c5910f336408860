export { defineSettings, type Settings } from './define-settings.js';
export { EnvError } from './env-error.js';
export { envLoader } from './env-loader.js';
export * from './pieces.js';
export { PLACEHOLDER, namesWithPlaceholder, placeholderProblem } from './placeholders.js';
export { publicUrlProblems, type PublicUrlRules } from './public-url.js';
export * from './storage-env.js';
export { trustProxy } from './trust-proxy.js';
export * from './webhooks-env.js';
