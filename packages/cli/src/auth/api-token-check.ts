import { crc32 } from 'node:zlib';

/**
 * Why a string is not an API token, or null when it is one (docs/cli-and-ci.md, "API tokens"): `cpt_`, 43
 * base64url characters, then 6 of CRC-32 over everything before them, big-endian. Checked before any request,
 * so a truncated or mistyped CPC_TOKEN is named at once.
 *
 * TODO(lead): the domain's rules/api-tokens.ts exports `apiTokenProblem` with the same rule; when it is on main,
 * make this module re-export it (`export { apiTokenProblem } from '@cp/domain'`) and delete the body below.
 */
export function apiTokenProblem(token: string): string | null {
  if (!token.startsWith('cpt_')) return 'it does not start with "cpt_"';
  if (!/^cpt_[A-Za-z0-9_-]{49}$/.test(token)) return `it is ${token.length} characters long, or holds characters other than base64url; an API token has 53`;
  const body = token.slice(0, -6);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body) >>> 0);
  return checksum.toString('base64url') === token.slice(-6) ? null : 'its checksum does not match (a typo, or a truncated copy)';
}
