import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Encodings, representation } from '../cache/cached-response.js';
import type { HostSdkFile } from '../host-sdk/host-sdk-file.js';
import { CORS_HEADERS } from './cors.js';
import { sendCached } from './serve-cached.js';

/** The stable alias is re-checked within minutes, so an SDK fix reaches pages soon; the hashed URL never changes. */
export const STABLE_MAX_AGE_SECONDS = 300;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the host SDK, compressed once at start (brotli at its best quality: the
 * file is small and fixed). Any origin may load it, as a module script needs CORS.
 */
export function createHostSdkEndpoint(file: HostSdkFile, cacheControl: 'stable' | 'immutable') {
  const common = [
    'Content-Type', 'text/javascript; charset=utf-8',
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
