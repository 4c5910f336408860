import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { cacheControlFor } from '../cache/cached-response.js';
import type { AppConfig } from '../config.js';
import { ARM_HEADER, PREVIEW_KEY_HEADER } from '../http/cors.js';
import { ATTRIBUTES_HEADER, KEY_HEADER } from '../http/keyed-request.js';
import { ChangesQuery, ConsumeQueryDocument, FlowQuery, MAX_STREAM_IDS } from './query-schemas.js';
import { ChangeEventStream, ConsumeResponse, UserFlow } from './response-schemas.js';
import { cachedHeaders, deprecationHeaders, methodNotAllowed, problemResponse, unavailable } from './shared-responses.js';

/** What hosts read: a component's variant, a flow, and the stream of changes to both. */
export const componentPaths = (config: AppConfig): ZodOpenApiPathsObject => ({
  '/consume': {
    get: {
      operationId: 'consume',
      summary: 'A component with the variant to render',
      description: [
        'With `env`: the variant released to that environment (404, `resource` "Release", when nothing is released there; "Environment" when the environment does not exist).',
        'With only `id`, or `preview=true` (with or without `env`): the latest variant (preview).',
        '`preview=false` without `env`: 400. Unknown or repeated parameters: 400. Unknown or malformed `id`: 404.',
        `Private previews: when the component's organization keeps previews private, a preview needs one of its unrevoked preview keys (dashboard, organization's Previews page) in \`${PREVIEW_KEY_HEADER}\`; without a valid one the answer is the 404 of an unknown component, word for word, so it confirms nothing. Such a preview is sent \`Cache-Control: ${cacheControlFor('private', config.cache)}\`. The 404 of an unknown environment of such an organization does not list its environments. Released environments are unaffected.`,
        `Released responses: \`Cache-Control: ${cacheControlFor('released', config.cache)}\`; preview: \`no-cache\`.`,
        `Bodies of ${config.cache.compressionMinBytes} bytes or more are also served gzip- or brotli-encoded (Accept-Encoding).`,
        `Experiences and rollouts (docs/experiences.md "Delivery"): while one is live in the environment, the fallback carries the \`assignment\` descriptor and \`${ARM_HEADER}: release\`; \`arm\` (with \`rev\`) answers that arm's variant with the same descriptor, public and cacheable per arm (an arm the mapping does not have: the fallback); a key and attributes (\`key\` and \`attr.<name>\`, or the \`${KEY_HEADER}\` and \`${ATTRIBUTES_HEADER}\` headers) answer the user's arm \`Cache-Control: private, max-age=${config.cache.maxAgeSeconds}\`. Every response of such an environment carries \`Vary: Accept-Encoding, ${KEY_HEADER}, ${ATTRIBUTES_HEADER}\`. Without a live assignment these change nothing.`,
      ].join('\n\n'),
      requestParams: {
        query: ConsumeQueryDocument,
        header: z.object({
          [PREVIEW_KEY_HEADER]: z
            .string()
            .optional()
            .meta({ description: 'A preview key of the component\'s organization (`cpk_…`), for previews it keeps private. Ignored for released variants and for public previews. Allowed in CORS preflights.' }),
          [KEY_HEADER]: z.string().optional().meta({ description: 'The `key` parameter as a header (read only while an experience or a rollout is live; the query wins).' }),
          [ATTRIBUTES_HEADER]: z
            .string()
            .optional()
            .meta({ description: 'The attributes in query-string form, `country=DE&plan=pro` (read only while an experience or a rollout is live; the query wins).', example: 'country=DE&plan=pro' }),
        }),
      },
      responses: {
        '200': {
          description: 'The component and the variant to render.',
          content: { 'application/json': { schema: ConsumeResponse } },
          headers: cachedHeaders(
            'Released: public with max-age, stale-while-revalidate and stale-if-error; preview: no-cache; private preview (opened by a preview key): private, no-store; the user\'s arm (a key or attributes sent): private with max-age.',
          ).extend({
            [ARM_HEADER]: z
              .string()
              .optional()
              .meta({ description: 'While an experience or a rollout is live: the arm served (`release` or `v<sequence>`).', example: 'v7' }),
          }),
        },
        '304': { description: 'If-None-Match matched the current ETag.' },
        '400': problemResponse('Missing, empty, repeated or unknown parameter, or a bad value; a bad key, attribute or arm (`detail` names the parameter or header).'),
        '404': problemResponse(
          `Unknown component, environment, or no release in the environment (\`resource\` says which). Also a preview of an organization with private previews asked for without a valid \`${PREVIEW_KEY_HEADER}\` (same body as an unknown component). Always \`Cache-Control: no-store\`.`,
        ),
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
  '/changes': {
    get: {
      operationId: 'changes',
      summary: 'Live updates: Server-Sent Events naming the watched components and flows that changed',
      description: [
        `One stream per page for all its live components: \`ids\` names 1 to ${MAX_STREAM_IDS} component or flow ids. The stream opens with \`retry: 2000\`; then \`event: change\` (\`data: {"id":"<id>"}\`, \`id: <epoch>-<seq>\`) when something a watched id names changed (a release, an upload, a tag change, a flow edit): revalidate \`/consume\` with If-None-Match. Uploads to an organization with private previews are not announced (streams are anonymous: EventSource sends no headers); the host SDK polls such previews when it has a preview key. \`event: reset\` (\`data: {}\`): changes may have been missed, revalidate everything watched.`,
        `A comment line (\`: keep-alive\`) every ${config.changeStreams.heartbeatMs / 1000} s keeps proxies from closing an idle stream; it and the stream's start also carry an \`id:\` field (the newest event id) so that a reconnect resumes from there.`,
        '`Last-Event-ID` (EventSource sends it on reconnecting) or `lastEventId` resumes: the events missed since are sent first; a resume point this instance does not know (another instance, a restart, too old, malformed) gets one `reset`.',
        `At most ${config.changeStreams.maxStreamsPerClient} open streams per client address (429) and ${config.changeStreams.maxStreams} per instance (503). While the instance shuts down, open streams end (clients reconnect, to another instance) and new ones answer 503.`,
      ].join('\n\n'),
      requestParams: {
        query: ChangesQuery,
        header: z.object({
          'Last-Event-ID': z.string().optional().meta({ description: 'Resume point, sent by EventSource when it reconnects; wins over `lastEventId`.' }),
        }),
      },
      responses: {
        '200': {
          description: 'The event stream, open until the client leaves or the instance shuts down.',
          content: { 'text/event-stream': { schema: ChangeEventStream } },
          headers: z.object({
            'Cache-Control': z.literal('no-cache, no-transform'),
            'X-Accel-Buffering': z.literal('no'),
            'Access-Control-Allow-Origin': z.literal('*'),
          }),
        },
        '400': problemResponse(`Missing, empty, malformed or more than ${MAX_STREAM_IDS} ids; an unknown or repeated parameter.`),
        '405': methodNotAllowed,
        '429': problemResponse(
          'Too many open streams from this client address (`code` TOO_MANY_STREAMS). A page needs one.',
          z.object({ 'Retry-After': z.string().meta({ description: 'Seconds.', example: '5' }) }),
        ),
        '503': problemResponse(
          'This instance serves its maximum of streams, or is shutting down: retry (another instance may take it).',
          z.object({ 'Retry-After': z.string().meta({ description: 'Seconds.', example: '5' }) }),
        ),
      },
    },
  },
});
