import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { RETRY_AFTER_SECONDS, type DomainDeps, type RolloutFigures, type UsageReader } from '@cp/domain';
import { clientNetwork } from '@cp/http-runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticate, type AuthOutcome } from '../auth/authenticate.js';
import { sendInsufficientScope, sendUnauthorized } from '../auth/challenge.js';
import type { Principal } from '../auth/principal.js';
import { isPublic, missingScopes } from '../auth/scopes.js';
import type { TokenClaims, TokenVerifier } from '../auth/token-verifier.js';
import type { AppConfig } from '../config.js';
import type { McpMetrics } from '../metrics.js';
import { parseRpcBody, type BodyResult } from '../http/json-body.js';
import { RpcErrorCode, sendRpcError, type RpcId } from '../http/json-rpc.js';
import { protocolVersionOf } from '../http/protocol-version.js';
import { contextOf } from '../http/request-context.js';
import { setRateLimitHeaders } from '../rate-limit/headers.js';
import { TOOL_BUDGET_WHAT, toolBudgetsOf, type RateLimiter, type RateLimits } from '../rate-limit/limiter.js';
import { createMcpServer, type McpServerSetup } from './server.js';

export interface EndpointDeps {
  readonly config: AppConfig;
  readonly domain: DomainDeps;
  readonly usage: UsageReader;
  readonly figures: RolloutFigures;
  readonly tokens: TokenVerifier;
  readonly resolvePrincipal: (claims: TokenClaims) => Promise<Principal>;
  readonly rateLimits: RateLimits;
  readonly setup: McpServerSetup;
  readonly metadataUrl: string;
  readonly guideHtml: string;
  readonly metrics: McpMetrics;
}

type ParsedBody = Extract<BodyResult, { ok: true }>;

