import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Encodings, representation } from '../cache/cached-response.js';
import type { HostSdkFile } from '../host-sdk/host-sdk-file.js';
import { CORS_HEADERS } from './cors.js';
import { sendCached } from './serve-cached.js';

/** The stable alias is re-checked within minutes, so an SDK fix reaches pages soon; the hashed URL never changes. */
export const STABLE_MAX_AGE_SECONDS = 300;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Every sandbox flag but `allow-same-origin`: the host's `sandbox` tokens on the iframe choose among them. */
const SANDBOX_FLAGS = [
  'allow-scripts', 'allow-forms', 'allow-modals', 'allow-popups', 'allow-popups-to-escape-sandbox', 'allow-downloads',
  'allow-pointer-lock', 'allow-presentation', 'allow-orientation-lock', 'allow-top-navigation-by-user-activation',
];

/*
 * The frame document's own policy, the one the component's document runs under once written
 * into it (the host page's policy does not reach a frame loaded from a URL). `sandbox` keeps it
 * an opaque origin even where someone frames it without the attribute, so nobody can run code
 * in the delivery API's origin through it. The rest lets a component do what a page may (inline
 * and linked code and styles from anywhere, its own API calls): the sandbox is the isolation.
 */
export const FRAME_CSP = [
  `sandbox ${SANDBOX_FLAGS.join(' ')}`,
  "default-src * data: blob: 'unsafe-inline' 'unsafe-eval'",
  "object-src 'none'",
].join('; ');

type Kind = 'script' | 'frame';
const CONTENT: Record<Kind, readonly string[]> = {
  script: ['Content-Type', 'text/javascript; charset=utf-8'],
  frame: ['Content-Type', 'text/html; charset=utf-8', 'Content-Security-Policy', FRAME_CSP],
};

/**
 * Serves a file of the host SDK (the module or its frame document), compressed once at
 * start (brotli at its best quality: the files are small and fixed). Any origin may load it,
 * as a module script needs CORS and any host may frame the document.
 */
export function createHostSdkEndpoint(file: HostSdkFile, cacheControl: 'stable' | 'immutable', kind: Kind = 'script') {
  const common = [
    ...CONTENT[kind],
    'Cache-Control', cacheControl === 'immutable' ? IMMUTABLE : `public, max-age=${STABLE_MAX_AGE_SECONDS}`,
    'Vary', 'Accept-Encoding',
    'Cross-Origin-Resource-Policy', 'cross-origin',
    ...CORS_HEADERS,
  ];
  const br = brotliCompressSync(file.code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  const gz = gzipSync(file.code, { level: 9 });
  const encodings: Encodings = {
    identity: representation(file.code, file.hash, null, common),
    br: representation(br, file.hash, 'br', common),
    gzip: representation(gz, file.hash, 'gzip', common),
  };
  return (req: IncomingMessage, res: ServerResponse): void => sendCached(req, res, encodings);
}
