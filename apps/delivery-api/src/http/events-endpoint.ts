import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientNetwork } from '@cp/http-runtime';
import type { Logger } from '@cp/http-runtime';
import { MAX_BODY_BYTES } from '../api/event-schema.js';
import { browserFamily } from '../usage/browser-family.js';
import { bodyTooLarge, readBatch } from '../usage/read-batch.js';
import type { UsageIngest } from '../usage/usage-ingest.js';
import type { RefusalReason } from '../usage/usage-metrics.js';
import { answerOptions, CORS_HEADERS } from './cors.js';
import { HttpErrorCode, problem, sendProblem, type Problem } from './problem.js';

export const EVENTS_PATH = '/v1/events';
export const EVENTS_METHODS = 'POST, OPTIONS';

export interface EventsEndpointDeps {
  readonly ingest: UsageIngest;
  readonly clientAddress: (req: IncomingMessage) => string;
  readonly retryAfterSeconds: number;
  readonly log: Logger;
}

/** What a browser's `sendBeacon` sends (`text/plain`, no preflight) and what a program would (`application/json`). */
const MEDIA_TYPES = new Set(['text/plain', 'application/json']);

function mediaTypeProblem(header: string | undefined): Problem | null {
  const [type = '', ...params] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = params.find((param) => param.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (MEDIA_TYPES.has(type) && (charset === undefined || charset === 'utf-8')) return null;
  return problem(
    HttpErrorCode.UnsupportedMediaType,
    `Content-Type ${header === undefined ? 'is missing' : `"${header.slice(0, 60)}" is not accepted`}: send the batch as text/plain;charset=UTF-8 or application/json.`,
  );
}

const NO_CONTENT: readonly string[] = ['Cache-Control', 'no-store', ...CORS_HEADERS];

/**
 * The body, read up to `MAX_BODY_BYTES`; null once it is larger (what was read is dropped,
 * the rest is not waited for: the answer closes the connection).
 */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/**
 * POST /v1/events: a batch of usage events from the host SDK (docs/delivery-api.md "Usage
 * events"). 204 once its events are checked and buffered (events naming an unknown component,
 * environment or variant are dropped, still 204: the SDK has nothing to fix); 413, 415, 400
 * for what is wrong with the request; 429 past a budget; 503 when the ids cannot be checked.
 */
export function createEventsEndpoint(deps: EventsEndpointDeps) {
  const { ingest } = deps;
  const { refusals } = ingest.metrics;
  const refuse = (res: ServerResponse, reason: RefusalReason, body: Problem, headers: readonly string[] = []) => {
    refusals.inc({ reason });
    sendProblem(res, body, headers);
  };
  const tooLarge = (res: ServerResponse) => {
    // What is left of the body is not read: the connection closes after the answer.
    res.shouldKeepAlive = false;
    refuse(res, 'too_large', bodyTooLarge(), ['Connection', 'close']);
  };

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const wrongType = mediaTypeProblem(req.headers['content-type']);
    if (wrongType) {
      refuse(res, 'unsupported_media_type', wrongType);
      return;
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      tooLarge(res);
      return;
    }
    const body = await readBody(req);
    if (body === null) {
      tooLarge(res);
      return;
    }
    const batch = readBatch(body);
    if (!batch.ok) {
      refuse(res, batch.reason, batch.problem);
      return;
    }
    const result = await ingest.ingest(batch.events, {
      network: clientNetwork(deps.clientAddress(req)),
      browser: browserFamily(req.headers['user-agent']),
    });
    if (result.outcome === 'refused') {
      const { budget, retryAfterSeconds } = result.refusal;
      refuse(
        res,
        'rate_limited',
        problem(
          HttpErrorCode.RateLimited,
          budget === 'network'
            ? `Too many usage events from this network: retry in ${retryAfterSeconds} seconds, or sample fewer events.`
            : budget === 'component'
              ? `Too many usage events about this component: retry in ${retryAfterSeconds} seconds, or sample fewer events.`
              : `Too many unknown component and variant ids from this network: send the ids /consume returned; retry in ${retryAfterSeconds} seconds.`,
        ),
        ['Retry-After', String(retryAfterSeconds)],
      );
      return;
    }
    if (result.outcome === 'unavailable') {
      refuse(res, 'unavailable', problem(HttpErrorCode.Unavailable, `Usage events cannot be checked right now. Retry in ${deps.retryAfterSeconds} seconds.`), [
        'Retry-After',
        String(deps.retryAfterSeconds),
      ]);
      return;
    }
    res.writeHead(204, NO_CONTENT as string[]);
    res.end();
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? '';
    if (method === 'OPTIONS') {
      answerOptions(req, res, [], EVENTS_METHODS);
      return;
    }
    if (method !== 'POST') {
      sendProblem(res, problem(HttpErrorCode.MethodNotAllowed, `${method} is not allowed here: send usage events with POST.`), ['Allow', EVENTS_METHODS]);
      return;
    }
    post(req, res).catch((error: unknown) => {
      // A client that left mid-body: nobody to answer.
      if (req.readableAborted || res.destroyed) return;
      deps.log.error({ err: error }, 'usage events request failed');
      if (res.headersSent) res.end();
      else sendProblem(res, problem(HttpErrorCode.Internal, 'Internal error.'));
    });
  };
}
