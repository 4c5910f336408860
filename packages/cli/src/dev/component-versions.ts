import type { HtmlDocument } from '@cp/domain';
import type { FileCheck } from './contract-checks.js';
import type { ContractProblem } from './contract-problems.js';

/** A version that passed every check, the file's checks and the dev page's run: what /consume serves. */
export interface GoodVersion {
  /** A UUID made of the file's sha256: saving the same bytes again is the same variant, and the SDK keeps it. */
  readonly variantId: string;
  /** `v<n>`, as the delivery API names variants. */
  readonly name: string;
  readonly revision: number;
  readonly document: HtmlDocument;
}

/** What the dev page shows and acts on (sent on its status stream). */
export interface DevStatus {
  /** Counts the reads of the file. */
  readonly revision: number;
  readonly good: { readonly variantId: string; readonly name: string; readonly revision: number } | null;
  /** A read that passed the file's checks and waits for a dev page to run it. */
  readonly candidate: { readonly revision: number; readonly html: string } | null;
  /** Of the latest read; empty while it is good or waiting for its run. */
  readonly problems: readonly ContractProblem[];
}

export type ReadOutcome = 'unchanged' | 'broken' | 'candidate';
export type VerdictOutcome = 'promoted' | 'broken' | 'stale';

const uuidOf = (sha256: string): string =>
  [sha256.slice(0, 8), sha256.slice(8, 12), `4${sha256.slice(13, 16)}`, ((parseInt(sha256[16]!, 16) & 3) | 8).toString(16) + sha256.slice(17, 20), sha256.slice(20, 32)].join('-');

/**
 * The versions of the watched file: the last good one (kept on show while later reads are
 * broken), the candidate waiting for a dev page to run it, and the problems of the latest read.
 * No I/O: the server feeds it reads and the page's verdicts.
 */
export class ComponentVersions {
  private revision = 0;
  private sequence = 0;
  private good: GoodVersion | null = null;
  private candidate: { revision: number; document: HtmlDocument } | null = null;
  private problems: readonly ContractProblem[] = [];

  /** A new read of the file: its checks' outcome, or problems found before any check (the file is gone). */
  read(check: FileCheck): ReadOutcome {
    this.revision++;
    if (!check.ok) {
      this.candidate = null;
      this.problems = check.problems;
      return 'broken';
    }
    this.problems = [];
    if (this.good?.document.sha256 === check.document.sha256) {
      this.candidate = null;
      return 'unchanged';
    }
    this.candidate = { revision: this.revision, document: check.document };
    return 'candidate';
  }

  /** The dev page ran the candidate of `revision`: without problems it becomes the good version. */
  verdict(revision: number, problems: readonly ContractProblem[]): VerdictOutcome {
    const candidate = this.candidate;
    if (candidate === null || candidate.revision !== revision) return 'stale';
    this.candidate = null;
    if (problems.length > 0) {
      this.problems = problems;
      return 'broken';
    }
    this.good = { variantId: uuidOf(candidate.document.sha256), name: `v${++this.sequence}`, revision, document: candidate.document };
    return 'promoted';
  }

  current(): GoodVersion | null {
    return this.good;
  }

  status(): DevStatus {
    const { good, candidate } = this;
    return {
      revision: this.revision,
      good: good === null ? null : { variantId: good.variantId, name: good.name, revision: good.revision },
      candidate: candidate === null ? null : { revision: candidate.revision, html: candidate.document.html },
      problems: this.problems,
    };
  }
}
