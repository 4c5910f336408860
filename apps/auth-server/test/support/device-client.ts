import { setTimeout as sleep } from 'node:timers/promises';
import type { FormBrowser, Page } from './form-browser.js';
import { PASSWORD } from './flow.js';
import { tokenRequest } from './oauth-client.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The device authorization response, or its error (JSON, checked by assertions). */
export interface DeviceAuthorizationJson {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
  readonly error?: string;
  readonly error_description?: string;
}

/** A token endpoint answer: tokens, or an error. */
export interface TokenJson {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly scope?: string;
  readonly token_type?: string;
  readonly error?: string;
  readonly error_description?: string;
}

/** The CLI's side of a device login (docs/cli-and-ci.md, "Device login"), by hand. */
export async function deviceAuthorization(issuer: string, params: Record<string, string> = {}): Promise<{ status: number; json: DeviceAuthorizationJson }> {
  const res = await fetch(`${issuer}/device/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'cpc', scope: 'mcp:read mcp:write', device_name: 'cpc on test-laptop', ...params }).toString(),
  });
  return { status: res.status, json: (await res.json()) as DeviceAuthorizationJson };
}

export const poll = async (issuer: string, deviceCode: string, clientId = 'cpc'): Promise<{ status: number; json: TokenJson }> => {
  const { status, json } = await tokenRequest(issuer, { grant_type: DEVICE_CODE_GRANT, client_id: clientId, device_code: deviceCode });
  return { status, json: json as TokenJson };
};

/** Polls as a well-behaved CLI does: waits the interval between polls, and 5 s more after each slow_down. */
export async function pollUntilDecided(issuer: string, deviceCode: string, intervalSeconds: number): Promise<{ status: number; json: TokenJson }> {
  let interval = intervalSeconds;
  for (;;) {
    await sleep(interval * 1000);
    const answer = await poll(issuer, deviceCode);
    if (answer.json.error === 'slow_down') interval += 5;
    else if (answer.json.error !== 'authorization_pending') return answer;
  }
}

/**
 * The person at the browser: opens the code page, types the code, and answers the
 * confirmation; signs in when asked (the sign-in page of the login prompt) and answers
 * the confirmation shown after it. Returns the last page.
 */
export async function confirmDevice(
  browser: FormBrowser,
  issuer: string,
  userCode: string,
  user: { email: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<Page> {
  const entry = await browser.open(`${issuer}/device`);
  let page = await browser.submit(entry, { user_code: userCode }, { action: /\/device$/ });
  page = await browser.submit(page, decision === 'allow' ? { confirm: 'yes' } : { abort: 'yes' }, { action: /\/device$/ });
  if (/\/login"/.test(page.html)) {
    page = await browser.submit(page, { email: user.email, password: PASSWORD }, { action: /\/login$/ });
    page = await browser.submit(page, { decision }, { action: /\/consent$/ });
  }
  return page;
}

/** Signs the browser in on /login, outside any authorization. */
export async function signInFirst(browser: FormBrowser, issuer: string, user: { email: string }): Promise<void> {
  const page = await browser.open(`${issuer}/login`);
  await browser.submit(page, { email: user.email, password: PASSWORD }, { action: /\/login$/ });
}
