import { API_TOKEN_LIMITS, CiProvider, Permission, type CiTrustPolicy, type Environment } from '@cp/domain';
import { csrfInput, errorBox, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import type { PolicyForm } from '../../routes/credential-form.js';
import { scopeFieldset, type ComponentChoice } from '../credentials/scope-fieldset.js';
import { scopeSummary } from '../credentials/scope-summary.js';
import { layout, when } from '../layout.js';
import { emptyState } from '../parts/empty-state.js';
import { listTable } from '../parts/list-table.js';
import type { OrganizationPageContent } from '../parts/organization-page.js';
import { roleGate } from '../parts/role-gate.js';
import { choiceLinks } from '../usage/choice-links.js';
import { workflowSnippet } from './workflow-snippet.js';

export const PROVIDER_LABELS: { readonly [P in CiProvider]: string } = {
  [CiProvider.GitHub]: 'GitHub Actions',
  [CiProvider.GitLab]: 'gitlab.com',
};

export interface CiPoliciesPageContent extends OrganizationPageContent {
  /** Null for a role that may not see them (the page says why). */
  readonly policies: readonly CiTrustPolicy[] | null;
  readonly people: ReadonlyMap<string, string>;
  readonly environments: readonly Environment[];
  readonly components: readonly ComponentChoice[];
  readonly moreComponents: boolean;
  /** The provider the snippet and the form are for (`?provider=`). */
  readonly provider: CiProvider;
  readonly issuer: string;
  readonly mcpUrl: string;
  readonly form: PolicyForm;
  /** Why the form was refused: the use case's message naming the field. */
  readonly refused?: string;
}

const GATE_ID = 'ci-policies-role-note';

const gateFor = (content: CiPoliciesPageContent) =>
  roleGate(content.organization.role, Permission.ManageSetup, 'see, create or delete CI trust policies', GATE_ID);

/** What a job must match beyond the ids: "release.yml · environment production · refs/tags/v* · hosted runners". */
const matches = (policy: CiTrustPolicy): SafeHtml =>
  html`<code>${policy.workflow}</code> · ${policy.environment === null ? 'any environment' : `environment ${policy.environment}`} · ${policy.refPatterns.length === 0 ? 'any ref' : policy.refPatterns.join(', ')} · ${policy.requireHostedRunner ? 'hosted runners only' : 'any runner'}`;

function row(content: CiPoliciesPageContent, base: string, names: ReadonlyMap<string, string>, policy: CiTrustPolicy): SafeHtml {
  return html`<tr data-testid="ci-policy"><th scope="row">${policy.name}</th><td>${policy.repositoryName} <span class="hint">(${PROVIDER_LABELS[policy.provider]}; owner ${policy.ownerId}, repository ${policy.repositoryId})</span></td><td>${matches(policy)}</td><td>${scopeSummary(policy.scope, names)}</td><td>${when(policy.createdAt)} by ${content.people.get(policy.createdBy) ?? 'a former member'}</td><td><a href="${base}/${policy.id}/delete" aria-label="Delete ${policy.name}…">Delete…</a></td></tr>`;
}

/** The gate's note id when the form is disabled for the visitor's role, else null. */
type Lock = string | null;

/** ` aria-describedby` naming the field's hint and, when locked, the role note; ` disabled` when locked. */
const described = (lock: Lock, hintId?: string): SafeHtml | '' => {
  const ids = [hintId, lock].filter((id): id is string => id !== undefined && id !== null);
  return html`${ids.length === 0 ? '' : html` aria-describedby="${ids.join(' ')}"`}${lock === null ? '' : html` disabled`}`;
};

const field = (id: string, name: string, label: SafeHtml | string, value: string, lock: Lock, extra: { required?: boolean; placeholder?: string; hint?: SafeHtml; maxLength?: number } = {}): SafeHtml => {
  const hintId = extra.hint === undefined ? undefined : `${id}-hint`;
  return html`<p><label for="${id}">${label}</label> <input type="text" id="${id}" name="${name}" value="${value}" size="40"${extra.maxLength === undefined ? '' : html` maxlength="${extra.maxLength}"`}${extra.required === true ? html` required` : ''}${extra.placeholder === undefined ? '' : html` placeholder="${extra.placeholder}"`}${described(lock, hintId)}>${extra.hint === undefined ? '' : html` <span class="hint" id="${hintId}">${extra.hint}</span>`}</p>`;
};

function createForm(content: CiPoliciesPageContent, base: string, lock: Lock, off: SafeHtml | ''): SafeHtml {
  const { form, chrome } = content;
  const gitlab = form.provider === CiProvider.GitLab;
  const option = (p: CiProvider) => html`<option value="${p}"${form.provider === p ? html` selected` : ''}>${PROVIDER_LABELS[p]}</option>`;
  return html`<h2 id="new-policy">New CI trust policy</h2>
${content.refused === undefined ? '' : errorBox(content.refused)}
<form method="post" action="${base}">${csrfInput(chrome.csrf)}
${field('policy-name', 'name', 'Name', form.name, lock, { maxLength: API_TOKEN_LIMITS.nameMaxLength, required: true, placeholder: 'web-release', hint: html`Refusals name it: "repository_id does not match policy 'web-release'".` })}
<p><label for="policy-provider">Provider</label> <select id="policy-provider" name="provider"${off}>${option(CiProvider.GitHub)}${option(CiProvider.GitLab)}</select></p>
${field('policy-owner', 'ownerId', gitlab ? 'Namespace id' : 'Owner id', form.ownerId, lock, { required: true, hint: html`GitHub <code>repository_owner_id</code>, GitLab <code>namespace_id</code>: a number that stays when names change.` })}
${field('policy-repository', 'repositoryId', gitlab ? 'Project id' : 'Repository id', form.repositoryId, lock, { required: true, hint: html`GitHub <code>repository_id</code>, GitLab <code>project_id</code>: a recreated repository gets a new one.` })}
${field('policy-repository-name', 'repositoryName', gitlab ? 'Project path' : 'Repository name', form.repositoryName, lock, { required: true, placeholder: 'acme/web', hint: html`For messages only: the ids decide.` })}
${field('policy-workflow', 'workflow', 'Workflow file', form.workflow, lock, { required: true, placeholder: gitlab ? '.gitlab-ci.yml' : '.github/workflows/release.yml', hint: html`The file that runs <code>cpc</code> (a reusable workflow: its own file).` })}
${field('policy-environment', 'environment', 'Deployment environment (optional)', form.environment, lock, { hint: html`The CI job's <code>environment</code>; empty: any.` })}
<p><label for="policy-refs">Ref patterns (optional, one per line)</label> <textarea id="policy-refs" name="refPatterns" rows="3" cols="40" class="mono"${described(lock, 'policy-refs-hint')}>${form.refPatterns}</textarea> <span class="hint" id="policy-refs-hint"><code>refs/tags/v*</code>, <code>refs/heads/main</code>; <code>*</code> matches anything; empty: any ref.</span></p>
<p class="check wrap"><input type="checkbox" id="policy-hosted" name="requireHostedRunner" value="on"${form.requireHostedRunner ? html` checked` : ''}${off}><label for="policy-hosted">Hosted runners only (refuse self-hosted runners)</label></p>
${scopeFieldset({ idPrefix: 'policy', form, role: content.organization.role, environments: content.environments, components: content.components, moreComponents: content.moreComponents, disabled: off })}
<button type="submit"${off}>Create policy</button>
</form>`;
}

function snippetSection(content: CiPoliciesPageContent, base: string): SafeHtml {
  const environment = content.environments.find((e) => e.name === 'staging')?.name ?? content.environments[0]?.name ?? 'staging';
  const choices = Object.values(CiProvider).map((p) => ({ label: PROVIDER_LABELS[p], href: `${base}?provider=${p}`, current: p === content.provider }));
  const file = content.provider === CiProvider.GitLab ? '.gitlab-ci.yml' : 'the workflow file';
  return html`<h2>The workflow</h2>
${choiceLinks('Provider', choices)}
<p class="hint">Paste it into ${file}: <code>cpc</code> exchanges the job's own OIDC token (audience <code>${content.issuer}</code>) for an access token of at most 15 minutes. No secret to store.</p>
<pre data-testid="workflow-snippet"><code>${workflowSnippet(content.provider, { issuer: content.issuer, mcpUrl: content.mcpUrl, environment })}</code></pre>`;
}

/** Organization settings → CI trust policies: the list, the snippet, and the form (owners and admins; others see why not). */
export function ciPoliciesPage(content: CiPoliciesPageContent): string {
  const { organization, chrome, policies } = content;
  const base = `/orgs/${organization.id}/settings/ci-policies`;
  const gate = gateFor(content);
  const names = new Map(content.components.map((c) => [c.id, c.name]));
  return layout({
    title: 'CI trust policies',
    chrome,
    body: html`<h1>CI trust policies of ${organization.name}</h1>
${noticeBox(content.notice)}
<p><a href="/orgs/${organization.id}/settings">Organization settings</a></p>
<p class="hint">Trusted publishing: a GitHub Actions or gitlab.com job that matches a policy publishes with <code>cpc</code> as the person who made the policy (never beyond their current role), narrowed as the policy says. Matching is on the owner's and the repository's ids, then the workflow file, the environment, the ref and the runner.</p>
${gate.note}
${policies === null ? '' : listTable({ columns: ['Name', 'Repository', 'Jobs it accepts', 'Scope', 'Created', html`<span class="skip">Actions</span>`], rows: policies.map((p) => row(content, base, names, p)), empty: emptyState('No CI trust policies yet.') })}
${snippetSection(content, base)}
${createForm(content, base, gate.allowed ? null : GATE_ID, gate.disabled)}`,
  });
}
