import { CliError, ExitCode } from '../cli/errors.js';
import type { Redactor } from '../cli/redact.js';
import { CPC_CLIENT_ID, SCOPES } from './access-token.js';
import type { SavedLogin } from './credentials-file.js';
import type { AuthServer } from './discovery.js';
import { oauthErrorText, postForm, serverFailure, stringField } from './http.js';
import { loginFromTokenAnswer } from './token-answer.js';

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
// RFC 8628's defaults: poll every 5 s, and 5 s more on each slow_down.
const DEFAULT_INTERVAL_S = 5;
const SLOW_DOWN_S = 5;

export interface DeviceCode {
  readonly verificationUri: string;
  readonly verificationUriComplete: string | undefined;
  readonly userCode: string;
  readonly expiresIn: number;
}

export interface DeviceLoginDeps {
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly redactor: Redactor;
  /** The code to show the person (and the page to open), before polling starts. */
  readonly showCode: (code: DeviceCode) => void;
  readonly onSlowDown: (intervalSeconds: number) => void;
}

/** RFC 8628 for the `cpc` client (docs/cli-and-ci.md, "Device login"): the code, then polling until the person decides. */
export async function deviceLogin(input: { authServer: AuthServer; server: string; deviceName: string }, deps: DeviceLoginDeps): Promise<SavedLogin> {
  const { authServer } = input;
  const started = await postForm(
    deps.fetch,
    authServer.deviceAuthorizationEndpoint,
    { client_id: CPC_CLIENT_ID, scope: SCOPES, resource: input.server, device_name: input.deviceName },
    'the auth server',
  );
  const deviceCode = stringField(started.json, 'device_code');
  const userCode = stringField(started.json, 'user_code');
  const verificationUri = stringField(started.json, 'verification_uri');
  if (started.status !== 200 || !deviceCode || !userCode || !verificationUri) {
    if (started.status === 400 || started.status === 401) {
      throw new CliError('LOGIN_REFUSED', `The auth server refused the device login: ${oauthErrorText(started)}.`, ExitCode.Auth);
    }
    throw serverFailure('Starting the device login', started);
  }
  deps.redactor.remember(deviceCode);
  const expiresIn = typeof started.json.expires_in === 'number' ? started.json.expires_in : 600;
  deps.showCode({ verificationUri, verificationUriComplete: stringField(started.json, 'verification_uri_complete'), userCode, expiresIn });
  let interval = typeof started.json.interval === 'number' && started.json.interval > 0 ? started.json.interval : DEFAULT_INTERVAL_S;
  const deadline = deps.now() + expiresIn * 1000;
  for (;;) {
    await deps.sleep(interval * 1000);
    const answer = await postForm(deps.fetch, authServer.tokenEndpoint, { grant_type: DEVICE_CODE, device_code: deviceCode, client_id: CPC_CLIENT_ID }, 'the auth server');
    const login = loginFromTokenAnswer(answer, { server: input.server, issuer: authServer.issuer, clientId: CPC_CLIENT_ID }, deps);
    if (login !== null) return login;
    const error = stringField(answer.json, 'error');
    if (error === 'authorization_pending') {
      if (deps.now() > deadline) throw expired();
      continue;
    }
    if (error === 'slow_down') {
      interval += SLOW_DOWN_S;
      deps.onSlowDown(interval);
      continue;
    }
    if (error === 'access_denied') throw new CliError('LOGIN_DENIED', 'The sign-in request was denied in the browser. Run cpc login to try again.', ExitCode.Auth);
    if (error === 'expired_token') throw expired();
    if (answer.status === 400 || answer.status === 401) throw new CliError('LOGIN_REFUSED', `The auth server refused the device login: ${oauthErrorText(answer)}.`, ExitCode.Auth);
    throw serverFailure('Polling the device login', answer);
  }
}

const expired = (): CliError => new CliError('LOGIN_EXPIRED', 'The code expired before it was confirmed. Run cpc login again.', ExitCode.Auth);
