import type { ServerResponse } from 'node:http';

/** RFC 9457 problem details, as the delivery API answers them (docs/delivery-api.md "Errors"). */
export function sendProblem(res: ServerResponse, status: number, code: string, detail: string, extra: readonly string[] = [], resource?: string): void {
  const title = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Content Too Large', 415: 'Unsupported Media Type' }[status] ?? 'Error';
  const body = JSON.stringify({ type: `/problems/${code.toLowerCase().replace(/_/g, '-')}`, title, status, detail, code, ...(resource ? { resource } : {}) });
  res.writeHead(status, ['Content-Type', 'application/problem+json', 'Cache-Control', 'no-store', ...extra]);
  res.end(body);
}
