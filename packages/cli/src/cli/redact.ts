/**
 * What may be shown of a secret: its first characters, enough to tell two tokens apart
 * (an API token's display prefix is `cpt_` + 8 characters, as the dashboard lists it).
 */
export const secretPrefix = (secret: string): string => `${secret.slice(0, 12)}…`;

// JWTs (access and CI tokens) and API tokens, wherever they would appear in a message from elsewhere.
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const API_TOKEN = /cpt_[A-Za-z0-9_-]{9,}/g;

/**
 * Every line the CLI writes passes through this: the secrets it handled (access, refresh, device and
 * CI tokens) and anything shaped like one become their prefixes, so no output carries a token even
 * when a server echoes one back in an error.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  remember(secret: string | undefined | null): void {
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(secretPrefix(secret));
    return out.replace(JWT, (token) => secretPrefix(token)).replace(API_TOKEN, (token) => secretPrefix(token));
  }
}
