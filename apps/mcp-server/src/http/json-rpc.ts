import type { Response } from 'express';

/** JSON-RPC 2.0 error codes (spec §5.1) and the server-defined ones we use (-32000..-32099). */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Server-defined: the request needs a (better) token. */
  Unauthorized: -32001,
  /** Server-defined: the token lacks a scope. */
  Forbidden: -32003,
  /** Server-defined: too many requests; `data.retryAfterSeconds` says when to retry. */
  RateLimited: -32029,
  /** Server-defined: a dependency (auth server) is unavailable. */
  Unavailable: -32050,
} as const;

export type RpcId = string | number | null;

export interface RpcErrorBody {
  readonly jsonrpc: '2.0';
  readonly id: RpcId;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export const rpcError = (id: RpcId, code: number, message: string, data?: unknown): RpcErrorBody => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

export function sendRpcError(res: Response, status: number, id: RpcId, code: number, message: string, data?: unknown): void {
  res.status(status).type('application/json').send(JSON.stringify(rpcError(id, code, message, data)));
}
