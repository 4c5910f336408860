import { findUser, type DomainDeps } from '@cp/domain';
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { DeviceFlowConfig } from '../config.js';
import { codeEntryPage, deviceConfirmPage, deviceDonePage, deviceEndingPage } from '../pages/device-pages.js';
import { PAGE_SECURITY_HEADERS } from '../pages/layout.js';
import { html } from '@cp/web-forms';

type DeviceFlowFeature = NonNullable<NonNullable<Configuration['features']>['deviceFlow']>;

/** The longest `device_name` accepted (the CLI sends `cpc on <hostname>`, cut to this). */
export const DEVICE_NAME_MAX_LENGTH = 64;

/** The code entry page (oidc-provider's `code_verification` route; the contract's `verification_uri`). */
export const CODE_ENTRY_PATH = '/device';
/** Where the CLI starts a device login (RFC 8628 device authorization endpoint). */
export const DEVICE_AUTHORIZATION_PATH = '/device/auth';

/** The device's name as the CLI sent it (`device_name`), trimmed; null when absent or blank. */
export function deviceName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The `device_name` parameter's check (extraParams): printable text of at most 64 characters once trimmed. */
export function checkDeviceName(_ctx: KoaContextWithOIDC, value: string | undefined): void {
  const name = deviceName(value);
  if (name === null) return;
  if (/\p{Cc}/u.test(name)) throw new errors.InvalidRequest('device_name must be printable text, without control characters or line breaks');
  const length = [...name].length;
  if (length > DEVICE_NAME_MAX_LENGTH) {
    throw new errors.InvalidRequest(`device_name must be at most ${DEVICE_NAME_MAX_LENGTH} characters once trimmed (got ${length})`);
  }
}

/**
 * RFC 6749 section 3.3 at the device authorization endpoint, as `defaultScope` does at
 * /authorize: no `scope` (or a blank one) asks for the scopes the client registered
 * (cpc: both MCP scopes). Registered as the `scope` entry of extraParams, the only hook
 * oidc-provider runs on a device authorization's parameters; the default is the client's
 * own scope, so nothing needs checking again.
 */
export function defaultDeviceScope(ctx: KoaContextWithOIDC, value: string | undefined): void {
  if (ctx.oidc.route !== 'device_authorization' || (value ?? '').trim() !== '') return;
  const registered = ctx.oidc.client?.scope;
  if (registered !== undefined && ctx.oidc.params !== undefined) ctx.oidc.params.scope = registered;
}

/** A user code from a link (`verification_uri_complete`), reduced to what a code can hold. */
const prefilledCode = (value: unknown): string => (typeof value === 'string' ? value.replace(/[^A-Za-z-]/g, '').slice(0, 16).toUpperCase() : '');

export interface DeviceFlowDeps {
  readonly domain: Pick<DomainDeps, 'repos'>;
}

/**
 * oidc-provider's device flow (RFC 8628) with our pages. `deviceInfo` keeps the device's
 * name only: no address, no user agent. oidc-provider protects these forms itself (its
 * `xsrf` field, checked against the browser session), so the pages carry its token.
 */
