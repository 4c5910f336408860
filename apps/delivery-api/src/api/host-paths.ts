import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { HostDemoQuery } from '../examples/host-demo-query.js';
import { FRAME_CSP, STABLE_MAX_AGE_SECONDS } from '../http/host-sdk-endpoint.js';
import { problemResponse } from './shared-responses.js';

/** The host SDK that renders components, at its stable and its pinned URL, its frame document, and the demo page that uses it. */
export const hostPaths: ZodOpenApiPathsObject = {
  '/host/v1.js': {
    get: {
      operationId: 'hostSdk',
      summary: 'The host SDK (stable URL of major version 1)',
      description: `The browser ES module that renders components (\`<cp-component component-id="…" env="prod">\`, \`mount(…)\`). \`Cache-Control: public, max-age=${STABLE_MAX_AGE_SECONDS}\`, so an SDK fix reaches pages within minutes. CORS \`*\`, gzip and brotli by Accept-Encoding, ETag.`,
      responses: {
        '200': { description: 'JavaScript (text/javascript).', content: { 'text/javascript': { schema: z.string() } } },
        '304': { description: 'If-None-Match matched the current ETag.' },
      },
    },
  },
  '/host/v1.{hash}.js': {
    get: {
      operationId: 'hostSdkPinned',
      summary: 'The host SDK at its content-addressed, immutable URL',
      description:
        'The same file as /host/v1.js, named by the first 16 hex digits of its SHA-256: `Cache-Control: public, max-age=31536000, immutable`. Pin it with `<script type="module" src="…" integrity="sha384-…" crossorigin="anonymous">`; the delivery README says where to find the current name and integrity. An older hash answers 404 once a new SDK is deployed.',
      requestParams: { path: z.object({ hash: z.string().regex(/^[0-9a-f]{16}$/).meta({ description: 'First 16 hex digits of the file\'s SHA-256.' }) }) },
      responses: {
        '200': { description: 'JavaScript (text/javascript).', content: { 'text/javascript': { schema: z.string() } } },
        '304': { description: 'If-None-Match matched the current ETag.' },
        '404': problemResponse('Not the current SDK file.'),
      },
    },
  },
  '/host/frame/v1.{hash}.html': {
    get: {
      operationId: 'hostFrame',
      summary: 'The frame document of iframe isolation',
      description: `The document the SDK's sandboxed frame loads; after a MessageChannel handshake the SDK sends the component's HTML and the frame writes it as its document (docs/decisions/0022-frame-document-instead-of-srcdoc.md). The SDK's build names it by the first 16 hex digits of its SHA-256: that name is \`immutable\` (cached a year); any other \`v1\` hash (an SDK file pinned before a deploy) gets the current document, cached ${STABLE_MAX_AGE_SECONDS} s. Served with its own \`Content-Security-Policy: ${FRAME_CSP}\` (the host page's policy does not reach the component), \`X-Content-Type-Options: nosniff\`, CORP cross-origin, gzip and brotli by Accept-Encoding, ETag. A static export writes the same file at the same path under each organization's folder.`,
      requestParams: { path: z.object({ hash: z.string().regex(/^[0-9a-f]{16}$/).meta({ description: "16 hex digits: the SDK build's name for the document." }) }) },
      responses: {
        '200': { description: 'HTML (text/html).', content: { 'text/html': { schema: z.string() } } },
        '304': { description: 'If-None-Match matched the current ETag.' },
      },
    },
  },
  '/examples/host': {
    get: {
      operationId: 'hostDemo',
      summary: 'Demo host page: renders a component through the SDK, with a data box and an event log',
      description:
        'Without `component`: the form. With it: the page loads /host/v1.js and renders `<cp-component>` with the given attributes. An invalid value answers 400 with the form and the reason.',
      requestParams: { query: HostDemoQuery },
      responses: {
        '200': { description: 'HTML.', content: { 'text/html': { schema: z.string() } } },
        '400': { description: 'HTML: the form and what was wrong.', content: { 'text/html': { schema: z.string() } } },
      },
    },
  },
};
