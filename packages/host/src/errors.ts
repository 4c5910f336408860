import type { CpProblem } from './types.js';

/** What `ready` rejects with: the problem the delivery API answered, or one the SDK made (network, integrity). */
export class CpError extends Error {
  override readonly name = 'CpError';
  constructor(readonly problem: CpProblem) {
    super(problem.detail);
  }
}
