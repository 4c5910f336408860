import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDomainError } from '@cp/domain';
import { buildCachedResponse } from '../cache/cached-response.js';
import {
  loadConsumeResponse,
  type ConsumeTarget,
  type ReadDeps,
} from '@cp/consume';
import { servedSlotOf, type ServedSlots } from '../usage/served-counter.js';
import { answerFailedLoad, sendCached, withTimeout, type ServeCachedDeps } from './serve-cached.js';

/** The preview key a request presents (header `Cp-Preview-Key`), or null. */
export function presentedPreviewKey(req: IncomingMessage): string | null {
  const value = req.headers['cp-preview-key'];
  const key = typeof value === 'string' ? value.trim() : '';
  return key === '' ? null : key;
}

/** Whether a failed keyless load refused a private preview (which the request's own key may open). */
export const isPrivatePreviewRefusal = (error: unknown): boolean =>
  isDomainError(error) && error.details?.privatePreview === true;

/**
 * A private preview for a request that presents a key: loaded for this request
 * alone (no single flight with keyless requests, never stored in the response
 * cache) and sent `private, no-store`. A wrong or revoked key gets the same 404
 * as an unknown component.
 */
export function servePrivatePreview(
  req: IncomingMessage,
  res: ServerResponse,
  target: ConsumeTarget,
  previewKey: string,
  deps: ServeCachedDeps & { read: ReadDeps; served: ServedSlots },
): void {
  withTimeout(loadConsumeResponse(target, deps.read, previewKey), deps.config.loadTimeoutMs)
    .then((loaded) =>
      buildCachedResponse(
        { payload: loaded.response, freshness: 'private', dependsOn: [], served: servedSlotOf(deps.served, target, loaded) },
        deps.config.cache,
        Date.now(),
      ),
    )
    .then(
      (built) => sendCached(req, res, built),
      (error: unknown) => {
        if (!isDomainError(error))
          deps.log.error(
            { err: error, componentId: target.componentId },
            'cannot build private preview',
          );
        answerFailedLoad(req, res, { error, entry: undefined, errorHeaders: [] }, deps);
      },
    );
}
