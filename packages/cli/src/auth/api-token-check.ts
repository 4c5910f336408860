import { crc32 } from 'node:zlib';

/**
 * Why a string is not an API token (a sentence), or null when it is one (docs/cli-and-ci.md, "API tokens"): `cpt_`, 43
 * base64url characters, then 6 of CRC-32 over everything before them, big-endian. Checked before any request,
 * so a truncated or mistyped CPC_TOKEN is named at once.
 *
 * TODO(lead): the domain's rules/api-tokens.ts exports `apiTokenProblem` with the same rule; when it is on main,
 * make this module re-export it (`export { apiTokenProblem } from '@cp/domain'`) and delete the body below.
 */
export function apiTokenProblem(token: string): string | null {
  if (!token.startsWith('cpt_')) return 'This is not an API token: API tokens start with cpt_.';
  if (!/^cpt_[A-Za-z0-9_-]{49}$/.test(token)) return 'This is not an API token: an API token is cpt_ followed by 49 letters, digits, - or _ (53 characters in all).';
  const body = token.slice(0, -6);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body) >>> 0);
  return checksum.toString('base64url') === token.slice(-6) ? null : 'This is not an API token: its checksum does not match (a character was changed or lost).';
}
