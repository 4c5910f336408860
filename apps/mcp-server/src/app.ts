import { findUser, isUnavailable, RETRY_AFTER_SECONDS, type DomainDeps, type GrantLookup, type RolloutFigures, type UsageReader } from '@cp/domain';
import { createReadiness, expressDefaults, type OperabilityDeps, storeChecks } from '@cp/http-runtime';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createJwks } from './auth/jwks.js';
import { withContentCache } from './content-cache.js';
import { createPrincipalResolver } from './auth/principal.js';
import { protectedResourceMetadata } from './auth/protected-resource.js';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.js';
import { withVerifiedTokenCache } from './auth/verified-tokens.js';
import { type AppConfig, protectedResourceMetadataUrl } from './config.js';
import { serviceGuideHtml } from './guide/guide-html.js';
import { hostGuard } from './http/host-guard.js';
import { RpcErrorCode, sendRpcError } from './http/json-rpc.js';
import { contextOf, requestContext } from './http/request-context.js';
import type { Logger } from '@cp/http-runtime';
import { createMcpMetrics, toolResultCounter, type McpMetrics } from './metrics.js';
import { otherMcpMethods, postMcp } from './mcp/endpoint.js';
import { SERVER_NAME } from './mcp/server.js';
import type { RateLimits } from './rate-limit/limiter.js';
import { buildToolListing, toolsByName } from './tools/registry.js';
import { PACKAGE_VERSION } from './version.js';
import { previewViewResource } from './views/preview-view.js';
import { uiResourcesOf } from './views/ui-resources.js';

/** Everything the app needs, as one typed bag (built by main.ts, or by a test). */
export interface AppDeps extends OperabilityDeps<McpMetrics> {
  readonly config: AppConfig;
  readonly domain: DomainDeps;
  readonly usage: UsageReader;
  /** Rollout sessions per variant (get_rollout). */
  readonly figures: RolloutFigures;
  readonly grants: GrantLookup;
  readonly rateLimits: RateLimits;
  readonly log: Logger;
  /** Defaults to verifying JWTs against the issuer's JWKS (config.auth). */
  readonly tokens?: TokenVerifier;
  /** The verified-token cache's clock, in milliseconds (tests move it on). */
  readonly now?: () => number;
}

/** Pure wiring: no listening, no env, no globals. */
export function createApp(appDeps: AppDeps): express.Express {
  const { config } = appDeps;
  const metrics = appDeps.metrics ?? createMcpMetrics();
  const deps = {
    ...appDeps,
    domain: { ...appDeps.domain, objects: withContentCache(appDeps.domain.objects, config.contentCacheBytes, (result) => metrics.contentCache.inc(result)) },
  };
  const readiness = createReadiness({ checks: appDeps.checks ?? storeChecks({ findById: (id) => appDeps.domain.repos.users.findById(id), objects: appDeps.domain.objects }), draining: appDeps.draining ?? (() => false), metrics: metrics.base });
  const onToolResult = toolResultCounter(metrics);
  const mcpPath = new URL(config.publicUrl).pathname;
  const metadataUrl = protectedResourceMetadataUrl(config.publicUrl);
  const tokens =
    deps.tokens ??
    withVerifiedTokenCache(
      createTokenVerifier({
        issuer: config.auth.issuer,
        audience: config.publicUrl,
        keys: createJwks({ issuer: config.auth.issuer, jwksUrl: config.auth.jwksUrl, cooldownMs: config.auth.jwksCooldownMs, maxAgeMs: config.auth.jwksMaxAgeMs }),
      }),
      { maxAgeSeconds: config.auth.tokenCacheSeconds, now: deps.now },
    );
  const resolvePrincipal = createPrincipalResolver({
    grants: deps.grants,
    ttlSeconds: Math.min(config.auth.grantCacheSeconds, 30),
    findUser: (userId) => findUser({ userId }, deps.domain),
  });
  const guideHtml = serviceGuideHtml({
    mcpUrl: config.publicUrl,
    dashboardUrl: config.dashboardUrl,
    deliveryUrl: config.deliveryUrl,
    maxUploadBytes: deps.domain.config.maxUploadBytes,
  });
  const endpointDeps = {
    config,
    domain: deps.domain,
    usage: deps.usage,
    figures: deps.figures,
    tokens,
    resolvePrincipal,
    rateLimits: deps.rateLimits,
    setup: {
      version: PACKAGE_VERSION,
      listing: buildToolListing(),
      tools: toolsByName,
      resources: uiResourcesOf([previewViewResource(config.deliveryUrl)]),
      validator: new AjvJsonSchemaValidator(),
      onToolResult,
    },
    metadataUrl,
    guideHtml,
    metrics,
  };
  const prm = JSON.stringify(protectedResourceMetadata({ publicUrl: config.publicUrl, issuer: config.auth.issuer }));
  const health = JSON.stringify({ status: 'ok', version: PACKAGE_VERSION, server: SERVER_NAME });

  const app = express();
  expressDefaults(app, { trustProxy: config.trustProxy, metrics: metrics.base });

  // Health first: load balancers probe it by IP address, so it skips the Host check.
  app.get('/', (_req, res) => {
    res.type('application/json').send(health);
  });
  // Operators' endpoints, probed and scraped by address too; not public (docker/Caddyfile answers 404).
  app.get('/ready', (req, res) => readiness.handler(req, res));
  app.get('/metrics', (req, res) => metrics.base.handler(req, res));

  app.use(requestContext(deps.log));
  app.use(hostGuard({ allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins }));

  // Public metadata, readable by browser-based clients from any origin.
  const sendMetadata = (_req: Request, res: Response): void => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(prm);
  };
  app.get('/.well-known/oauth-protected-resource', sendMetadata);
  if (mcpPath !== '/') app.get(`/.well-known/oauth-protected-resource${mcpPath.replace(/\/$/, '')}`, sendMetadata);

  app.get('/guide', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.type('text/html').send(guideHtml);
  });

  app.post(mcpPath, postMcp(endpointDeps));
  app.all(mcpPath, otherMcpMethods(endpointDeps));

  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found', message: `Nothing here. The MCP endpoint is ${config.publicUrl}.` });
  });

  // Last resort: details to the log with the request id, a generic JSON-RPC error to the client.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const ctx = contextOf(res);
    ctx?.log.error({ err: error }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (isUnavailable(error)) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendRpcError(res, 503, null, RpcErrorCode.Unavailable, error.message);
      return;
    }
    sendRpcError(res, 500, null, RpcErrorCode.InternalError, `Internal error. Report request id ${ctx?.requestId ?? 'unknown'} if it persists.`);
  });

  return app;
}
