import { CiProvider } from '@cp/domain';
import { z } from 'zod';

/** A CI system whose OIDC tokens may be exchanged: its `iss`, exactly as its tokens write it, and which provider's claims it carries. */
export interface CiIssuer {
  readonly issuer: string;
  readonly provider: CiProvider;
}

/**
 * The issuers trusted in production (docs/cli-and-ci.md "Checks, in order"). Fixed in code, never read from
 * settings or from a token: adding one is a reviewed change, and test/ci-issuers.test.ts asserts the list.
 */
export const PRODUCTION_CI_ISSUERS: readonly CiIssuer[] = Object.freeze([
  Object.freeze({ issuer: 'https://token.actions.githubusercontent.com', provider: CiProvider.GitHub }),
  Object.freeze({ issuer: 'https://gitlab.com', provider: CiProvider.GitLab }),
]);

/** The registry a server trusts: production's, plus (development only, env.ts) `AUTH_CI_DEV_ISSUERS`. */
export const ciIssuerRegistry = (developmentIssuers: readonly CiIssuer[]): readonly CiIssuer[] =>
  Object.freeze([...PRODUCTION_CI_ISSUERS, ...developmentIssuers.map((entry) => Object.freeze({ ...entry }))]);

/** The registry's entry for exactly this `iss` (no normalization: a trailing slash is another issuer). */
export const findCiIssuer = (registry: readonly CiIssuer[], iss: string): CiIssuer | undefined =>
  registry.find((entry) => entry.issuer === iss);

const issuerUrl = z.string().refine(
  (value) => {
    const url = URL.parse(value);
    return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '' && url.username === '';
  },
  { error: 'issuer must be an http(s) URL without query, fragment or user name' },
);

const developmentIssuer = z.object({ issuer: issuerUrl, provider: z.enum([CiProvider.GitHub, CiProvider.GitLab]) }).strict();

/**
 * `AUTH_CI_DEV_ISSUERS`: a JSON list of `{ "issuer", "provider" }`. A production issuer may not be listed
 * again (it would change nothing but could be mistaken for a way to re-point it).
 */
export const developmentIssuersSetting = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON: [{ "issuer": "http://127.0.0.1:4600", "provider": "github" }]' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(developmentIssuer, { error: 'must be a JSON list of { "issuer", "provider": "github" | "gitlab" }' })
      .refine((list) => list.every((entry) => findCiIssuer(PRODUCTION_CI_ISSUERS, entry.issuer) === undefined), {
        error: 'lists a production issuer, which is always trusted',
      })
      .refine((list) => new Set(list.map((entry) => entry.issuer)).size === list.length, { error: 'lists an issuer twice' }),
  );
