import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevComponent } from './consume-answer.js';
import { serveConsume } from './consume-endpoint.js';
import type { DevSession } from './dev-session.js';
import type { HostSdkFiles } from './host-sdk-files.js';
import { sendProblem } from './problem.js';
import { receiveVerdict } from './verdict-endpoint.js';

export const SDK_PATH = '/host/v1.js';
const PAGE_SCRIPT_PATH = '/dev/page.js';

export interface DevRoutesDeps {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The Host headers this server answers: anything else is another name pointed at 127.0.0.1 (DNS rebinding). */
  readonly hosts: ReadonlySet<string>;
  readonly page: { readonly html: Buffer; readonly script: Buffer; readonly csp: string };
  readonly sdk: HostSdkFiles;
  readonly component: DevComponent;
  readonly session: Pick<DevSession, 'consume' | 'changes' | 'changeId' | 'statusStreams' | 'status' | 'onVerdict'>;
}

/*
 * The frame document's own policy: `sandbox` keeps it an opaque origin even if some page frames it
 * without the attribute, so nothing ever runs with this server's origin (which reads the file).
 */
const FRAME_CSP = 'sandbox allow-scripts allow-forms allow-modals allow-popups';
const NO_SNIFF = ['X-Content-Type-Options', 'nosniff', 'Referrer-Policy', 'no-referrer'];

function sendFile(req: IncomingMessage, res: ServerResponse, body: Buffer, headers: readonly string[]): void {
  res.writeHead(200, [...headers, ...NO_SNIFF, 'Cache-Control', 'no-cache', 'Content-Length', String(body.length)]);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function openChanges(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, deps: DevRoutesDeps): void {
  const ids = query.get('ids');
  if (!ids || ids.split(',').length > 50) return sendProblem(res, 400, 'INVALID_INPUT', 'Parameter "ids" must name 1 to 50 component ids, comma-separated.');
  const resumeFrom = query.get('lastEventId') ?? req.headers['last-event-id'];
  const { session } = deps;
  session.changes.open(res, (send) => {
    // A resume point other than the latest change: something may have been missed.
    if (typeof resumeFrom === 'string' && resumeFrom !== session.changeId()) send('reset', '{}', session.changeId());
  });
}

/**
 * The dev server's routes, matched on the path exactly as sent: no decoding, no `..` resolution,
 * so no request can name anything but these (the watched file is only ever read by the server
 * itself, never by a path from a request). Anything else is 404.
 */
export function devRoutes(deps: DevRoutesDeps) {
  const origins = new Set([...deps.hosts].map((host) => `http://${host}`));
  const routes: Record<string, { methods: readonly string[]; handle: (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => void }> = {
    '/': { methods: ['GET', 'HEAD'], handle: (req, res) => sendFile(req, res, deps.page.html, ['Content-Type', 'text/html; charset=utf-8', 'Content-Security-Policy', deps.page.csp]) },
    [PAGE_SCRIPT_PATH]: { methods: ['GET', 'HEAD'], handle: (req, res) => sendFile(req, res, deps.page.script, ['Content-Type', 'text/javascript; charset=utf-8']) },
    [SDK_PATH]: { methods: ['GET', 'HEAD'], handle: (req, res) => sendFile(req, res, deps.sdk.sdk, ['Content-Type', 'text/javascript; charset=utf-8']) },
    [deps.sdk.frame.path]: {
      methods: ['GET', 'HEAD'],
      handle: (req, res) => sendFile(req, res, deps.sdk.frame.html, ['Content-Type', 'text/html; charset=utf-8', 'Content-Security-Policy', FRAME_CSP]),
    },
    '/consume': { methods: ['GET', 'HEAD'], handle: (req, res, query) => serveConsume(req, res, query, deps.component, deps.session.consume()) },
    '/changes': { methods: ['GET'], handle: (req, res, query) => openChanges(req, res, query, deps) },
    '/dev/status': { methods: ['GET'], handle: (_req, res) => deps.session.statusStreams.open(res, (send) => send('status', JSON.stringify(deps.session.status()))) },
    '/dev/verdict': { methods: ['POST'], handle: (req, res) => void receiveVerdict(req, res, origins, (revision, problems) => deps.session.onVerdict(revision, problems)) },
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!deps.hosts.has(req.headers.host ?? '')) {
      return sendProblem(res, 403, 'FORBIDDEN', `This dev server answers ${deps.origin} only.`);
    }
    const target = req.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark === -1 ? target : target.slice(0, mark);
    const route = Object.hasOwn(routes, path) ? routes[path]! : undefined;
    if (route === undefined) return sendProblem(res, 404, 'ROUTE_NOT_FOUND', `Nothing is served at ${path.slice(0, 200)}: open ${deps.origin}/.`);
    if (!route.methods.includes(req.method ?? '')) {
      return sendProblem(res, 405, 'METHOD_NOT_ALLOWED', `${path} answers ${route.methods.join(', ')}.`, ['Allow', route.methods.join(', ')]);
    }
    route.handle(req, res, new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1)));
  };
}
