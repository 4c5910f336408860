import { withUnavailableAsDomainError } from '../connection/unavailable.js';
import { createCredentials as credentials } from './credentials.js';
import { createGrantLookup as grantLookup } from './grant-lookup.js';
import { createOidcStorage as oidcStorage } from './oidc-storage.js';

// As the repositories: a database that cannot be reached rejects with DATABASE_UNAVAILABLE.
export const createOidcStorage = (...args: Parameters<typeof oidcStorage>) => withUnavailableAsDomainError(oidcStorage(...args));
export const createCredentials = (...args: Parameters<typeof credentials>) => withUnavailableAsDomainError(credentials(...args));
export const createGrantLookup = (...args: Parameters<typeof grantLookup>) => withUnavailableAsDomainError(grantLookup(...args));