export function deviceFlowFeature(deps: DeviceFlowDeps): DeviceFlowFeature {
  const send = (ctx: KoaContextWithOIDC, page: string): void => {
    for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(name, value);
    ctx.type = 'html';
    ctx.body = page;
  };
  const xsrf = (ctx: KoaContextWithOIDC): string => {
    const secret = (ctx.oidc.session?.state as { secret?: unknown } | undefined)?.secret;
    return typeof secret === 'string' ? secret : '';
  };
  const signedInEmail = async (ctx: KoaContextWithOIDC): Promise<string | null> => {
    const accountId = ctx.oidc.session?.accountId;
    return accountId === undefined ? null : ((await findUser({ userId: accountId }, deps.domain))?.email ?? null);
  };
  const nameOf = (info: unknown): string | null => deviceName((info as { name?: unknown } | undefined)?.name);

  return {
    enabled: true,
    // Consonants only, two groups of four (docs/cli-and-ci.md): 20^8 codes, nothing to misread.
    charset: 'base-20',
    mask: '****-****',
    deviceInfo: (ctx) => ({ name: deviceName(ctx.oidc.params?.device_name) }),

    async userCodeInputSource(ctx, _form, out, err) {
      const entry = (error: string | null, userCode: string) =>
        send(ctx, codeEntryPage({ action: CODE_ENTRY_PATH, hidden: html`<input type="hidden" name="xsrf" value="${xsrf(ctx)}">`, userCode, error }));
      const typed = prefilledCode((err as { userCode?: unknown } | undefined)?.userCode);
      switch (err?.name) {
        case undefined:
          return entry(null, prefilledCode(ctx.state.userCode));
        case 'NoCodeError':
          return entry('Enter the code shown in your terminal.', '');
        case 'NotFoundError':
          return entry('That code is not right. Check it against the code in your terminal and try again.', typed);
        case 'ExpiredError':
          return send(ctx, deviceEndingPage('expired'));
        case 'AlreadyUsedError':
          return send(ctx, deviceEndingPage('used'));
        case 'AbortedError':
          return send(ctx, deviceEndingPage('denied'));
        default:
          // oidc-provider's own refusals (a stale form: "xsrf token invalid"), never a server error page.
          return entry(`This form expired or could not be checked (${out?.error ?? 'error'}). Enter the code again.`, typed);
      }
    },

    async userCodeConfirmSource(ctx, _form, client, deviceInfo, userCode) {
      const scope = (ctx.oidc.entities.DeviceCode?.params as { scope?: unknown } | undefined)?.scope;
      send(
        ctx,
        deviceConfirmPage({
          action: CODE_ENTRY_PATH,
          hidden: html`<input type="hidden" name="xsrf" value="${xsrf(ctx)}">
<input type="hidden" name="user_code" value="${userCode}">`,
          clientName: client.clientName ?? client.clientId,
          deviceName: nameOf(deviceInfo),
          userCode,
          accountEmail: await signedInEmail(ctx),
          scopes: (typeof scope === 'string' ? scope : '').split(' ').filter((name) => name !== ''),
          allow: { name: 'confirm', value: 'yes' },
          deny: { name: 'abort', value: 'yes' },
        }),
      );
    },

    async successSource(ctx) {
      const client = ctx.oidc.client;
      send(
        ctx,
        deviceDonePage({
          clientName: client?.clientName ?? client?.clientId ?? 'the application',
          deviceName: nameOf(ctx.oidc.entities.DeviceCode?.deviceInfo),
          accountEmail: await signedInEmail(ctx),
        }),
      );
    },
  };
}

/**
 * Around oidc-provider's device endpoints:
 * - the device authorization response gets `interval` (RFC 8628 section 3.2), which
 *   oidc-provider leaves out; the token endpoint holds clients to it (slow_down);
 * - a code in the link (`verification_uri_complete`) fills the code entry page, which
 *   the person still sends themselves, instead of oidc-provider's scripted auto-submit.
 */
export function deviceEndpoints(config: DeviceFlowConfig) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method === 'GET' && ctx.path === CODE_ENTRY_PATH && ctx.query.user_code !== undefined) {
      const { user_code: userCode, ...rest } = ctx.query;
      ctx.state.userCode = Array.isArray(userCode) ? userCode[0] : userCode;
      ctx.query = rest;
    }
    await next();
    if (ctx.method === 'POST' && ctx.path === DEVICE_AUTHORIZATION_PATH && ctx.status === 200) {
      const body = ctx.body as Record<string, unknown> | undefined;
      if (typeof body?.device_code === 'string') ctx.body = { ...body, interval: config.intervalSeconds };
    }
  };
}
