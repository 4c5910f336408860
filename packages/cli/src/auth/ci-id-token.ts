import { CliError, ExitCode } from '../cli/errors.js';
import type { Redactor } from '../cli/redact.js';
import { getJson, stringField } from './http.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface CiIdToken {
  readonly token: string;
  readonly source: 'github-actions' | 'gitlab-ci';
}

/** GitHub Actions with `permissions: id-token: write`: its token service can mint an OIDC token. */
export const inGitHubActionsWithIdToken = (env: Env): boolean =>
  env.GITHUB_ACTIONS === 'true' && Boolean(env.ACTIONS_ID_TOKEN_REQUEST_URL) && Boolean(env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);

/**
 * The CI's own OIDC token for `audience` (the auth server's issuer): asked of GitHub's token service, or
 * GitLab's `id_tokens` variable CPC_ID_TOKEN. Null outside such a CI.
 */
export async function ciIdToken(env: Env, audience: string, deps: { fetch: typeof fetch; redactor: Redactor }): Promise<CiIdToken | null> {
  if (inGitHubActionsWithIdToken(env)) {
    const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN!;
    deps.redactor.remember(requestToken);
    const url = `${env.ACTIONS_ID_TOKEN_REQUEST_URL}&audience=${encodeURIComponent(audience)}`;
    const answer = await getJson(deps.fetch, url, "GitHub Actions' token service", { authorization: `bearer ${requestToken}` });
    const token = stringField(answer.json, 'value');
    if (answer.status !== 200 || token === undefined) {
      throw new CliError(
        'CI_TOKEN_UNAVAILABLE',
        `GitHub Actions gave no OIDC token (HTTP ${answer.status}). The job needs "permissions: id-token: write".`,
        ExitCode.Auth,
      );
    }
    deps.redactor.remember(token);
    return { token, source: 'github-actions' };
  }
  if (env.CPC_ID_TOKEN) {
    deps.redactor.remember(env.CPC_ID_TOKEN);
    return { token: env.CPC_ID_TOKEN, source: 'gitlab-ci' };
  }
  return null;
}
