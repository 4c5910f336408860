import { z } from 'zod';
import { createDocument, type ZodOpenApiResponseObject } from 'zod-openapi';
import { cacheControlFor } from '../cache/cached-response.js';
import type { AppConfig } from '../config.js';
import { ConsumeQuery, FlowQuery } from './query-schemas.js';
import { ConsumeResponse, Health, ProblemDetails, UserFlow } from './response-schemas.js';

const problemResponse = (description: string, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
  ...(headers ? { headers } : {}),
});

const cachedHeaders = (cacheControl: string) =>
  z.object({
    ETag: z.string().meta({ description: 'Strong content hash, one per encoding. Send it back in If-None-Match for a 304.' }),
    'Cache-Control': z.string().meta({ description: cacheControl }),
    Vary: z.literal('Accept-Encoding'),
    'Access-Control-Allow-Origin': z.literal('*'),
  });

const deprecationHeaders = z.object({
  Deprecation: z.string().meta({ description: 'RFC 9745: since when /flow is deprecated (`@<unix seconds>`).', example: '@1795305600' }),
  Sunset: z.string().meta({ description: 'RFC 8594: the date after which /flow may be removed (HTTP date).', example: 'Wed, 30 Jun 2027 00:00:00 GMT' }),
  Link: z.string().meta({ description: 'The successor: `</consume>; rel="successor-version"`.' }),
});

const unavailable = problemResponse(
  'The database or object store failed and nothing is cached for this request. `Retry-After` says when to retry.',
  z.object({ 'Retry-After': z.string().meta({ description: 'Seconds.', example: '5' }) }),
);

const methodNotAllowed = problemResponse('Only GET, HEAD and OPTIONS are served; `Allow` lists them.');

const NO_CREDENTIAL =
  'No credential: component ids are unguessable UUIDs and delivery is read-only and serves released UI, so any page on any origin may read it (CORS `*`, no credentials).';

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
    paths: {
      '/consume': {
        get: {
          operationId: 'consume',
          summary: 'A component with the variant to render',
          description: [
            'With `env`: the variant released to that environment (404, `resource` "Release", when nothing is released there; "Environment" when the environment does not exist).',
            'With only `id`, or `preview=true` (with or without `env`): the latest variant (preview).',
            '`preview=false` without `env`: 400. Unknown or repeated parameters: 400. Unknown or malformed `id`: 404.',
            `Released responses: \`Cache-Control: ${cacheControlFor('released', config.cache)}\`; preview: \`no-cache\`.`,
            `Bodies of ${config.cache.compressionMinBytes} bytes or more are also served gzip- or brotli-encoded (Accept-Encoding).`,
          ].join('\n\n'),
          requestParams: { query: ConsumeQuery },
          responses: {
            '200': {
              description: 'The component and the variant to render.',
              content: { 'application/json': { schema: ConsumeResponse } },
              headers: cachedHeaders('Released: public with max-age, stale-while-revalidate and stale-if-error; preview: no-cache.'),
            },
            '304': { description: 'If-None-Match matched the current ETag.' },
            '400': problemResponse('Missing, empty, repeated or unknown parameter, or a bad value.'),
            '404': problemResponse('Unknown component, environment, or no release in the environment (`resource` says which).'),
            '405': methodNotAllowed,
            '503': unavailable,
          },
        },
      },
      '/flow': {
        get: {
          operationId: 'getFlow',
          deprecated: true,
          summary: 'A published user flow (deprecated: use /consume)',
          description: `Only published flows are served (drafts answer 404). With \`resolve=components\`, each component carries the variant released to \`${config.flowEnvironment}\`, as \`/consume?id=<component>&env=${config.flowEnvironment}\` gives it (empty when nothing is released). Every response carries Deprecation, Sunset (${config.flowSunset.toUTCString()}) and Link (successor-version) headers.`,
          requestParams: { query: FlowQuery },
          responses: {
            '200': {
              description: 'The flow.',
              content: { 'application/json': { schema: UserFlow } },
              headers: deprecationHeaders,
            },
            '304': { description: 'If-None-Match matched the current ETag.' },
            '400': problemResponse('Missing, empty, repeated or unknown parameter.', deprecationHeaders),
            '404': problemResponse('Unknown, malformed or unpublished flow id.', deprecationHeaders),
            '405': methodNotAllowed,
            '503': unavailable,
          },
        },
      },
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
  });
}
