import type Provider from 'oidc-provider';
import type { Interaction } from './waiting-interaction.js';

/**
 * Grants exactly what the request asked for and was missing (oidc-provider lists
 * it in the prompt details), on the existing grant when there is one.
 */
export async function saveConsent(provider: Provider, interaction: Interaction): Promise<string> {
  const { Grant } = provider;
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const existing = interaction.grantId === undefined ? undefined : await Grant.find(interaction.grantId);
  const grant = existing ?? new Grant({ accountId: interaction.session?.accountId, clientId: String(interaction.params.client_id) });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}
