import { isUnavailable, RETRY_AFTER_SECONDS, type ApplicationGrants, type DomainDeps, type RolloutFigures, type UsageReader } from '@cp/domain';
import { createMetrics, createReadiness, expressDefaults, type Metrics, type OperabilityDeps, outboundUrlPolicy, storeChecks } from '@cp/http-runtime';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createSignIn, type PendingLogin, type SignIn } from './auth/sign-in.js';
import type { DashboardConfig } from './config.js';
import type { Logger } from '@cp/http-runtime';
import { messagePage } from './pages/layout.js';
import { STYLESHEET } from './pages/style.js';
import { apiTokenRoutes } from './routes/api-token-routes.js';
import { appRoutes } from './routes/app-routes.js';
import { applicationRoutes } from './routes/application-routes.js';
import { auditRoutes } from './routes/audit-routes.js';
import { authRoutes } from './routes/auth-routes.js';
import { ciPolicyRoutes } from './routes/ci-policy-routes.js';
import { componentRoutes } from './routes/component-routes.js';
import { sendPage, type RouteContext } from './routes/context.js';
import { experienceRoutes } from './routes/experience-routes.js';
import { rolloutRoutes } from './routes/rollout-routes.js';
import { environmentRoutes } from './routes/environment-routes.js';
import { flowRoutes } from './routes/flow-routes.js';
import { invitationRoutes } from './routes/invitation-routes.js';
import { joinRoutes } from './routes/join-routes.js';
import { smtpInvitationMailer, type InvitationMailer } from './mail/invitation-mail.js';
import { memberRoutes } from './routes/member-routes.js';
import { organizationRoutes } from './routes/organization-routes.js';
import { previewRoutes } from './routes/preview-routes.js';
import { staticExportRoutes } from './routes/static-export-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';
import { releaseRequestRoutes } from './routes/release-request-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { createCsrf } from '@cp/web-forms';
import { signedCookie } from './security/signed-cookie.js';

export interface AppDeps extends OperabilityDeps<Metrics> {
  readonly config: DashboardConfig;
  readonly domain: DomainDeps;
  /** The grants behind connected applications: the OIDC storage the auth server writes (packages/db). */
  readonly grants: ApplicationGrants;
  /** The usage analytics' rollups (packages/db's createUsageReader). */
  readonly usage: UsageReader;
  /** Sessions per variant for the rollout page (packages/db, as the rollout guard reads them). */
  readonly rolloutFigures: RolloutFigures;
  readonly log: Logger;
  /** Defaults to openid-client against `config.issuer`. */
  readonly signIn?: SignIn;
  /** Defaults to nodemailer over `config.mail` (none when it is null). */
  readonly mailer?: InvitationMailer | null;
}

/** Pure wiring: no listening, no env. */
export function createApp(deps: AppDeps): express.Express {
  const { config } = deps;
  const secure = config.secureCookies;
  const ctx: RouteContext = {
    config,
    domain: deps.domain,
    grants: deps.grants,
    usage: deps.usage,
    rolloutFigures: deps.rolloutFigures,
    signIn: deps.signIn ?? createSignIn(config),
    csrf: createCsrf({ key: config.sessionKeys[0] ?? '', secure, cookieName: 'cp_dash_csrf' }),
    session: signedCookie<{ userId: string }>(secure ? '__Host-cp_dashboard' : 'cp_dashboard', { keys: config.sessionKeys, secure }),
    login: signedCookie<PendingLogin>(secure ? '__Host-cp_dashboard_login' : 'cp_dashboard_login', { keys: config.sessionKeys, secure }),
    log: deps.log,
    webhookUrls: outboundUrlPolicy({ allowLoopback: config.webhooksAllowLoopback }),
  };

  const metrics = deps.metrics ?? createMetrics({ service: 'dashboard' });
  const readiness = createReadiness({
    checks: deps.checks ?? storeChecks({ findById: (id) => deps.domain.repos.users.findById(id), objects: deps.domain.objects }),
    draining: deps.draining ?? (() => false),
    metrics,
  });

  const app = express();
  expressDefaults(app, { trustProxy: config.trustProxy, metrics });
  app.use((_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff' });
    next();
  });
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', server: 'component-dashboard' });
  });
  // Operators' endpoints: keep them off the public proxy (as docker/Caddyfile does for the other services).
  app.get('/ready', (req, res) => readiness.handler(req, res));
  app.get('/metrics', (req, res) => metrics.handler(req, res));
  app.get('/assets/dashboard.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('text/css').send(STYLESHEET);
  });
  app.use(authRoutes(ctx));
  app.use(organizationRoutes(ctx));
  app.use(componentRoutes(ctx));
  app.use(appRoutes(ctx));
  app.use(experienceRoutes(ctx));
  app.use(rolloutRoutes(ctx));
  app.use(usageRoutes(ctx));
  app.use(environmentRoutes(ctx));
  app.use(previewRoutes(ctx));
  app.use(staticExportRoutes(ctx));
  app.use(webhookRoutes(ctx));
  app.use(apiTokenRoutes(ctx));
  app.use(ciPolicyRoutes(ctx));
  app.use(flowRoutes(ctx));
  app.use(releaseRequestRoutes(ctx));
  app.use(applicationRoutes(ctx));
  app.use(auditRoutes(ctx));
  app.use(invitationRoutes(ctx, deps.mailer !== undefined ? deps.mailer : config.mail === null ? null : smtpInvitationMailer(config.mail, deps.log)));
  app.use(joinRoutes(ctx));
  app.use(memberRoutes(ctx));
  app.use((_req, res) => {
    sendPage(res, 404, messagePage({ title: 'Not found', message: 'There is nothing here.', chrome: null, link: { href: '/', label: 'Your components' } }));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The form body parser's refusals (too large, too many fields, bad encoding) are the client's, not ours.
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500 && typeof (error as { type?: unknown }).type === 'string') {
      const message = status === 413 ? 'The form is too large.' : 'The form could not be read.';
      return sendPage(res, status, messagePage({ title: 'That did not work', message, chrome: null, alert: true, link: { href: '/', label: 'Your components' } }));
    }
    if (isUnavailable(error) && !res.headersSent) {
      // An outage, not a bug: the log keeps the endpoint, the page says to retry.
      deps.log.warn({ err: error, method: req.method, path: req.path }, 'request failed: a dependency is unavailable');
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return sendPage(res, 503, messagePage({ title: 'Temporarily unavailable', message: error.message, chrome: null, alert: true }));
    }
    deps.log.error({ err: error, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) return void res.end();
    sendPage(res, 500, messagePage({ title: 'Something went wrong', message: 'The dashboard could not finish this request. Try again in a moment.', chrome: null, alert: true }));
  });
  return app;
}
