import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@cp/http-runtime';
import type { Principal } from '../auth/principal.js';

/** Per-request state the middlewares share (kept on res.locals, typed here). */
export interface RequestContext {
  readonly requestId: string;
  readonly log: Logger;
  principal: Principal | null;
  rpcMethods: string[];
  toolNames: string[];
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const contextOf = (res: Response): RequestContext => res.locals.ctx as RequestContext;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is a safe token,
 * else a new UUID), echoes it, and writes one structured log line when the
 * response ends. Only chosen fields are logged: never headers, bodies or URLs'
 * query strings, so tokens cannot reach the log.
 */
export function requestContext(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    const ctx: RequestContext = { requestId, log: log.child({ requestId }), principal: null, rpcMethods: [], toolNames: [] };
    res.locals.ctx = ctx;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      ctx.log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          userId: ctx.principal?.userId,
          rpc: ctx.rpcMethods.length > 0 ? ctx.rpcMethods : undefined,
          tools: ctx.toolNames.length > 0 ? ctx.toolNames : undefined,
        },
        'request',
      );
    });
    next();
  };
}
