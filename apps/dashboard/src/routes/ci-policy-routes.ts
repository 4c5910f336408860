import { can, CiProvider, createCiPolicy, deleteCiPolicy, invalidInput, listCiPolicies, notFound, Permission, type MemberOrganization } from '@cp/domain';
import { Router } from 'express';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { mountActions } from '../kit/mount-actions.js';
import { ciPoliciesPage, type CiPoliciesPageContent } from '../pages/ci-policies/ci-policies-page.js';
import { deletePolicyPage } from '../pages/ci-policies/delete-policy-page.js';
import type { RouteContext, Visitor } from './context.js';
import { credentialChoices } from './credential-choices.js';
import { credentialFormBody, EMPTY_SCOPE, policyFormInput, refPatternsOf, scopeOf, type PolicyForm } from './credential-form.js';
import { refusable, refusalStatus } from './form-refusal.js';

const base = (orgId: string) => `/orgs/${orgId}/settings/ci-policies`;

type Extra = Pick<CiPoliciesPageContent, 'notice' | 'refused'> & { provider: CiProvider; form?: PolicyForm };

const emptyForm = (provider: CiProvider): PolicyForm => ({
  ...EMPTY_SCOPE,
  name: '',
  provider,
  ownerId: '',
  repositoryId: '',
  repositoryName: '',
  workflow: provider === CiProvider.GitLab ? '.gitlab-ci.yml' : '.github/workflows/release.yml',
  environment: '',
  refPatterns: '',
  requireHostedRunner: false,
});

/** `?provider=`: the snippet and the form's provider; absent: GitHub Actions. */
function providerQuery(value: string): CiProvider {
  if (value === '') return CiProvider.GitHub;
  if (value === CiProvider.GitHub || value === CiProvider.GitLab) return value;
  throw invalidInput('provider', `"${value.slice(0, 20)}" is not a provider: choose one from the links on the page.`);
}

async function policiesView(ctx: RouteContext, visitor: Visitor, organization: MemberOrganization, extra: Extra): Promise<string> {
  const request = { actor: visitor.actor, organizationId: organization.id };
  // Other roles are told why on the page rather than refused by it: the list is what they may not read.
  const mayManage = can(organization.role, Permission.ManageSetup);
  const [policies, choices] = await Promise.all([mayManage ? listCiPolicies(request, ctx.domain) : null, credentialChoices(visitor.actor, organization.id, ctx)]);
  const { form, ...rest } = extra;
  return ciPoliciesPage({
    organization,
    chrome: visitor.chrome(organization.id),
    policies,
    people: choices.people,
    environments: choices.environments,
    components: choices.components,
    moreComponents: choices.moreComponents,
    issuer: ctx.config.issuer,
    mcpUrl: ctx.config.mcpUrl,
    ...rest,
    form: form ?? emptyForm(extra.provider),
  });
}

/** The form's provider when it is one, for the snippet beside a refused form. */
const snippetProvider = (form: PolicyForm): CiProvider => (form.provider === CiProvider.GitLab ? CiProvider.GitLab : CiProvider.GitHub);

const policyActions = [
  defineAction({
    path: '/orgs/:orgId/settings/ci-policies',
    input: policyFormInput,
    run: ({ actor, organization, input }, ctx) =>
      refusable(() =>
        createCiPolicy(
          {
            actor,
            organizationId: organization.id,
            name: input.name,
            provider: input.provider,
            ownerId: input.ownerId,
            repositoryId: input.repositoryId,
            repositoryName: input.repositoryName,
            workflow: input.workflow,
            environment: input.environment,
            refPatterns: refPatternsOf(input),
            requireHostedRunner: input.requireHostedRunner,
            scope: scopeOf(input),
          },
          ctx.domain,
        ),
      ),
    done: async (result, { visitor, organization, input }, ctx) =>
      'done' in result
        ? { to: `${base(organization.id)}?provider=${result.done.provider}`, notice: 'ci-policy-created' }
        : {
            status: refusalStatus(result.refused),
            page: await policiesView(ctx, visitor, organization, { notice: null, refused: result.refused.message, provider: snippetProvider(input), form: input }),
          },
  }),
  defineAction({
    path: '/orgs/:orgId/settings/ci-policies/:policyId/delete',
    run: ({ actor, organization, params }, ctx) => deleteCiPolicy({ actor, organizationId: organization.id, policyId: params.policyId }, ctx.domain),
    done: (_, { organization }) => ({ to: base(organization.id), notice: 'ci-policy-deleted' }),
  }),
];

const policyPages = [
  definePage({
    path: '/orgs/:orgId/settings/ci-policies',
    view: ({ visitor, organization, notice, query }, ctx) => policiesView(ctx, visitor, organization, { notice, provider: providerQuery(query('provider')) }),
  }),
  definePage({
    path: '/orgs/:orgId/settings/ci-policies/:policyId/delete',
    view: async ({ actor, visitor, organization, params, notice }, ctx) => {
      const policy = (await listCiPolicies({ actor, organizationId: organization.id }, ctx.domain)).find((p) => p.id === params.policyId);
      if (policy === undefined) throw notFound('CI trust policy', params.policyId);
      return deletePolicyPage({ organization, chrome: visitor.chrome(organization.id), notice, policy });
    },
  }),
];

/** Organization settings → CI trust policies: list, create, delete after a confirmation (owners and admins). */
export function ciPolicyRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, policyPages), ctx, policyActions, credentialFormBody);
}
