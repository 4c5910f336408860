import { CliError, ExitCode } from '../cli/errors.js';
import type { Redactor } from '../cli/redact.js';
import { CPC_CLIENT_ID, type AccessToken } from './access-token.js';
import type { AuthServer } from './discovery.js';
import { oauthErrorText, postForm, serverFailure, stringField } from './http.js';

export const SubjectTokenType = {
  IdToken: 'urn:ietf:params:oauth:token-type:id_token',
  ApiToken: 'urn:component-platform:token-type:api-token',
} as const;

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** RFC 8693 at the token endpoint (docs/cli-and-ci.md, "The exchange"): a CI OIDC token or an API token for a short-lived access token. */
export async function exchangeToken(
  input: {
    readonly authServer: AuthServer;
    readonly resource: string;
    readonly subjectToken: string;
    readonly subjectTokenType: (typeof SubjectTokenType)[keyof typeof SubjectTokenType];
    readonly organization: string | undefined;
    readonly source: AccessToken['source'];
  },
  deps: { fetch: typeof fetch; now: () => number; redactor: Redactor },
): Promise<AccessToken> {
  const answer = await postForm(
    deps.fetch,
    input.authServer.tokenEndpoint,
    {
      client_id: CPC_CLIENT_ID,
      grant_type: TOKEN_EXCHANGE,
      subject_token: input.subjectToken,
      subject_token_type: input.subjectTokenType,
      resource: input.resource,
      organization: input.organization,
    },
    'the auth server',
  );
  if (answer.status === 400 || answer.status === 401) {
    const what = input.subjectTokenType === SubjectTokenType.ApiToken ? 'The API token' : 'The CI token';
    throw new CliError('EXCHANGE_REFUSED', `${what} was refused: ${oauthErrorText(answer)}.`, ExitCode.Auth);
  }
  const token = stringField(answer.json, 'access_token');
  if (answer.status !== 200 || token === undefined) throw serverFailure('The token exchange', answer);
  deps.redactor.remember(token);
  const expiresIn = typeof answer.json.expires_in === 'number' ? answer.json.expires_in : 900;
  return { token, source: input.source, expiresAt: deps.now() + expiresIn * 1000 };
}
