/**
 * What breaks the component contract (docs/component-contract.md), as the dev server reports it:
 * found in the file (gone, size, not HTML, no doctype) or by running it in the dev page (a script
 * that throws, or a promise that rejects unhandled, while the component loads).
 */
export type ContractProblemKind = 'missing' | 'too-large' | 'not-html' | 'no-doctype' | 'throws-at-load';

export interface ContractProblem {
  readonly kind: ContractProblemKind;
  /** For people: what is wrong and what to do. */
  readonly message: string;
}

/** The kinds only a browser finds: the dev page reports them (dev-page-script.ts). */
export const PAGE_PROBLEM_KINDS = ['throws-at-load'] as const;
