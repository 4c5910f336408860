import { FormBrowser, type Page } from '../../../auth-server/test/support/form-browser.js';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';
import { signedCookie } from '../../src/security/signed-cookie.js';

export { FormBrowser, type Page };

/**
 * Opens `path` on the dashboard signed out, follows it to the auth server, signs
 * in there, and follows the callback back: the page the browser ends on.
 */
export async function signInThrough(browser: FormBrowser, dashboardUrl: string, path: string, user: { email: string }): Promise<{ toAuthServer: Page; page: Page }> {
  const toAuthServer = await browser.open(`${dashboardUrl}${path}`);
  const login = await browser.open(toAuthServer.url);
  const back = await browser.submit(login, { email: user.email, password: PASSWORD }, { action: /\/login$/ });
  if (!back.url.startsWith(`${dashboardUrl}/auth/callback?`)) throw new Error(`sign-in ended at ${back.url}: ${back.html.slice(0, 1000)}`);
  return { toAuthServer, page: await browser.open(back.url) };
}

/** A browser signed in on `path`, with the page it landed on and form POSTs carrying that page's CSRF token. */
export interface SignedInBrowser {
  readonly browser: FormBrowser;
  readonly page: Page;
  post(path: string, form: Record<string, string>): Promise<Page>;
  get(path: string): Promise<Page>;
}

export async function signedInBrowser(dashboardUrl: string, path: string, user: { email: string }): Promise<SignedInBrowser> {
  const browser = new FormBrowser();
  const { page } = await signInThrough(browser, dashboardUrl, path, user);
  const csrf = csrfOf(page);
  return {
    browser,
    page,
    post: (to, form) => browser.open(`${dashboardUrl}${to}`, { method: 'POST', form: { csrf_token: csrf, ...form } }),
    get: (to) => browser.open(`${dashboardUrl}${to}`),
  };
}

/** A session cookie exactly as the dashboard writes one (cookie name and value), signed with `key`. */
export function sessionCookie(userId: string, key: string, maxAgeSeconds = 3600): string {
  let written = '';
  const res = { cookie: (name: string, value: string) => void (written = `${name}=${value}`) };
  signedCookie<{ userId: string }>('cp_dashboard', { keys: [key], secure: false }).write(res as never, { userId }, maxAgeSeconds);
  return written;
}

/** The first CSRF token of a page's forms. */
export const csrfOf = (page: Page): string => {
  const token = /name="csrf_token" value="([^"]+)"/.exec(page.html)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on ${page.url}`);
  return token;
};

/** The text of the page's <h1> and its alert or first paragraph: what a person reads. */
export const headline = (page: Page): { title: string; message: string } => ({
  title: /<h1>([\s\S]*?)<\/h1>/.exec(page.html)?.[1] ?? '',
  message: decode(/<p class="error" role="alert">([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? /<\/h1>\s*<p>([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? ''),
});

const decode = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
