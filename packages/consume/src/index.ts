export * from './consume-schemas.js';
export { jsonBody, JSON_CONTENT_TYPE } from './consume-body.js';
export { buildHtmlLoader } from './html-loader.js';
export { createVariantLoaders, IntegrityMismatchError } from './variant-loaders.js';
export type { VariantLoaders } from './variant-loaders.js';
export { consumeItemOf, consumeVariant, loadConsumeResponse, variantName } from './consume-item.js';
export type { ConsumeTarget, LoadedConsume, ReadDeps } from './consume-item.js';
