import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';

export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The authorization request waiting in this browser (oidc-provider's interaction
 * cookie), when it is the one the page names (`uid`) and, if given, at that prompt;
 * null when it expired, was finished, or is another attempt's, so a page left open
 * from an earlier attempt cannot finish the current one.
 */
export async function findWaitingInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  expected: { uid: string; prompt?: 'login' | 'consent' },
): Promise<Interaction | null> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch (error) {
    if (error instanceof errors.SessionNotFound) return null;
    throw error;
  }
  if (interaction.uid !== expected.uid) return null;
  return expected.prompt === undefined || interaction.prompt.name === expected.prompt ? interaction : null;
}

/** Ends the interaction's sign-in step with this account (signed in by password): oidc-provider resumes the authorization. */
export async function finishSignIn(provider: Provider, req: IncomingMessage, res: ServerResponse, accountId: string): Promise<void> {
  await provider.interactionFinished(req, res, { login: { accountId, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
}
