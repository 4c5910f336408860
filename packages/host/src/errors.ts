import type { CpProblem } from './types.js';

/** What `ready` rejects with: the problem the delivery API answered, or one the SDK made (network, integrity). */
export class CpError extends Error {
  // Assigned, not class fields: the targets the SDK is built for would get a helper for those.
  declare readonly name: 'CpError';
  declare readonly problem: CpProblem;
  constructor(problem: CpProblem) {
    super(problem.detail);
    this.problem = problem;
    this.name = 'CpError';
  }
}
