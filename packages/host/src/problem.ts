import { CpError } from './errors.js';
import type { CpProblem } from './types.js';

/** A problem the SDK makes itself; `status` 0 when no HTTP answer stands behind it. */
export const sdkError = (code: string, detail: string, status = 0, resource?: string): CpError =>
  new CpError({ type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`, title: code, status, detail, code, ...(resource ? { resource } : {}) });

/** The problem behind anything thrown while loading (a `CpError`, or a bug: reported, not swallowed). */
export const problemOf = (error: unknown): CpProblem =>
  error instanceof CpError ? error.problem : sdkError('BAD_RESPONSE', String(error)).problem;
