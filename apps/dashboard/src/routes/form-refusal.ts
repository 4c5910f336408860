import { ErrorCode, httpStatusOf, isDomainError, type DomainError } from '@cp/domain';

/** Refusals a create form answers with itself (what was typed kept, the message above it); anything else is the usual error page. */
const ANSWERED_BY_FORM: readonly string[] = [ErrorCode.InvalidInput, ErrorCode.Forbidden, ErrorCode.LimitReached, ErrorCode.NameTaken];

export type Refusable<T> = { readonly done: T } | { readonly refused: DomainError };

export async function refusable<T>(work: () => Promise<T>): Promise<Refusable<T>> {
  try {
    return { done: await work() };
  } catch (error) {
    if (isDomainError(error) && ANSWERED_BY_FORM.includes(error.code)) return { refused: error };
    throw error;
  }
}

/** Bad input is 422 (the form came back to fix), as the experience editor's and the rollout start's; the others keep their status. */
export const refusalStatus = (error: DomainError): number => (error.code === ErrorCode.InvalidInput ? 422 : httpStatusOf(error.code));
