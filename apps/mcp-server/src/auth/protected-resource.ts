import { SUPPORTED_SCOPES } from './scopes.js';

/** RFC 9728 Protected Resource Metadata for the MCP endpoint. */
export function protectedResourceMetadata(options: { publicUrl: string; issuer: string }): Record<string, unknown> {
  return {
    resource: options.publicUrl,
    authorization_servers: [options.issuer],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Component tool server',
    resource_documentation: `${new URL(options.publicUrl).origin}/guide`,
  };
}
