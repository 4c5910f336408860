import { API_TOKEN_LIMITS, invalidInput, Limits, type CredentialScopeInput } from '@cp/domain';
import express, { type RequestHandler } from 'express';
import { z } from 'zod';
import { checked, list, text } from '../kit/form-input.js';

/**
 * The API token and CI trust policy forms as typed (every value kept, to answer a refusal with the
 * same form), and what they mean to the use cases. Text passes through for the use case to check in
 * its own words; the form decides only what the use case's input cannot hold (the components radio,
 * a number of days), each refusal naming the field like the domain's INVALID_INPUT.
 */

/** The narrowing both forms share (CredentialScope without the organization, which is the page's). */
export const scopeFields = {
  access: text,
  environments: list,
  components: text,
  componentIds: list,
  protectedEnvironments: checked,
};

export const tokenFormInput = z.object({ ...scopeFields, name: text, expiresInDays: text });
export type TokenForm = z.output<typeof tokenFormInput>;

export const policyFormInput = z.object({
  ...scopeFields,
  name: text,
  provider: text,
  ownerId: text,
  repositoryId: text,
  repositoryName: text,
  workflow: text,
  environment: text,
  refPatterns: text,
  requireHostedRunner: checked,
});
export type PolicyForm = z.output<typeof policyFormInput>;

export type ScopeForm = Pick<TokenForm, keyof typeof scopeFields>;

/** What a new form starts with: read access to every component, no environment, not protected ones. */
export const EMPTY_SCOPE: ScopeForm = { access: 'read', environments: [], components: 'all', componentIds: [], protectedEnvironments: false };

/** The narrowing the form means; access, environments and components are the use case's to check. */
export function scopeOf(form: ScopeForm): CredentialScopeInput {
  if (form.components !== 'all' && form.components !== 'chosen') throw invalidInput('components', 'choose all components or the ones ticked.');
  if (form.components === 'chosen' && form.componentIds.length === 0)
    throw invalidInput('componentIds', 'tick at least one component, or choose all components.');
  return {
    componentIds: form.components === 'all' ? null : form.componentIds,
    environments: form.environments,
    access: form.access,
    protectedEnvironments: form.protectedEnvironments,
  };
}

/** Empty: the use case's default; otherwise a whole number, its range the use case's to check. */
export function expiryOf(form: TokenForm): number | undefined {
  const days = form.expiresInDays.trim();
  if (days === '') return undefined;
  if (!/^[0-9]{1,4}$/.test(days)) throw invalidInput('expiresInDays', `"${days.slice(0, 20)}" is not a number of days: give a whole number from ${API_TOKEN_LIMITS.expiryDaysMin} to ${API_TOKEN_LIMITS.expiryDaysMax}.`);
  return Number(days);
}

/** One pattern a line; blank lines are no pattern. */
export const refPatternsOf = (form: PolicyForm): string[] =>
  form.refPatterns
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A field per ticked component and environment: the forms may carry every component the page lists. */
export const credentialFormBody: RequestHandler = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: Limits.listMax + 60 });
