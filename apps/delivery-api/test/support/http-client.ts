import { request } from 'node:http';

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read response JSON freely */
type JsonValue = any;

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** As sent: not decompressed. */
  readonly body: Buffer;
  header(name: string): string | undefined;
  json<T = JsonValue>(): T;
}

/**
 * A plain HTTP request that leaves the bytes alone (no decompression, no
 * Accept-Encoding added, the path sent exactly as given), so tests see what
 * the server sent.
 */
export function send(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: options.method ?? 'GET', path, headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            header: (name) => {
              const value = res.headers[name.toLowerCase()];
              return Array.isArray(value) ? value.join(', ') : value;
            },
            json: <T,>() => JSON.parse(body.toString('utf8')) as T,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const get = (baseUrl: string, path: string, headers: Record<string, string> = {}) => send(baseUrl, path, { headers });
