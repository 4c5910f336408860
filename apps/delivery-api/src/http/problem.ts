import { STATUS_CODES, type ServerResponse } from 'node:http';
import { HTTP_STATUS, isDomainError, isUnavailable, type ErrorCode } from '@cp/domain';
import { CORS_HEADERS } from './cors.js';

/** RFC 9457 problem details, plus `code` (stable, for programs) and `resource` on 404s. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly resource?: string;
}

/** Failures of the delivery edge itself (not domain rules). */
export const HttpErrorCode = {
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  RouteNotFound: 'ROUTE_NOT_FOUND',
  Unavailable: 'UNAVAILABLE',
  TooManyStreams: 'TOO_MANY_STREAMS',
  /** POST /v1/events: a body or batch over its bound. */
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  /** POST /v1/events: a client network's or a component's event budget is spent. */
  RateLimited: 'RATE_LIMITED',
  Internal: 'INTERNAL',
} as const;
type HttpErrorCode = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

type AnyCode = ErrorCode | HttpErrorCode;

/** The one status table: the domain's for its codes, plus the edge's own. */
const STATUS: { readonly [Code in AnyCode]: number } = {
  ...HTTP_STATUS,
  METHOD_NOT_ALLOWED: 405,
  ROUTE_NOT_FOUND: 404,
  UNAVAILABLE: 503,
  TOO_MANY_STREAMS: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

/** Problem `type` URIs are relative to the service and documented in the README. */
const typeOf = (code: AnyCode): string => `/problems/${code.toLowerCase().replaceAll('_', '-')}`;

export function problem(code: AnyCode, detail: string, resource?: string): Problem {
  const status = STATUS[code];
  const title = STATUS_CODES[status] ?? 'Error';
  // 5xx details never carry internals; the log has them.
  const safeDetail = status >= 500 && code !== HttpErrorCode.Unavailable ? 'Internal error. Try again later.' : detail;
  return { type: typeOf(code), title, status, detail: safeDetail, code, ...(resource === undefined ? {} : { resource }) };
}

/**
 * A domain error as a problem; anything else is the caller's to handle (it is not a
 * client error), an unavailable database included: the caller serves stale or 503.
 */
export function problemFromDomain(error: unknown): Problem | null {
  if (!isDomainError(error) || isUnavailable(error)) return null;
  const resource = typeof error.details?.resource === 'string' ? error.details.resource : undefined;
  return problem(error.code, error.message, resource);
}

export function sendProblem(res: ServerResponse, body: Problem, extraHeaders: readonly string[] = []): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(body.status, [
    'Content-Type', 'application/problem+json; charset=utf-8',
    'Content-Length', String(bytes.length),
    // A 404 today may be a release tomorrow; no cache should keep an error.
    'Cache-Control', 'no-store',
    'X-Content-Type-Options', 'nosniff',
    ...CORS_HEADERS,
    ...extraHeaders,
  ]);
  res.end(bytes);
}
