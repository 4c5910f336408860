import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The delivery API's wire format while an experience or a rollout is live (docs/experiences.md
 * "Delivery"), served from real /consume bodies of the test stack's variants with an `assignment`
 * descriptor added: `/consume?id=&env=` (the fallback), `&arm=&rev=` (an arm; one the mapping no
 * longer has gets the fallback), the static export's `components/<id>/<env>.json` and
 * `…/arms/<arm>.json`, ETags and 304s, and a /changes stream that announces each new mapping.
 * Anything else (the frame document) is the real delivery API's answer. Every request is
 * recorded, so a test sees what left the page.
 */

export interface Arm {
  readonly arm: string;
  readonly upTo: number;
}

export interface Segment {
  readonly rules: readonly { attribute: string; operator: string; values: string[] }[];
  readonly salt: string;
  readonly arms: readonly Arm[];
}

export interface AssignmentFixture {
  /** The base URL to give the SDK (`base-url`). */
  readonly url: string;
  readonly requests: { readonly url: string; readonly headers: IncomingHttpHeaders }[];
  /** Serves a new mapping (the next revision; none: nothing live) and announces it on /changes. */
  assign(segments: readonly Segment[]): void;
  close(): Promise<void>;
}

/**
 * `release` is the environment's /consume body; `arms` the bodies of the other arms by name
 * (a /consume body of each variant).
 */
export async function startAssignmentFixture(delivery: string, componentId: string, env: string, release: unknown, arms: Record<string, unknown>): Promise<AssignmentFixture> {
  const requests: AssignmentFixture['requests'] = [];
  const streams = new Set<ServerResponse>();
  let revision = 0;
  let segments: readonly Segment[] = [];
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag' };

  const answer = (asked: string | null): unknown => {
    const arm = asked && segments.some((segment) => segment.arms.some((a) => a.arm === asked)) && arms[asked] ? asked : 'release';
    const body = arm === 'release' ? release : arms[arm];
    // Nothing live: the answer carries no descriptor.
    return segments.length ? { ...(body as object), assignment: { revision, kind: 'rollout', arm, segments } } : body;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ url: url.href, headers: req.headers });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'If-None-Match' }).end();
      return;
    }
    if (url.pathname === '/changes') {
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(':\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    const exported = new RegExp(`^/components/${componentId}/${env}(?:/arms/([^/]+))?\\.json$`).exec(url.pathname);
    if (url.pathname === '/consume' || exported) {
      const text = JSON.stringify(answer(exported ? (exported[1] ?? null) : url.searchParams.get('arm')));
      const etag = `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ...cors, ETag: etag }).end();
        return;
      }
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ETag: etag }).end(text);
      return;
    }
    void fetch(`${delivery}${url.pathname}${url.search}`).then(async (real) => {
      const headers = Object.fromEntries([...real.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)));
      res.writeHead(real.status, headers).end(Buffer.from(await real.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    assign(next) {
      segments = next;
      revision++;
      for (const stream of streams) stream.write(`id: ${revision}\nevent: change\ndata: ${JSON.stringify({ id: componentId })}\n\n`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
