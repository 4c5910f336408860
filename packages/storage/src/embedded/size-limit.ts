import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';

import { S3Error, type S3rverObject, type S3rverStore } from './s3rver-module.js';

/*
 * s3rver stores a PUT of any size. The embedded server refuses bodies over its limit
 * (MAX_UPLOAD_BYTES), as a real engine with a PUT limit does (RGW's `rgw max put size`):
 * a declared length over it before the body is read, and a body without a declared
 * length (chunked) when its count passes the limit, leaving nothing stored.
 */

const tooLargeMessage = (maxBytes: number) =>
  `Your proposed upload exceeds the maximum allowed size of ${maxBytes} bytes.`;

/** The body size a request announces: the decoded size of an aws-chunked body, else Content-Length. */
const declaredSize = (request: IncomingMessage): number | null => {
  const header =
    request.headers['x-amz-decoded-content-length'] ?? request.headers['content-length'];
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined || !/^\d+$/.test(value) ? null : Number(value);
};

export const declaresTooLarge = (request: IncomingMessage, maxBytes: number): boolean =>
  (declaredSize(request) ?? 0) > maxBytes;

/**
 * Once the answer is sent, a body still arriving is not read to its end (it may be
 * endless): the connection is closed after the answer.
 */
export const closeAfterAnswerIfUnread = (
  request: IncomingMessage,
  response: ServerResponse,
): void => {
  response.once('finish', () => {
    if (!request.complete) request.socket.destroySoon();
  });
};

/** S3's answer to a body over the limit: 400 EntityTooLarge, before any of the body is read. */
export const refuseTooLarge = (
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
): void => {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooLarge</Code>' +
    `<Message>${tooLargeMessage(maxBytes)}</Message><MaxSizeAllowed>${maxBytes}</MaxSizeAllowed></Error>`;
  closeAfterAnswerIfUnread(request, response);
  response.writeHead(400, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
};

/** Passes bytes through until their count passes `maxBytes`, then fails with EntityTooLarge. */
const countingLimit = (maxBytes: number): Transform => {
  let count = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      count += chunk.length;
      if (count > maxBytes) {
        callback(
          new S3Error('EntityTooLarge', tooLargeMessage(maxBytes), { MaxSizeAllowed: maxBytes }),
        );
      } else callback(null, chunk);
    },
  });
};

/**
 * Wraps one s3rver store's putObject (this server's, not the shared class) so every
 * stored body is counted; a body cut at the limit leaves no object at its key.
 */
export const capStoredObjects = (store: S3rverStore, maxBytes: number): void => {
  const putObject = store.putObject.bind(store);
  store.putObject = async (object: S3rverObject) => {
    if (Buffer.isBuffer(object.content)) {
      if (object.content.byteLength > maxBytes) {
        throw new S3Error('EntityTooLarge', tooLargeMessage(maxBytes), {
          MaxSizeAllowed: maxBytes,
        });
      }
      return putObject(object);
    }
    const source = object.content;
    const limited = countingLimit(maxBytes);
    limited.once('error', () => source.unpipe(limited));
    object.content = source.pipe(limited);
    try {
      return await putObject(object);
    } catch (error) {
      // s3rver writes straight to the object's file: a cut body must not stay there.
      if (error instanceof S3Error && error.code === 'EntityTooLarge')
        await store.deleteObject(object.bucket, object.key);
      throw error;
    }
  };
};
