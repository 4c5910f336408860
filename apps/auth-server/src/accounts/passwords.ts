import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * scrypt (RFC 7914) from node:crypto: no native dependency. Stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`, so the cost can be raised
 * and older hashes still verify; a sign-in upgrades them (sign-in.ts).
 */
export interface ScryptCost {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's current floor for scrypt. Tests may pass a lower cost to the app (test/support/harness.ts); production never does. */
export const PASSWORD_COST: ScryptCost = { logN: 17, r: 8, p: 1 };

const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the hashing work an anonymous request can cause. */
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, { logN, r, p }: ScryptCost): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; node refuses more than maxmem, so allow twice that.
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(
  password: string,
  cost: ScryptCost = PASSWORD_COST,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return [
    'scrypt',
    cost.logN,
    cost.r,
    cost.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** The cost a stored hash was made with, or null for a hash this module did not write. */
function parse(stored: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | null {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  const cost = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return null;
  if (!Object.values(cost).every((value) => Number.isInteger(value) && value > 0)) return null;
  return { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

/** False for a wrong password and for a hash this module did not write. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const actual = await derive(password, parsed.salt, parsed.cost);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when the stored hash was made with less work than `cost` in any parameter (it is rehashed at the next sign-in). */
export function isWeakerThan(stored: string, cost: ScryptCost): boolean {
  const parsed = parse(stored);
  return (
    parsed !== null &&
    (parsed.cost.logN < cost.logN || parsed.cost.r < cost.r || parsed.cost.p < cost.p)
  );
}

const decoys = new Map<string, Promise<string>>();

/**
 * A hash of nothing anyone knows, at `cost`: checked when the email has no account,
 * so an unknown address takes as long to refuse as a wrong password.
 */
export function decoyHash(cost: ScryptCost): Promise<string> {
  const key = `${cost.logN}$${cost.r}$${cost.p}`;
  let decoy = decoys.get(key);
  if (decoy === undefined) {
    decoy = hashPassword(randomBytes(16).toString('hex'), cost);
    decoys.set(key, decoy);
  }
  return decoy;
}
