import { CliError, ExitCode, networkError } from '../cli/errors.js';

export interface JsonAnswer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A form POST (the OAuth endpoints); a connection failure is the network exit code. */
export async function postForm(fetchFn: typeof fetch, url: string, params: Record<string, string | undefined>, what: string): Promise<JsonAnswer> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) body.set(name, value);
  let response: Response;
  try {
    response = await fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body });
  } catch (error) {
    throw networkError(what, error);
  }
  return { status: response.status, json: await readJson(response) };
}

export async function getJson(fetchFn: typeof fetch, url: string, what: string, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json', ...headers } });
  } catch (error) {
    throw networkError(what, error);
  }
  return { status: response.status, json: await readJson(response) };
}

export const stringField = (json: Record<string, unknown>, field: string): string | undefined =>
  typeof json[field] === 'string' ? json[field] : undefined;

/** An OAuth error answer (`error`, `error_description`) as one sentence. */
export const oauthErrorText = (answer: JsonAnswer): string => {
  const error = stringField(answer.json, 'error') ?? `HTTP ${answer.status}`;
  const description = stringField(answer.json, 'error_description');
  return description ? `${error}: ${description}` : error;
};

/** An answer the flow has no use for; 503 (a dependency of the server down, e.g. a CI issuer) counts as the network's. */
export const serverFailure = (what: string, answer: JsonAnswer): CliError =>
  answer.status === 503
    ? new CliError('SERVICE_UNAVAILABLE', `${what} answered ${oauthErrorText(answer)}; try again shortly.`, ExitCode.Network)
    : new CliError(answer.status >= 500 ? 'SERVER_ERROR' : 'UNEXPECTED_ANSWER', `${what} answered ${oauthErrorText(answer)}.`, ExitCode.Failure);
