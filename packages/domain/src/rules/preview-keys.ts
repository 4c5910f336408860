import { createHash, randomBytes } from 'node:crypto';
import { invalidInput } from '../errors/factories.js';
import { Limits } from './limits.js';
import { hasControlCharacters } from './text.js';

/** Secrets read `cpk_` + 43 base64url characters (256 random bits), so they are recognisable in a leak scan. */
const SECRET = /^cpk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 10;

export const newPreviewKeySecret = (): string => `cpk_${randomBytes(32).toString('base64url')}`;

/** A fast hash suffices: the secret has full entropy, so there is nothing to guess from the hash. */
export const hashPreviewKey = (secret: string): string =>
  createHash('sha256').update(secret).digest('hex');

export const previewKeyPrefix = (secret: string): string => secret.slice(0, PREFIX_LENGTH);

/** Whether a presented value can be a preview key at all (spares a lookup for junk). */
export const isPreviewKeySecret = (value: string): boolean => SECRET.test(value);

export function normalizePreviewKeyName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0)
    throw invalidInput(
      'name',
      'give the preview key a name, for example the host that will use it.',
    );
  if ([...name].length > Limits.previewKeyNameMaxLength) {
    throw invalidInput(
      'name',
      `the preview key name must be at most ${Limits.previewKeyNameMaxLength} characters.`,
    );
  }
  if (hasControlCharacters(name))
    throw invalidInput('name', 'the preview key name must not contain control characters.');
  return name;
}
