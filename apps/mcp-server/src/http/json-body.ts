import type { Request } from 'express';
import type { RpcMessageSummary } from '../auth/scopes.js';
import { RpcErrorCode, type RpcId } from './json-rpc.js';
import { BATCHING_REMOVED_IN } from './protocol-version.js';

/** The parsed body of a POST /mcp, or the HTTP and JSON-RPC error to answer with. */
export type BodyResult =
  | { ok: true; body: unknown; messages: RpcMessageSummary[]; firstId: RpcId; invalidParamsId: RpcId | undefined }
  | { ok: false; status: number; code: number; message: string; id: RpcId };

const MAX_BATCH = 20;

class TooLarge extends Error {}

/** Reads the raw body, refusing it as soon as it passes `limit` bytes (before buffering it all). */
function readBody(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new TooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new TooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const validId = (id: unknown): id is string | number => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/**
 * A JSON-RPC 2.0 request, notification or response, as far as this layer needs:
 * `jsonrpc: "2.0"` and either a string `method` (with an optional valid `id`) or an
 * `id` with `result`/`error`. Anything else is an Invalid Request (-32600).
 */
function summarize(message: unknown): RpcMessageSummary | null {
  if (!isObject(message) || message.jsonrpc !== '2.0') return null;
  if (typeof message.method === 'string') {
    if ('id' in message && !validId(message.id)) return null;
    if ('params' in message && !isObject(message.params) && !Array.isArray(message.params)) return null;
    const params = isObject(message.params) ? message.params : undefined;
    if (message.method !== 'tools/call') return { method: message.method, toolName: undefined };
    const toolName = typeof params?.name === 'string' ? params.name : undefined;
    // The SDK would answer these with -32603 (its schema parse error is not an McpError).
    const invalidParams = toolName === undefined || (params?.arguments !== undefined && !isObject(params.arguments));
    return { method: message.method, toolName, invalidParams };
  }
  if (validId(message.id) && ('result' in message || 'error' in message)) return { method: undefined, toolName: undefined };
  return null;
}

const idOf = (message: unknown): RpcId => (isObject(message) && validId(message.id) ? message.id : null);

/** Whether the request's protocol revision allows a batch (protocol-version.ts). */
export interface BodyProtocol {
  readonly version: string;
  readonly batching: boolean;
}

export async function parseRpcBody(req: Request, limit: number, protocol: BodyProtocol): Promise<BodyResult> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    return { ok: false, status: 415, code: RpcErrorCode.InvalidRequest, message: 'Unsupported Media Type: Content-Type must be application/json.', id: null };
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, limit);
  } catch (error) {
    if (error instanceof TooLarge) {
      return { ok: false, status: 413, code: RpcErrorCode.InvalidRequest, message: `Request body too large: the limit is ${limit} bytes.`, id: null };
    }
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, status: 400, code: RpcErrorCode.ParseError, message: 'Parse error: the body is not valid JSON.', id: null };
  }
  if (Array.isArray(body) && !protocol.batching) {
    return {
      ok: false,
      status: 400,
      code: RpcErrorCode.InvalidRequest,
      message: `Invalid Request: JSON-RPC batching was removed in MCP ${BATCHING_REMOVED_IN} and this request speaks ${protocol.version} (its MCP-Protocol-Version header). Send one message per request.`,
      id: null,
    };
  }
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > MAX_BATCH) {
    return {
      ok: false,
      status: 400,
      code: RpcErrorCode.InvalidRequest,
      message: list.length === 0 ? 'Invalid Request: empty batch.' : `Invalid Request: a batch may hold at most ${MAX_BATCH} messages.`,
      id: null,
    };
  }
  const messages: RpcMessageSummary[] = [];
  let invalidParamsId: RpcId | undefined;
  for (const message of list) {
    const summary = summarize(message);
    if (summary === null) {
      return { ok: false, status: 400, code: RpcErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message.', id: idOf(message) };
    }
    if (summary.invalidParams === true && invalidParamsId === undefined) invalidParamsId = idOf(message);
    messages.push(summary);
  }
  return { ok: true, body, messages, firstId: idOf(list[0]), invalidParamsId };
}
