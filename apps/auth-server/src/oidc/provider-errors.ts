import { isUnavailable, RETRY_AFTER_SECONDS } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { isUrlClientId } from '../cimd/client-id-url.js';
import { PAGE_SECURITY_HEADERS } from '../pages/layout.js';
import { messagePage } from '../pages/message-pages.js';

const databaseUnavailable = isUnavailable;

/** For a client metadata document, where its redirect URIs come from (oidc-provider's message speaks of registration). */
const documentRedirectHint = (clientId: unknown, error: string): string | undefined =>
  error === 'invalid_redirect_uri' && typeof clientId === 'string' && isUrlClientId(clientId)
    ? `redirect_uri is not one of the redirect_uris listed in the client metadata document at ${clientId}; list it there, or use one that is listed`
    : undefined;

/** The page a browser sees when oidc-provider refuses or fails a request. */
export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out, error) => {
  ctx.type = 'html';
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(name, value);
  if (databaseUnavailable(error)) {
    ctx.body = messagePage({ title: 'Temporarily unavailable', message: error.message });
    return;
  }
  ctx.body = messagePage({
    title: 'This sign-in request cannot continue',
    message: `${documentRedirectHint(ctx.oidc?.params?.client_id, out.error) ?? out.error_description ?? out.error}. Start again from the application you were connecting (${out.error}).`,
  });
};

/**
 * oidc-provider answers its routes' failures itself (500, server_error): a database
 * that is down is marked here and answered 503 with OAuth's temporarily_unavailable;
 * every other server error is logged as one.
 */
export function answerOutages(provider: Provider, log: Logger): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.state.databaseUnavailable !== true) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    if (!ctx.response.is('html')) ctx.body = { error: 'temporarily_unavailable', error_description: 'The database is unavailable; retry in a few seconds.' };
  });
  provider.on('server_error', (ctx: { state: Record<string, unknown> }, error: Error) => {
    if (databaseUnavailable(error)) {
      ctx.state.databaseUnavailable = true;
      log.warn({ err: error }, 'oidc-provider: database unavailable');
      return;
    }
    log.error({ err: error }, 'oidc-provider server error');
  });
}
