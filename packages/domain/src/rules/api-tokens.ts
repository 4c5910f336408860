import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API tokens read `cpt_` + 43 base64url characters (256 random bits) + 6 base64url characters of
 * checksum (CRC-32, big-endian, of everything before it): secret scanners match `cpt_[A-Za-z0-9_-]{49}`,
 * and a mistyped token is refused before any lookup (docs/cli-and-ci.md).
 */
const PREFIX = 'cpt_';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const TOKEN_LENGTH = PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const SHAPE = /^cpt_[A-Za-z0-9_-]{49}$/;
const PREFIX_LENGTH = 12;

/** The documented limits of API tokens and CI trust policies (docs/cli-and-ci.md). */
export const API_TOKEN_LIMITS = {
  nameMaxLength: 64,
  expiryDaysMin: 1,
  expiryDaysMax: 90,
  expiryDaysDefault: 30,
  /** Unrevoked, unexpired tokens one person may hold in one organization. */
  tokensPerCreator: 20,
  ciPoliciesPerOrganization: 20,
  refPatternsPerPolicy: 20,
  refPatternMaxLength: 128,
  workflowPathMaxLength: 256,
  /** Components one credential may be narrowed to (beyond them: all components). */
  componentsPerScope: 100,
  /** The longest an access token from an exchange lives (docs/cli-and-ci.md), in seconds. */
  accessTokenSeconds: 900,
} as const;

const checksumOf = (text: string): string => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(text));
  return bytes.toString('base64url');
};

export const newApiTokenSecret = (): string => {
  const body = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  return `${body}${checksumOf(body)}`;
};

/** Why `text` cannot be an API token (shape, then checksum), or null when it can; no lookup needed. */
export function apiTokenProblem(text: string): string | null {
  if (!text.startsWith(PREFIX)) return `This is not an API token: API tokens start with ${PREFIX}.`;
  if (!SHAPE.test(text)) {
    return `This is not an API token: an API token is ${PREFIX} followed by ${TOKEN_LENGTH - PREFIX.length} letters, digits, - or _ (${TOKEN_LENGTH} characters in all).`;
  }
  const body = text.slice(0, PREFIX.length + BODY_LENGTH);
  if (checksumOf(body) !== text.slice(body.length)) {
    return 'This is not an API token: its checksum does not match (a character was changed or lost).';
  }
  return null;
}

/** A fast hash suffices: the secret has full entropy, so there is nothing to guess from the hash. */
export const hashApiToken = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** `cpt_` + 8 characters: enough to tell tokens apart in a list, far too short to use. */
export const apiTokenPrefix = (secret: string): string => secret.slice(0, PREFIX_LENGTH);