/** Without a token the client network pays (an IPv6 client by its /64, which it can roam freely). */
const clientIp = (req: Request): string => clientNetwork(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/** Consumes `points` of one budget; on refusal answers 429 and returns false. */
async function withinLimit(res: Response, limiter: RateLimiter, key: string, points: number, id: RpcId, what: string, onRefused: () => void): Promise<boolean> {
  const decision = await limiter.consume(key, points);
  setRateLimitHeaders(res, decision);
  if (decision.allowed) return true;
  onRefused();
  sendRpcError(
    res,
    429,
    id,
    RpcErrorCode.RateLimited,
    `Rate limit exceeded: too many ${what}. Retry after ${decision.resetSeconds} seconds; space requests by a few seconds and batch operations.`,
    { retryAfterSeconds: decision.resetSeconds },
  );
  return false;
}

/** The request budget a caller pays: its user's with a valid token, its IP's without one. */
function requestBudget(req: Request, outcome: AuthOutcome, deps: EndpointDeps) {
  const { rateLimits, metrics } = deps;
  if (outcome.kind === 'authenticated') {
    return { limiter: rateLimits.user, key: outcome.principal.userId, what: 'requests', refused: () => metrics.rateLimited.inc('user') };
  }
  return { limiter: rateLimits.ip, key: clientIp(req), what: 'requests without a valid token', refused: () => metrics.rateLimited.inc('ip') };
}

/**
 * Authentication and the first point of the per-user / per-IP budget shared by
 * every /mcp method, paid before the body is read (a batch pays the rest once
 * parsed: chargeBatch). Returns the outcome, or null when a response (401, 429,
 * 503) was already sent.
 */
async function admit(req: Request, res: Response, deps: EndpointDeps): Promise<AuthOutcome | null> {
  const ctx = contextOf(res);
  const outcome = await authenticate(req, deps.tokens, deps.resolvePrincipal);
  const { metrics } = deps;
  if (outcome.kind === 'unavailable') {
    metrics.tokenFailures.inc(outcome.reason === 'database unavailable' ? 'database_unavailable' : 'auth_server_unavailable');
    ctx.log.error({ reason: outcome.reason }, 'cannot verify tokens: a dependency is unavailable');
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendRpcError(res, 503, null, RpcErrorCode.Unavailable, outcome.message);
    return null;
  }
  if (outcome.kind === 'authenticated') ctx.principal = outcome.principal;
  // No valid token: the IP pays, which also slows down token guessing.
  if (outcome.kind === 'invalid') metrics.tokenFailures.inc(outcome.reason);
  const budget = requestBudget(req, outcome, deps);
  if (!(await withinLimit(res, budget.limiter, budget.key, 1, null, budget.what, budget.refused))) return null;
  if (outcome.kind === 'invalid') {
    sendUnauthorized(res, { metadataUrl: deps.metadataUrl, id: null, invalidToken: outcome.description });
    return null;
  }
  return outcome;
}

/**
 * Every message of a batch costs what it would cost alone: the messages after the
 * first (paid by admit) in one atomic step, so parallel batches cannot together
 * pass the budget and a batch the budget does not cover runs none of its messages.
 */
async function chargeBatch(req: Request, res: Response, body: ParsedBody, outcome: AuthOutcome, deps: EndpointDeps): Promise<boolean> {
  const rest = body.messages.length - 1;
  if (rest === 0) return true;
  const budget = requestBudget(req, outcome, deps);
  return withinLimit(res, budget.limiter, budget.key, rest, null, budget.what, budget.refused);
}

/**
 * What the called tools declare (tools/define.ts): their scope, then their extra
 * budgets. Returns false when a response (401, 403, invalid params, 429) was already sent.
 */
async function gate(res: Response, body: ParsedBody, principal: Principal | null, deps: EndpointDeps): Promise<boolean> {
  const { tools } = deps.setup;
  if (principal === null) {
    if (isPublic(body.messages, tools)) return true;
    sendUnauthorized(res, { metadataUrl: deps.metadataUrl, id: body.firstId });
    return false;
  }
  const missing = missingScopes(body.messages, principal.scopes, tools);
  if (missing.length > 0) {
    sendInsufficientScope(res, { metadataUrl: deps.metadataUrl, id: body.firstId, missing });
    return false;
  }
  if (body.invalidParamsId !== undefined) {
    sendRpcError(res, 200, body.invalidParamsId, RpcErrorCode.InvalidParams, 'Invalid params: tools/call takes "name" (a string) and "arguments" (an object).');
    return false;
  }
  for (const [budget, points] of toolBudgetsOf(body.messages, tools)) {
    const refused = () => deps.metrics.rateLimited.inc(budget);
    if (!(await withinLimit(res, deps.rateLimits[budget], principal.userId, points, body.firstId, TOOL_BUDGET_WHAT[budget], refused))) return false;
  }
  return true;
}

/** POST /mcp: one stateless MCP exchange (a fresh server and transport per request). */
export function postMcp(deps: EndpointDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = contextOf(res);
      const outcome = await admit(req, res, deps);
      if (outcome === null) return;
      const protocol = protocolVersionOf(req.get('mcp-protocol-version'));
      if (!protocol.ok) {
        sendRpcError(res, 400, null, RpcErrorCode.InvalidRequest, protocol.message);
        return;
      }
      const body = await parseRpcBody(req, deps.config.maxBodyBytes, protocol);
      if (!body.ok) {
        sendRpcError(res, body.status, body.id, body.code, body.message);
        return;
      }
      if (!(await chargeBatch(req, res, body, outcome, deps))) return;
      ctx.rpcMethods = body.messages.map((message) => message.method ?? '(response)');
      ctx.toolNames = body.messages.flatMap((message) => (message.toolName === undefined ? [] : [message.toolName]));
      const principal = outcome.kind === 'authenticated' ? outcome.principal : null;
      if (!(await gate(res, body, principal, deps))) return;

      const server = createMcpServer(deps.setup, {
        principal,
        domain: deps.domain,
        usage: deps.usage,
        figures: deps.figures,
        config: deps.config,
        log: ctx.log,
        requestId: ctx.requestId,
        guideHtml: deps.guideHtml,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      transport.onerror = (error) => ctx.log.debug({ err: error }, 'transport refused the request');
      res.on('close', () => {
        // After a complete response the exchange is over: nothing is pending and both
        // objects are garbage. Closing them then would only build a "Connection closed"
        // McpError (with its stack trace) per request, a cost the benchmark shows.
        // A client that leaves before the answer still aborts the handler.
        if (res.writableFinished) return;
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body.body);
    } catch (error) {
      next(error);
    }
  };
}

/** GET and DELETE /mcp: no SSE stream and no sessions in stateless mode, but a client without a token still learns how to sign in. */
export function otherMcpMethods(deps: EndpointDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const outcome = await admit(req, res, deps);
      if (outcome === null) return;
      if (outcome.kind === 'anonymous') {
        sendUnauthorized(res, { metadataUrl: deps.metadataUrl, id: null });
        return;
      }
      res.setHeader('Allow', 'POST');
      sendRpcError(res, 405, null, RpcErrorCode.InvalidRequest, `Method not allowed: this stateless server answers POST only (no SSE stream, no sessions).`);
    } catch (error) {
      next(error);
    }
  };
}
