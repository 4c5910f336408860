import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * s3rver verifies a signature when a request carries one, but serves requests that
 * carry none as if they were authenticated: anyone reaching the port could PUT, read
 * or delete objects without a key. The embedded server puts this check in front of it.
 */
export const carriesSignature = (request: IncomingMessage): boolean => {
  if (request.headers.authorization !== undefined) return true;
  const query = new URL(request.url ?? '/', 'http://embedded.invalid').searchParams;
  // The two query-string forms s3rver verifies: SigV4 and SigV2 presigned URLs.
  return query.has('X-Amz-Algorithm') || query.has('Signature');
};

const ACCESS_DENIED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>' +
  '<Message>Anonymous requests are refused: sign the request (Authorization header or presigned URL).</Message>' +
  '</Error>';

export const refuseAnonymous = (response: ServerResponse): void => {
  response.writeHead(403, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(ACCESS_DENIED),
  });
  response.end(ACCESS_DENIED);
};
