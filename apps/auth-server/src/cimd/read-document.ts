import type { IncomingMessage } from 'node:http';
import { CimdRefusal } from './refusal.js';

export interface FetchedDocument {
  readonly body: string;
  readonly cacheControl: string | undefined;
}

/** `application/json`, or a more specific `application/<something>+json` (the draft allows both). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The document from an answer: 200 only, JSON only, at most `maxBytes`; else a refusal. */
export async function readDocument(
  url: URL,
  res: IncomingMessage,
  maxBytes: number,
): Promise<FetchedDocument> {
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    throw new CimdRefusal(
      'redirect',
      `the client metadata document at ${url.href} answered with a redirect (${status}); redirects are not followed, so serve the document at the client_id URL itself`,
    );
  }
  if (status !== 200) {
    throw new CimdRefusal(
      'status',
      `the client metadata document at ${url.href} answered ${status}; it must answer 200 with the document`,
    );
  }
  const type = res.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new CimdRefusal(
      'content-type',
      `the client metadata document at ${url.href} is served as ${type === '' ? 'no content type' : JSON.stringify(type)}; serve it as application/json`,
    );
  }
  const tooLarge = (): CimdRefusal =>
    new CimdRefusal(
      'too-large',
      `the client metadata document at ${url.href} is larger than ${maxBytes} bytes, the most this server reads; make it smaller`,
    );
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const cacheControl = res.headers['cache-control'];
  return { body: Buffer.concat(chunks).toString('utf8'), cacheControl };
}
