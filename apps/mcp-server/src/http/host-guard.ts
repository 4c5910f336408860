import type { NextFunction, Request, Response } from 'express';
import { RpcErrorCode, sendRpcError } from './json-rpc.js';

/**
 * DNS-rebinding protection: a page on another site that resolves its own name to
 * this server's address reaches us with its own `Host` and `Origin`. Both are
 * checked against allow-lists; `Origin` only when present (non-browser clients
 * send none).
 */
export function hostGuard(options: { allowedHosts: readonly string[]; allowedOrigins: readonly string[] }) {
  const hosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const origins = new Set(options.allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      sendRpcError(res, 403, null, RpcErrorCode.Forbidden, `Forbidden: host "${host.slice(0, 100)}" is not allowed.`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      sendRpcError(res, 403, null, RpcErrorCode.Forbidden, `Forbidden: origin "${origin.slice(0, 100)}" is not allowed.`);
      return;
    }
    next();
  };
}
