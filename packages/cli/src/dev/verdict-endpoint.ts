import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { PAGE_PROBLEM_KINDS, type ContractProblem } from './contract-problems.js';
import { sendProblem } from './problem.js';

const MAX_BODY_BYTES = 65_536;

/** What the dev page found running a candidate (dev-page-script.ts). */
export const Verdict = z.strictObject({
  revision: z.number().int().min(1),
  problems: z.array(z.strictObject({ kind: z.enum(PAGE_PROBLEM_KINDS), message: z.string().min(1).max(1000) })).max(20),
});
export type Verdict = z.infer<typeof Verdict>;

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * POST /dev/verdict from the dev page: JSON only (a form on another site cannot send it without a
 * preflight, which is never allowed), and only from this server's own origins.
 */
export async function receiveVerdict(
  req: IncomingMessage,
  res: ServerResponse,
  origins: ReadonlySet<string>,
  onVerdict: (revision: number, problems: readonly ContractProblem[]) => void,
): Promise<void> {
  if (!origins.has(req.headers.origin ?? '')) return sendProblem(res, 403, 'FORBIDDEN', `Verdicts come from the dev page only (${[...origins].join(' or ')}).`);
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return sendProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the verdict as application/json.');
  }
  const body = await readBody(req);
  if (body === null) return sendProblem(res, 413, 'PAYLOAD_TOO_LARGE', `A verdict is at most ${MAX_BODY_BYTES} bytes.`, ['Connection', 'close']);
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return sendProblem(res, 400, 'INVALID_INPUT', 'The verdict is not JSON.');
  }
  const verdict = Verdict.safeParse(json);
  if (!verdict.success) {
    const issue = verdict.error.issues[0]!;
    return sendProblem(res, 400, 'INVALID_INPUT', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  onVerdict(verdict.data.revision, verdict.data.problems);
  res.writeHead(204, ['Cache-Control', 'no-store']);
  res.end();
}
