/**
 * A minimal browser over fetch: a cookie jar, redirects followed by hand (so a
 * test sees where each one goes), and HTML forms read and submitted as a browser
 * would submit them. No JavaScript, like the pages themselves.
 */
export interface Page {
  readonly status: number;
  readonly url: string;
  readonly html: string;
  readonly headers: Headers;
}

/**
 * fetch, and once more when a GET's reused keep-alive connection was reset before any answer, as
 * browsers do: the server may close an idle connection just as the request goes out on it (a test
 * that seeds for seconds on a loaded machine leaves the connection idle that long).
 */
async function fetchRetryingReset(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as { cause?: { code?: unknown } }).cause ?? {}).code;
    if (init.method !== 'GET' || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw error;
    return fetch(url, init);
  }
}

export class FormBrowser {
  private readonly jar = new Map<string, string>();

  /** Every Set-Cookie line received, in order. */
  readonly setCookies: string[] = [];

  /**
   * `headers` go with every request (e.g. X-Forwarded-For, for an app that trusts a proxy).
   * `tlsProxy`: stands in for a TLS-terminating proxy (no TLS here): an `https:` URL is
   * fetched over `http:` on the same host and port with `X-Forwarded-Proto: https`.
   */
  constructor(
    private readonly options: { headers?: Record<string, string>; tlsProxy?: boolean } = {},
  ) {}

  /** Follows redirects on the server's origin; stops at the first one that leaves it (the client's redirect URI). */
  async open(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Page> {
    let current = url;
    let method = init.method ?? 'GET';
    let body: string | undefined = init.form === undefined ? undefined : new URLSearchParams(init.form).toString();
    for (let hops = 0; hops < 20; hops += 1) {
      const viaProxy = this.options.tlsProxy === true && current.startsWith('https:');
      const res = await fetchRetryingReset(viaProxy ? current.replace(/^https:/, 'http:') : current, {
        method,
        redirect: 'manual',
        headers: {
          ...this.options.headers,
          ...(viaProxy ? { 'x-forwarded-proto': 'https' } : {}),
          ...(this.cookieHeader() ? { cookie: this.cookieHeader() } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        body,
      });
      this.store(res.headers.getSetCookie());
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        const next = new URL(location, current);
        if (next.origin !== new URL(url).origin) {
          return { status: res.status, url: next.href, html: await res.text(), headers: res.headers };
        }
        current = next.href;
        method = 'GET';
        body = undefined;
        continue;
      }
      return { status: res.status, url: current, html: await res.text(), headers: res.headers };
    }
    throw new Error('too many redirects');
  }

  /** Submits the page's form whose action matches, with its hidden fields plus `fields`. */
  async submit(page: Page, fields: Record<string, string>, options: { action?: RegExp; omit?: string[] } = {}): Promise<Page> {
    const forms = [...page.html.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
    const form = forms.find(([, action]) => options.action === undefined || options.action.test(decode(action ?? '')));
    if (form === undefined) throw new Error(`no form${options.action ? ` matching ${options.action}` : ''} on ${page.url}:\n${page.html}`);
    const hidden: Record<string, string> = {};
    for (const [, name, value] of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      if (name !== undefined && !(options.omit ?? []).includes(name)) hidden[name] = decode(value ?? '');
    }
    return this.open(new URL(decode(form[1] ?? ''), page.url).href, { method: 'POST', form: { ...hidden, ...fields } });
  }

  cookieNames(): string[] {
    return [...this.jar.keys()];
  }

  /** The Cookie header this browser sends (every cookie it holds). */
  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private store(setCookies: string[]): void {
    this.setCookies.push(...setCookies);
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
}

const decode = (text: string): string =>
  text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
