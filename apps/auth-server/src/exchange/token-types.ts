/** RFC 8693 token exchange at the token endpoint (docs/cli-and-ci.md "The exchange"); the CLI client names it. */
export { TOKEN_EXCHANGE_GRANT } from '../oidc/cli-client.js';

/** What `subject_token_type` may say: a CI's OIDC token, or one of our API tokens. */
export const SubjectTokenType = {
  IdToken: 'urn:ietf:params:oauth:token-type:id_token',
  ApiToken: 'urn:component-platform:token-type:api-token',
} as const;

/** The only token this exchange issues (`issued_token_type`, and the accepted `requested_token_type`). */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** The parameters the grant reads; oidc-provider drops every other one. */
export const TOKEN_EXCHANGE_PARAMETERS = ['subject_token', 'subject_token_type', 'requested_token_type', 'resource', 'organization'] as const;
