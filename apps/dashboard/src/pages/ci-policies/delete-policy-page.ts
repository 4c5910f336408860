import type { CiTrustPolicy } from '@cp/domain';
import { html } from '@cp/web-forms';
import { layout } from '../layout.js';
import { actionForm } from '../parts/action-form.js';
import type { OrganizationPageContent } from '../parts/organization-page.js';
import { PROVIDER_LABELS } from './ci-policies-page.js';

export interface DeletePolicyPageContent extends OrganizationPageContent {
  readonly policy: CiTrustPolicy;
}

/** The confirmation before deleting a CI trust policy: which jobs stop publishing, and the button. */
export function deletePolicyPage(content: DeletePolicyPageContent): string {
  const { organization, chrome, policy } = content;
  const base = `/orgs/${organization.id}/settings/ci-policies`;
  return layout({
    title: `Delete ${policy.name}`,
    chrome,
    body: html`<h1>Delete the CI trust policy ${policy.name}?</h1>
<p>${PROVIDER_LABELS[policy.provider]} jobs of <strong>${policy.repositoryName}</strong> running <code>${policy.workflow}</code> are refused from their next exchange, and the access tokens the policy already gave stop within 30 seconds. This cannot be undone.</p>
${actionForm({ action: `${base}/${policy.id}/delete`, csrf: chrome.csrf, label: 'Delete this policy', style: 'danger', inline: true })}
<p><a href="${base}">Cancel</a></p>`,
  });
}
