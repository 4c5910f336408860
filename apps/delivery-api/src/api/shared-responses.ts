import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ProblemDetails } from './response-schemas.js';

/** A problem-details (RFC 9457) answer; several paths share these. */
export const problemResponse = (description: string, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
  ...(headers ? { headers } : {}),
});

export const cachedHeaders = (cacheControl: string) =>
  z.object({
    ETag: z.string().meta({ description: 'Strong content hash, one per encoding. Send it back in If-None-Match for a 304.' }),
    'Cache-Control': z.string().meta({ description: cacheControl }),
    Vary: z.string().meta({
      description: '`Accept-Encoding`; on /consume of an environment with a live experience or rollout, `Accept-Encoding, Cp-Key, Cp-Attributes`.',
      example: 'Accept-Encoding',
    }),
    'Access-Control-Allow-Origin': z.literal('*'),
  });

export const deprecationHeaders = z.object({
  Deprecation: z.string().meta({ description: 'RFC 9745: since when /flow is deprecated (`@<unix seconds>`).', example: '@1795305600' }),
  Sunset: z.string().meta({ description: 'RFC 8594: the date after which /flow may be removed (HTTP date).', example: 'Wed, 30 Jun 2027 00:00:00 GMT' }),
  Link: z.string().meta({ description: 'The successor: `</consume>; rel="successor-version"`.' }),
});

export const unavailable = problemResponse(
  'The database or object store failed and nothing is cached for this request. `Retry-After` says when to retry.',
  z.object({ 'Retry-After': z.string().meta({ description: 'Seconds.', example: '5' }) }),
);

export const methodNotAllowed = problemResponse('Only GET, HEAD and OPTIONS are served; `Allow` lists them.');
