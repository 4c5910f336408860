/**
 * A CI token (or the credential behind any subject token) that is refused: `claim` names the first claim
 * (or header parameter) that failed, and `description` says how, starting with that name. The token
 * endpoint answers it as `invalid_grant` with the description.
 */
export class ExchangeRefusal extends Error {
  override readonly name = 'ExchangeRefusal';
  constructor(
    readonly claim: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** A CI issuer's discovery document or keys could not be had: the exchange answers 503, as the server's other outages. */
export class CiIssuerUnavailable extends Error {
  override readonly name = 'CiIssuerUnavailable';
  constructor(
    readonly issuer: string,
    readonly reason: string,
  ) {
    super(`CI issuer ${issuer} is unavailable: ${reason}`);
  }
}

const MAX_SHOWN = 80;

/**
 * A value taken from a token, fit for an OAuth error_description (RFC 6749 §5.2 allows printable ASCII but
 * `"` and `\`): other characters become `?`, long values are cut, and it is shown between single quotes.
 */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const safe = text.replace(/[^\x20-\x7e]|["\\]/g, '?');
  return `'${safe.length > MAX_SHOWN ? `${safe.slice(0, MAX_SHOWN)}...` : safe}'`;
}
