import { interactionPolicy } from 'oidc-provider';

/**
 * oidc-provider's policy, except that its "native clients are always asked" check
 * does not apply to the first-party dashboard (a loopback dashboard URL makes it
 * `native` under client-policy.ts). Its scopes are still checked: the dashboard
 * gets its `openid` grant from `loadExistingGrant`, nothing more.
 */
export function interactionPolicyFor(isFirstParty: (clientId: string | undefined) => boolean) {
  const policy = interactionPolicy.base();
  const checks = policy.get('consent')?.checks;
  const native = checks?.get('native_client_prompt');
  if (checks && native) {
    checks.splice(
      checks.indexOf(native),
      1,
      new interactionPolicy.Check(native.reason, native.description, native.error ?? 'interaction_required', (ctx) =>
        isFirstParty(ctx.oidc.client?.clientId) ? interactionPolicy.Check.NO_NEED_TO_PROMPT : native.check(ctx),
      ),
    );
  }
  return policy;
}
