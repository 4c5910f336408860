import { createApiToken, listApiTokens, notFound, revokeApiToken, type MemberOrganization } from '@cp/domain';
import { Router } from 'express';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { mountActions } from '../kit/mount-actions.js';
import { apiTokensPage, EMPTY_TOKEN_FORM, type ApiTokensPageContent } from '../pages/api-tokens/api-tokens-page.js';
import { revokeTokenPage } from '../pages/api-tokens/revoke-token-page.js';
import type { RouteContext, Visitor } from './context.js';
import { credentialChoices } from './credential-choices.js';
import { credentialFormBody, EMPTY_SCOPE, expiryOf, scopeOf, tokenFormInput } from './credential-form.js';
import { refusable, refusalStatus } from './form-refusal.js';

const base = (orgId: string) => `/orgs/${orgId}/api-tokens`;

type Extra = Pick<ApiTokensPageContent, 'notice' | 'created' | 'refused'> & { form?: ApiTokensPageContent['form'] };

/** The page: the tokens the visitor may see (the use case decides which), and the form. */
async function tokensView(ctx: RouteContext, visitor: Visitor, organization: MemberOrganization, extra: Extra): Promise<string> {
  const request = { actor: visitor.actor, organizationId: organization.id };
  const [tokens, choices] = await Promise.all([listApiTokens(request, ctx.domain), credentialChoices(visitor.actor, organization.id, ctx)]);
  return apiTokensPage({
    organization,
    chrome: visitor.chrome(organization.id),
    tokens,
    people: choices.people,
    environments: choices.environments,
    components: choices.components,
    moreComponents: choices.moreComponents,
    now: ctx.domain.clock.now(),
    ...extra,
    form: extra.form ?? { ...EMPTY_TOKEN_FORM, ...EMPTY_SCOPE },
  });
}

/** One of the tokens the visitor may see; any other id is "not found", like an unknown one. */
async function visibleToken(ctx: RouteContext, visitor: Visitor, organization: MemberOrganization, tokenId: string) {
  const tokens = await listApiTokens({ actor: visitor.actor, organizationId: organization.id }, ctx.domain);
  const token = tokens.find((t) => t.id === tokenId);
  if (token === undefined) throw notFound('API token', tokenId);
  return token;
}

const tokenActions = [
  // Answered with the page itself, not a redirect: the secret must not travel in a URL.
  defineAction({
    path: '/orgs/:orgId/api-tokens',
    input: tokenFormInput,
    run: ({ actor, organization, input }, ctx) =>
      refusable(() =>
        createApiToken(
          { actor, organizationId: organization.id, name: input.name, expiresInDays: expiryOf(input), scope: scopeOf(input) },
          ctx.domain,
        ),
      ),
    done: async (result, { visitor, organization, input }, ctx) =>
      'done' in result
        ? {
            status: 200,
            page: await tokensView(ctx, visitor, organization, { notice: null, created: { name: result.done.token.name, secret: result.done.secret } }),
          }
        : {
            status: refusalStatus(result.refused),
            page: await tokensView(ctx, visitor, organization, { notice: null, refused: result.refused.message, form: input }),
          },
  }),
  defineAction({
    path: '/orgs/:orgId/api-tokens/:tokenId/revoke',
    run: ({ actor, organization, params }, ctx) => revokeApiToken({ actor, organizationId: organization.id, tokenId: params.tokenId }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'api-token-revoked' }),
  }),
];

const tokenPages = [
  definePage({
    path: '/orgs/:orgId/api-tokens',
    view: ({ visitor, organization, notice }, ctx) => tokensView(ctx, visitor, organization, { notice }),
  }),
  definePage({
    path: '/orgs/:orgId/api-tokens/:tokenId/revoke',
    view: async ({ visitor, organization, params, notice }, ctx) => {
      const [token, choices] = await Promise.all([
        visibleToken(ctx, visitor, organization, params.tokenId),
        credentialChoices(visitor.actor, organization.id, ctx),
      ]);
      return revokeTokenPage({ organization, chrome: visitor.chrome(organization.id), notice, token, componentNames: choices.componentNames });
    },
  }),
];

/** API tokens: list (members their own, owners and admins all), create (the secret shown once), revoke after a confirmation. */
export function apiTokenRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, tokenPages), ctx, tokenActions, credentialFormBody);
}
