export { createOidcStorage } from './oidc-storage.js';
export { createCredentials } from './credentials.js';
export { createGrantLookup } from './grant-lookup.js';
