import { createDocument } from 'zod-openapi';
import type { AppConfig } from '../config.js';
import { PREVIEW_KEY_HEADER } from '../http/cors.js';
import { ExportManifest } from '@cp/consume';
import { componentPaths } from './component-paths.js';
import { hostPaths } from './host-paths.js';
import { usagePaths } from './usage-paths.js';
import { Health } from './response-schemas.js';
import { WEBHOOKS } from './webhook-schemas.js';

const NO_CREDENTIAL = `No credential: component ids are unguessable UUIDs and delivery serves released UI (and takes only usage events, POST /v1/events), so any page on any origin may use it (CORS \`*\`, no credentials). The one exception: previews of an organization that made them private need one of its preview keys in \`${PREVIEW_KEY_HEADER}\`.`;

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** The OpenAPI 3.1 document, generated from the zod schemas that validate the requests. */
export function buildOpenApiDocument(config: AppConfig, version: string): OpenApiDocument {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Component delivery API',
      version,
      description: `Serves released UI components to micro-frontend hosts. ${NO_CREDENTIAL} Errors are RFC 9457 problem details. Responses are cached in process and invalidated within a second of a publish, an upload or a tag change.`,
    },
    servers: [{ url: config.publicUrl }],
    security: [],
    // Served by no path here: the static export's `manifest.json` (docs/static-export.md), whose
    // `components/<id>/<env>.json` files are `/consume?id=<id>&env=<env>` bodies (ConsumeResponse) byte for byte.
    components: { schemas: { ExportManifest } },
    paths: {
      ...componentPaths(config),
      ...hostPaths,
      ...usagePaths(config),
      '/': {
        get: {
          operationId: 'health',
          summary: 'Health',
          responses: { '200': { description: 'The service is up.', content: { 'application/json': { schema: Health } } } },
        },
      },
      '/openapi.json': {
        get: { operationId: 'openapi', summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1.' } } },
      },
      '/docs': {
        get: { operationId: 'reference', summary: 'This document, rendered for people', responses: { '200': { description: 'HTML.' } } },
      },
    },
    // What an organization's webhook endpoints receive (sent by the worker, not served here).
    webhooks: WEBHOOKS,
  });
}
