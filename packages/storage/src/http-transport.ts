import http from 'node:http';
import https from 'node:https';

/**
 * The minio client sets no timeout of its own: a blackholed endpoint would hang an
 * operation for the OS connect timeout (minutes). This transport gives every request
 * a socket timeout (connecting, and any later silence) and turns it into an ETIMEDOUT
 * error, which the error mapping reports as UNREACHABLE.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly code = 'ETIMEDOUT';

  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** The shape minio accepts as `transport` (its `Pick<typeof http, 'request'>`). */
export type Transport = Pick<typeof http, 'request'>;

export const transportWithTimeout = (useSSL: boolean, timeoutMs: number): Transport => {
  const base = useSSL ? https : http;
  const request = (
    options: https.RequestOptions,
    callback?: (response: http.IncomingMessage) => void,
  ) => {
    const clientRequest = base.request({ ...options, timeout: timeoutMs }, callback);
    clientRequest.on('timeout', () => clientRequest.destroy(new RequestTimeoutError(timeoutMs)));
    return clientRequest;
  };
  // minio only calls request(options, callback); the cast covers http.request's other overloads.
  return { request: request as typeof http.request };
};
