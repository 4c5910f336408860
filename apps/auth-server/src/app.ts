import { isUnavailable, RETRY_AFTER_SECONDS, type Credentials, type DomainDeps, type OidcStorage } from '@cp/domain';
import { createMetrics, createReadiness, expressDefaults, type Metrics, type OperabilityDeps, storeChecks } from '@cp/http-runtime';
import { RateLimitStoreError } from '@cp/http-runtime/rate-limit';
import express, { type NextFunction, type Request, type Response } from 'express';
import { PASSWORD_COST, type ScryptCost } from './accounts/passwords.js';
import type { CimdDeps } from './cimd/client-documents.js';
import type { AuthConfig } from './config.js';
import { deviceCodeGuard } from './http/device-code-guard.js';
import { registrationGuard } from './http/registration-guard.js';
import type { SigningKey } from './keys/signing-keys.js';
import type { Logger } from '@cp/http-runtime';
import { createBrowserSessions } from './oidc/browser-session.js';
import { createProvider, ROUTES } from './oidc/provider.js';
import { messagePage } from './pages/message-pages.js';
import { STYLESHEET } from './pages/style.js';
import { accountRoutes } from './routes/account-routes.js';
import { interactionRoutes } from './routes/interaction-routes.js';
import { sendPage, type PageContext } from './routes/page-context.js';
import { sessionRoutes } from './routes/session-routes.js';
import { signUpRoutes } from './routes/sign-up-routes.js';
import { createCsrf } from '@cp/web-forms';
import type { DevicePolls } from './security/device-polls.js';
import { STORE_UNAVAILABLE_RETRY_SECONDS, type Throttles } from './security/throttle.js';
import { PACKAGE_VERSION, SERVER_NAME } from './version.js';

/** Everything the app needs, as one typed bag (built by main.ts, or by a test). */
export interface AppDeps extends OperabilityDeps<Metrics> {
  readonly config: AuthConfig;
  /** Private ES256 keys; the first signs (README "Signing keys"). */
  readonly signingKeys: readonly SigningKey[];
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly credentials: Credentials;
  readonly oidc: OidcStorage;
  readonly throttles: Throttles;
  /** The device codes' polling pace (slow_down): createDevicePolls, on the throttles' store. */
  readonly devicePolls: DevicePolls;
  /** Default: PASSWORD_COST. Tests only pass a lower one (signing up at full cost makes suites slow); never set from the environment. */
  readonly passwordCost?: ScryptCost;
  readonly log: Logger;
  /** Tests only: how client metadata documents are resolved, trusted and cached over time; production uses the defaults. */
  readonly cimd?: CimdDeps;
}

/** What a throttled form answers while the throttle store (Redis) does not (503, Retry-After). */
const THROTTLE_UNAVAILABLE_MESSAGE =
  'Sign-in, sign-up and new connections are paused for a moment: the server cannot count attempts right now. Try again in a minute.';

/** oidc-provider's endpoints are not Express routes: label them by their fixed paths. */
const PROVIDER_PATHS = new Set<string>([...Object.values(ROUTES), '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']);
const providerRoute = (req: { url?: string | undefined }): string => {
  const path = (req.url ?? '').split('?')[0] ?? '';
  return PROVIDER_PATHS.has(path) ? path : '(unmatched)';
};

/** Pure wiring: no listening, no env, no timers. */
export function createApp(deps: AppDeps): express.Express {
  const { config } = deps;
  const provider = createProvider({
    config,
    signingKeys: deps.signingKeys,
    storage: deps.oidc,
    domain: deps.domain,
    log: deps.log,
    devicePolls: deps.devicePolls,
    ...(deps.cimd === undefined ? {} : { cimd: deps.cimd }),
  });
  const pages: PageContext = {
    config,
    provider,
    sessions: createBrowserSessions(provider, config),
    csrf: createCsrf({ key: config.cookieKeys[0] ?? '', secure: config.secureCookies }),
    domain: deps.domain,
    credentials: deps.credentials,
    throttles: deps.throttles,
    passwordCost: deps.passwordCost ?? PASSWORD_COST,
    oidc: deps.oidc,
    log: deps.log,
  };
  const health = JSON.stringify({ status: 'ok', version: PACKAGE_VERSION, server: SERVER_NAME });

  const metrics = deps.metrics ?? createMetrics({ service: 'auth-server' });
  const readiness = createReadiness({
    checks: deps.checks ?? storeChecks({ findById: (id) => deps.domain.repos.users.findById(id) }),
    draining: deps.draining ?? (() => false),
    metrics,
  });

  const app = express();
  expressDefaults(app, { trustProxy: config.trustProxy, metrics, unmatchedRoute: providerRoute });
  app.use((_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
    next();
  });

  app.get('/', (_req, res) => {
    res.type('application/json').send(health);
  });
  // Operators' endpoints: not public (docker/Caddyfile answers 404 for them).
  app.get('/ready', (req, res) => readiness.handler(req, res));
  app.get('/metrics', (req, res) => metrics.handler(req, res));
  app.get('/assets/auth.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('text/css').send(STYLESHEET);
  });

  // RFC 8414 metadata: oidc-provider serves the OpenID form; both names answer the same document.
  app.get('/.well-known/oauth-authorization-server', (req, _res, next) => {
    req.url = '/.well-known/openid-configuration';
    next();
  });
  app.use(ROUTES.registration, registrationGuard(deps.throttles.registrationPerNetwork));
  app.post(ROUTES.code_verification, deviceCodeGuard(deps.throttles.deviceCodeEntryPerNetwork));

  app.use(interactionRoutes(pages));
  app.use(signUpRoutes(pages));
  app.use(sessionRoutes(pages));
  app.use(accountRoutes(pages));

  // Everything else is oidc-provider's: discovery, JWKS, authorize, token, registration, revocation, introspection.
  app.use(provider.callback());

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof RateLimitStoreError && !res.headersSent) {
      // Fail closed: a throttled form is refused while its attempts cannot be counted (README "Throttling").
      deps.log.warn({ err: error, method: req.method, path: req.path }, 'throttle store unavailable: request refused');
      res.set('Retry-After', String(STORE_UNAVAILABLE_RETRY_SECONDS));
      sendPage(res, 503, messagePage({ title: 'Temporarily unavailable', message: THROTTLE_UNAVAILABLE_MESSAGE }));
      return;
    }
    if (isUnavailable(error) && !res.headersSent) {
      deps.log.warn({ err: error, method: req.method, path: req.path }, 'database unavailable');
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendPage(res, 503, messagePage({ title: 'Temporarily unavailable', message: error.message }));
      return;
    }
    deps.log.error({ err: error, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    sendPage(res, 500, messagePage({ title: 'Something went wrong', message: 'The server could not finish this request. Try again in a moment.' }));
  });

  return app;
}
