import type { Credentials, DomainDeps, OidcStorage } from '@cp/domain';
import express, { type RequestHandler, type Response } from 'express';
import type Provider from 'oidc-provider';
import type { AuthConfig } from '../config.js';
import type { Logger } from '@cp/http-runtime';
import type { BrowserSessions } from '../oidc/browser-session.js';
import { PAGE_SECURITY_HEADERS } from '../pages/layout.js';
import { messagePage } from '../pages/message-pages.js';
import { sendHtmlPage, type Csrf } from '@cp/web-forms';
import type { Throttles } from '../security/throttle.js';
import type { ScryptCost } from '../accounts/passwords.js';

/** What the page routes share. */
export interface PageContext {
  readonly config: AuthConfig;
  readonly provider: Provider;
  readonly sessions: BrowserSessions;
  readonly csrf: Csrf;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly credentials: Credentials;
  readonly throttles: Throttles;
  readonly passwordCost: ScryptCost;
  readonly oidc: OidcStorage;
  readonly log: Logger;
}

export function sendPage(res: Response, status: number, page: string): void {
  sendHtmlPage(res, { status, body: page, headers: PAGE_SECURITY_HEADERS });
}

/** Forms only: small urlencoded bodies. oidc-provider's own endpoints read their bodies themselves. */
export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

/** The answer to a form without its CSRF token (or with a stale one). */
export function refuseForgedForm(res: Response): void {
  sendPage(
    res,
    403,
    messagePage({
      title: 'This form expired',
      message: 'The form was not sent from this site, or it is too old. Go back, reload the page and try again.',
    }),
  );
}

export const retryMessage = (seconds: number): string =>
  `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.`;

export const SIGN_IN_FAILED = 'The email or password is not right. Check both and try again.';
