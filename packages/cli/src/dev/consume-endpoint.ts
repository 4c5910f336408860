import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_CONTENT_TYPE } from '@cp/consume';
import type { ConsumeAnswer, DevComponent } from './consume-answer.js';
import { sendProblem } from './problem.js';

const PARAMETERS = new Set(['id', 'env', 'preview', 'arm', 'rev']);
const ENVIRONMENT = /^[a-z0-9-]{1,32}$/;

/** What /consume answers now: the good version's body, or why there is none yet. */
export type ConsumeState = { readonly answer: ConsumeAnswer } | { readonly answer: null; readonly why: string };

/** The first thing wrong with a /consume query, as the delivery API checks it; null when it is fine. */
function queryProblem(query: URLSearchParams): string | null {
  for (const name of new Set(query.keys())) {
    if (!PARAMETERS.has(name)) return `Unknown parameter "${name.slice(0, 64)}": /consume takes ${[...PARAMETERS].join(', ')}.`;
    if (query.getAll(name).length > 1) return `Parameter "${name}" is given more than once.`;
  }
  const env = query.get('env');
  if (!query.get('id')) return 'Parameter "id" is required: the component id.';
  if (env !== null && !ENVIRONMENT.test(env.toLowerCase())) return 'Parameter "env" must be 1-32 lower-case letters, digits or "-".';
  const preview = query.get('preview');
  if (preview !== null && preview !== 'true' && preview !== 'false') return 'Parameter "preview" must be true or false.';
  if (preview === 'false' && env === null) return 'preview=false needs env: there is no released variant without an environment.';
  return null;
}

/**
 * GET /consume for the one component: the body the delivery API would send for it (any
 * environment and the preview are the watched file's good version), with its ETag and a 304 on
 * a match, as the SDK's live updates revalidate. Not readable by other origins (no CORS, unlike the
 * delivery API): a page elsewhere must not read the file being developed.
 */
export function serveConsume(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, component: DevComponent, state: ConsumeState): void {
  const invalid = queryProblem(query);
  if (invalid !== null) return sendProblem(res, 400, 'INVALID_INPUT', invalid);
  const id = query.get('id')!;
  if (id.toLowerCase() !== component.id) {
    return sendProblem(res, 404, 'NOT_FOUND', `Component "${id.slice(0, 64)}" was not found: this dev server serves ${component.id} only.`, [], 'Component');
  }
  if (state.answer === null) return sendProblem(res, 404, 'NOT_FOUND', state.why, [], 'Release');
  const { body, etag } = state.answer;
  const headers = ['Content-Type', JSON_CONTENT_TYPE, 'Cache-Control', 'no-cache', 'ETag', etag];
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, [...headers, 'Content-Length', String(body.length)]);
  res.end(req.method === 'HEAD' ? undefined : body);
}
