export { createOidcStorage, type OidcStorage, type OidcAdapter, type OidcPayload, type GrantRecord } from './oidc-storage.js';
export { createCredentials, type Credentials } from './credentials.js';
export {
  connectedApplications,
  type ConnectedApplication,
  type ConnectedApplications,
  type ConnectedApplicationsOptions,
  type GrantStore,
} from './connected-applications.js';
