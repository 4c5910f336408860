import { CpError } from '../errors.js';

/** A problem the render core makes itself (no HTTP answer behind it: status 0). */
export const fail = (code: string, detail: string): CpError => new CpError({ type: `/problems/${code}`, title: code, status: 0, detail, code });
