import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, type ResolvedAddress } from '@cp/http-runtime';

/** Most of a response body kept with the attempt (receivers' error pages can be large). */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface PostOutcome {
  readonly delivered: boolean;
  readonly responseStatus: number | null;
  /** Why it failed, or the start of the response body. */
  readonly detail: string | null;
}

/**
 * One POST to the checked addresses (never resolved again), with a deadline for the whole
 * exchange. Redirects are not followed (a 3xx is a failure); 2xx is delivered. At most
 * RESPONSE_EXCERPT_BYTES of the response body are read, then the connection is dropped.
 */
export function postWebhook(options: {
  url: URL;
  addresses: readonly ResolvedAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<PostOutcome> {
  const { url, body } = options;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: pinnedLookup(options.addresses),
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(
      () =>
        finish({
          delivered: false,
          responseStatus: null,
          detail: `no response within ${options.timeoutMs / 1000} s`,
        }),
      options.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        delivered: false,
        responseStatus: null,
        detail: `connection failed: ${error.code ?? error.message}`,
      }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks)
          .subarray(0, RESPONSE_EXCERPT_BYTES)
          .toString('utf8')
          .trim();
        const delivered = status >= 200 && status < 300;
        const detail = delivered
          ? excerpt || null
          : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}${excerpt ? `: ${excerpt}` : ''}`;
        finish({ delivered, responseStatus: status, detail });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
