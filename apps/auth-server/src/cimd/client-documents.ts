import type { Logger } from '@cp/http-runtime';
import { LRUCache } from 'lru-cache';
import type { CimdConfig } from '../config.js';
import { cacheSeconds } from './cache-lifetime.js';
import { parseClientIdUrl } from './client-id-url.js';
import { checkDocument, type DocumentMetadata } from './document-rules.js';
import { type ResolveHost, systemResolver } from './checked-addresses.js';
import { fetchDocument } from './fetch-document.js';
import { CimdRefusal } from './refusal.js';

/** What tests may replace; production uses the defaults. */
export interface CimdDeps {
  /** Default: the system resolver (getaddrinfo). */
  readonly resolveHost?: ResolveHost;
  /** Tests only: the CA of their loopback https document server. */
  readonly tlsCa?: string | Buffer;
  /** Milliseconds; default Date.now. Only the cache reads it. */
  readonly now?: () => number;
}

export interface ClientDocumentsOptions extends CimdDeps {
  readonly config: CimdConfig;
  readonly log: Logger;
  /** oidc-provider's own checks of client metadata (and our client policy), as for a registered client. */
  readonly validate: (metadata: DocumentMetadata) => Promise<void>;
}

/** Metadata for a URL client_id, or a CimdRefusal saying what is wrong. */
export interface ClientDocuments {
  resolve(clientId: string): Promise<DocumentMetadata>;
}

type Entry =
  | { readonly ok: true; readonly metadata: DocumentMetadata; readonly expiresAt: number }
  | { readonly ok: false; readonly refusal: CimdRefusal; readonly expiresAt: number };

/**
 * Client metadata documents by URL: fetched (fetch-document.ts), checked
 * (document-rules.ts and oidc-provider's client checks), then kept in a bounded LRU
 * cache for the document's `max-age` within the configured bounds. A refusal is kept
 * for `failureCacheSeconds` (short), so a broken or hostile URL cannot make this server
 * fetch on every request; a fixed document is picked up once it expires. Concurrent
 * requests for one URL wait on the same fetch.
 */
export function createClientDocuments(options: ClientDocumentsOptions): ClientDocuments {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const fetchDeps = {
    resolveHost: options.resolveHost ?? systemResolver,
    ...(options.tlsCa === undefined ? {} : { tlsCa: options.tlsCa }),
  };
  const cache = new LRUCache<string, Entry>({ max: config.maxCachedDocuments });
  const inFlight = new Map<string, Promise<Entry>>();

  const load = async (clientId: string, url: URL): Promise<Entry> => {
    try {
      const fetched = await fetchDocument(url, config, fetchDeps);
      const metadata = checkDocument(clientId, fetched.body);
      await validateWithProvider(clientId, metadata);
      const seconds = cacheSeconds(fetched.cacheControl, config.cacheSeconds);
      log.info(
        { clientId: loggable(clientId), cacheSeconds: seconds },
        'client metadata document fetched',
      );
      return { ok: true, metadata, expiresAt: now() + seconds * 1000 };
    } catch (error) {
      const refusal = error instanceof CimdRefusal ? error : unexpected(clientId, error);
      // The document itself is never logged: it may carry a secret (that is one reason to refuse it).
      log.warn(
        { clientId: loggable(clientId), reason: refusal.reason },
        'client metadata document refused',
      );
      return { ok: false, refusal, expiresAt: now() + config.failureCacheSeconds * 1000 };
    }
  };

  const validateWithProvider = async (
    clientId: string,
    metadata: DocumentMetadata,
  ): Promise<void> => {
    try {
      await options.validate(metadata);
    } catch (error) {
      const description = (error as { error_description?: unknown }).error_description;
      if (typeof description !== 'string') throw error;
      throw new CimdRefusal(
        'invalid-metadata',
        `the client metadata document at ${clientId} is not valid client metadata: ${description}`,
      );
    }
  };

  const unexpected = (clientId: string, error: unknown): CimdRefusal => {
    log.error(
      { err: error, clientId: loggable(clientId) },
      'client metadata document: unexpected failure',
    );
    return new CimdRefusal(
      'connect-failed',
      `the client metadata document at ${clientId} could not be fetched; try again later`,
    );
  };

  return {
    async resolve(clientId) {
      let url: URL;
      try {
        url = parseClientIdUrl(clientId, config);
      } catch (error) {
        log.warn(
          { clientId: loggable(clientId), reason: (error as CimdRefusal).reason },
          'client metadata document refused',
        );
        throw error;
      }
      const cached = cache.get(clientId);
      let entry = cached !== undefined && cached.expiresAt > now() ? cached : undefined;
      if (entry === undefined) {
        let pending = inFlight.get(clientId);
        if (pending === undefined) {
          pending = load(clientId, url).then((loaded) => {
            cache.set(clientId, loaded);
            return loaded;
          });
          const settled = pending.finally(() => inFlight.delete(clientId));
          inFlight.set(clientId, settled);
          pending = settled;
        }
        entry = await pending;
      }
      if (!entry.ok) throw entry.refusal;
      // A copy: oidc-provider builds its client from what it gets, and the cached entry stays as fetched.
      return structuredClone(entry.metadata);
    },
  };
}

/** The URL without its query (which the draft discourages and which might carry something private), bounded. */
const loggable = (clientId: string): string => clientId.split('?')[0]!.slice(0, 300);
